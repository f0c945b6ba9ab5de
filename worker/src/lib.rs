//! `tflock-worker`: a Cloudflare Worker serving an edge provider network mirror from R2.
//!
//! - `GET /<host>/<namespace>/<type>/index.json`, `.../<version>.json` and the archives: the
//!   network mirror protocol, straight from the R2 bucket bound as `MIRROR` (bodies stream).
//! - `PUT /<host>/<namespace>/<type>/terraform-provider-<type>_<version>_<os>_<arch>.zip`
//!   with `Authorization: Bearer <UPLOAD_TOKEN>`: stores the archive while the core's
//!   streaming `ZipHasher` hashes it (bounded memory: a Worker has 128 MB, provider zips reach
//!   hundreds of MB), then lists it in `<version>.json` with its `h1:` and `zh:` and the
//!   version in `index.json`. Listing both for every platform gives complete lock files
//!   (OpenTofu's `trust_all_hashes`). A zip that cannot be hashed is refused and not kept.
//!
//! Routing is pure ([`route`]) and tested natively; the Workers glue is in `edge` (wasm32).

pub mod route;

#[cfg(target_arch = "wasm32")]
mod edge;
