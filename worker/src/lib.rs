//! `tflock-worker`: a Cloudflare Worker serving a verified pull-through provider network
//! mirror from R2, for any registry host.
//!
//! Documents and archives are filled from the origin registry on a miss, with every rule
//! (discovery, credentials, `SHA256SUMS` signatures, archive acceptance, HTTP ranges and
//! caching) taken from `tflock_core::edge`; `h1:` hashes of every platform are added by the
//! `FILL` queue consumer; uploads with a token still work. See worker/README.md.
//!
//! Routing is core's (`tflock_core::edge::route`), every name parsed before use; the
//! Workers glue is in `edge` (wasm32).

#[cfg(target_arch = "wasm32")]
mod edge;
