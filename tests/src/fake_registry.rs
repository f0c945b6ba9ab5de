//! An in-memory fake provider source for planner and end-to-end tests.
//!
//! [`FakeRegistry`] holds providers × versions × platforms of small generated zips
//! (deterministic bytes), signs each release's `SHA256SUMS` with a test OpenPGP key made with
//! the `pgp` crate from a fixed seed, and renders everything as the static file tree a
//! registry and a network mirror serve ([`FakeRegistry::files`]): the discovery document,
//! `versions`, `download/<os>/<arch>` answers (with or without OpenTofu's `packages`), the
//! zips, `SHA256SUMS` and its `.sig`, and the mirror's `index.json` / `<version>.json`.
//! [`Knobs`] tamper with it (wrong zip bytes, lying `packages` hashes, bad signature, unknown
//! key, missing platform, registry warnings).
//!
//! [`FakeHost`] is the host loop a real CLI runs, minus the network: it drives a
//! [`Planner`] by fetching from that file tree, validating every document with
//! `tflock_core::protocol` and hashing the zips with `tflock_core::hash::hash_zip`.
//!
//! Expected values for tests come from [`FakeRegistry::expected_h1`] and
//! [`FakeRegistry::expected_zh`], which hash the generated files with an independent
//! implementation of Go's dirhash `Hash1` (not `tflock_core::hash`).

use std::collections::BTreeMap;
use std::io::{Cursor, Write};

use pgp::composed::{
    DetachedSignature, KeyType, SecretKeyParamsBuilder, SignedPublicKey, SignedSecretKey,
};
use pgp::crypto::hash::HashAlgorithm;
use pgp::ser::Serialize as _;
use pgp::types::{KeyDetails, Password, Timestamp};
use rand::rngs::StdRng;
use rand::SeedableRng;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use url::Url;

use tflock_core::addrs::{Platform, Provider};
use tflock_core::hash::{hash_zip, PackageHash};
use tflock_core::install::{
    Answer, AvailableVersions, FetchedPackage, Need, Outcome, Planner, SourceError,
    SourceErrorKind, SourcePackage,
};
use tflock_core::protocol::discovery::{discovery_url, Discovery, DiscoveryError};
use tflock_core::protocol::mirror::{
    index_url, platform_missing, version_url, MirrorIndex, MirrorPackageError, MirrorVersion,
};
use tflock_core::protocol::registry::{
    download_path, platform_not_supported, provider_not_known, versions_path, DownloadResponse,
    VersionsResponse,
};
use tflock_core::version::Version;
use tflock_core::Flavor;

/// Host name of the fake network mirror.
pub const MIRROR_HOST: &str = "mirror.example";
/// Base URL of the fake network mirror (as a CLI config `network_mirror { url = ... }`).
pub const MIRROR_BASE: &str = "https://mirror.example/providers/";

/// A test OpenPGP key (Ed25519, v4), generated deterministically from a seed.
#[derive(Debug, Clone)]
pub struct TestKey {
    secret: SignedSecretKey,
    /// The ASCII-armored public key, as a registry lists it in `signing_keys`.
    pub armored_public: String,
    /// The primary key ID: 16 upper-case hex digits (Go's `KeyIdString`).
    pub key_id: String,
}

impl TestKey {
    /// Generates the key for `seed` (the same seed always gives the same key and key ID).
    pub fn generate(seed: u64, user_id: &str) -> TestKey {
        let mut params = SecretKeyParamsBuilder::default();
        params
            .key_type(KeyType::Ed25519Legacy)
            .can_certify(true)
            .can_sign(true)
            .created_at(Timestamp::from_secs(1_600_000_000))
            .primary_user_id(user_id.into());
        let secret = params
            .build()
            .expect("key parameters")
            .generate(StdRng::seed_from_u64(seed))
            .expect("generate test key");
        let public = SignedPublicKey::from(secret.clone());
        let armored_public = public
            .to_armored_string(Default::default())
            .expect("armor public key");
        let key_id = hex::encode_upper(public.primary_key.legacy_key_id().as_ref());
        TestKey {
            secret,
            armored_public,
            key_id,
        }
    }

    /// A binary detached signature over `data` (what registries serve as `.sig`).
    pub fn sign(&self, data: &[u8]) -> Vec<u8> {
        let sig = DetachedSignature::sign_binary_data(
            StdRng::seed_from_u64(7),
            &self.secret.primary_key,
            &Password::empty(),
            HashAlgorithm::Sha256,
            data,
        )
        .expect("sign");
        sig.to_bytes().expect("serialize signature")
    }
}

/// How the registry signs `SHA256SUMS`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Signing {
    /// Signed with the listed key.
    #[default]
    Good,
    /// The listed key signed a different document (the signature does not verify).
    Bad,
    /// Signed with a key the registry does not list.
    UnknownKey,
    /// No `signing_keys` listed (the signature is still served).
    NoKeys,
}

/// Ways to make the fake source misbehave. Package selectors are `"<provider> <version>
/// <platform>"`, e.g. `"registry.terraform.io/hashicorp/null 3.2.0 linux_amd64"`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Knobs {
    /// Serve OpenTofu's `packages` (every platform's `h1:`/`zh:` and size).
    pub packages: bool,
    /// How `SHA256SUMS` is signed.
    pub signing: Signing,
    /// Serve different zip bytes (same size) than the `shasum` says.
    pub tamper_zip: Vec<String>,
    /// List a wrong `h1:` for these packages in `packages`.
    pub lying_h1: Vec<String>,
    /// Platforms the release does not have (404 on download, absent from SHA256SUMS,
    /// `packages` and the mirror).
    pub missing: Vec<String>,
    /// Registry `warnings` per provider address.
    pub warnings: BTreeMap<String, Vec<String>>,
    /// The mirror's `<version>.json` also lists each archive's `zh:`.
    pub mirror_zh: bool,
    /// These packages' genuine zips start with a self-extractor stub: Go reads them through
    /// the central directory's base offset, a stream cannot reconcile them.
    pub stubbed_zip: Vec<String>,
}

/// The identity of one package.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct PackageId {
    /// The provider.
    pub provider: Provider,
    /// The version string.
    pub version: String,
    /// `os_arch`.
    pub platform: String,
}

impl PackageId {
    /// The selector form used by [`Knobs`].
    pub fn selector(&self) -> String {
        format!("{} {} {}", self.provider, self.version, self.platform)
    }
}

/// The fake registry (and mirror) contents.
#[derive(Debug, Clone)]
pub struct FakeRegistry {
    /// Provider → version → platforms offered.
    pub releases: BTreeMap<Provider, BTreeMap<String, Vec<String>>>,
    /// Misbehaviour.
    pub knobs: Knobs,
    /// The key the registry lists and signs with.
    pub key: TestKey,
    /// A key nobody lists (for [`Signing::UnknownKey`]).
    pub stranger: TestKey,
}

/// The files one package consists of once unpacked: `(name, content)`.
pub fn package_files(id: &PackageId) -> Vec<(String, Vec<u8>)> {
    package_files_with(id, "fake")
}

fn package_files_with(id: &PackageId, word: &str) -> Vec<(String, Vec<u8>)> {
    let exe = if id.platform.starts_with("windows_") {
        ".exe"
    } else {
        ""
    };
    vec![
        (
            format!(
                "terraform-provider-{}_v{}{exe}",
                id.provider.r#type, id.version
            ),
            format!(
                "#!/bin/sh\n# {word} provider {} {} for {}\n",
                id.provider, id.version, id.platform
            )
            .into_bytes(),
        ),
        (
            "LICENSE.txt".to_string(),
            b"Test fixture, no rights reserved.\n".to_vec(),
        ),
    ]
}

/// A deterministic zip of `files` (stored, fixed timestamps, no directory entries).
pub fn make_zip(files: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Stored)
        .last_modified_time(zip::DateTime::default())
        .unix_permissions(0o755);
    for (name, content) in files {
        w.start_file(name.as_str(), opts).expect("zip entry");
        w.write_all(content).expect("zip write");
    }
    w.finish().expect("zip finish").into_inner()
}

/// Go dirhash `Hash1` over `(name, content)` pairs, written independently of
/// `tflock_core::hash` so tests do not check the code against itself.
pub fn independent_h1(files: &[(String, Vec<u8>)]) -> String {
    let mut sorted: Vec<&(String, Vec<u8>)> = files.iter().collect();
    sorted.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    let mut summary = String::new();
    for (name, content) in sorted {
        summary.push_str(&hex::encode(Sha256::digest(content)));
        summary.push_str("  ");
        summary.push_str(name);
        summary.push('\n');
    }
    use base64_std::encode;
    format!("h1:{}", encode(&Sha256::digest(summary.as_bytes())))
}

/// Minimal standard base64 (with padding), to keep the expected values independent.
mod base64_std {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

    /// Encodes `data`.
    pub fn encode(data: &[u8]) -> String {
        let mut out = String::new();
        for chunk in data.chunks(3) {
            let b = [
                chunk[0],
                *chunk.get(1).unwrap_or(&0),
                *chunk.get(2).unwrap_or(&0),
            ];
            let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
            for i in 0..4 {
                if i <= chunk.len() {
                    out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
                } else {
                    out.push('=');
                }
            }
        }
        out
    }
}

impl FakeRegistry {
    /// An empty registry with the standard test keys and no knobs.
    pub fn new() -> FakeRegistry {
        FakeRegistry {
            releases: BTreeMap::new(),
            knobs: Knobs::default(),
            key: TestKey::generate(1, "Fake Provider Author <author@example.com>"),
            stranger: TestKey::generate(2, "Stranger <stranger@example.com>"),
        }
    }

    /// Publishes `version` of `provider` for `platforms`.
    pub fn publish(&mut self, provider: &Provider, version: &str, platforms: &[&str]) {
        self.releases.entry(provider.clone()).or_default().insert(
            version.to_string(),
            platforms.iter().map(|p| p.to_string()).collect(),
        );
    }

    fn id(provider: &Provider, version: &str, platform: &str) -> PackageId {
        PackageId {
            provider: provider.clone(),
            version: version.to_string(),
            platform: platform.to_string(),
        }
    }

    fn has_knob(list: &[String], id: &PackageId) -> bool {
        list.iter().any(|s| s == &id.selector())
    }

    /// The platforms a release really offers (after [`Knobs::missing`]).
    pub fn platforms(&self, provider: &Provider, version: &str) -> Vec<String> {
        self.releases
            .get(provider)
            .and_then(|v| v.get(version))
            .map(|ps| {
                ps.iter()
                    .filter(|p| {
                        !Self::has_knob(&self.knobs.missing, &Self::id(provider, version, p))
                    })
                    .cloned()
                    .collect()
            })
            .unwrap_or_default()
    }

    fn exists(&self, id: &PackageId) -> bool {
        self.platforms(&id.provider, &id.version)
            .contains(&id.platform)
    }

    /// The genuine zip of a package.
    pub fn genuine_zip(&self, id: &PackageId) -> Vec<u8> {
        let zip = make_zip(&package_files(id));
        if Self::has_knob(&self.knobs.stubbed_zip, id) {
            return [&b"#!/bin/sh\necho self-extracting stub\nexit 0\n"[..], &zip].concat();
        }
        zip
    }

    /// The zip actually served (tampered when [`Knobs::tamper_zip`] says so).
    pub fn served_zip(&self, id: &PackageId) -> Vec<u8> {
        if Self::has_knob(&self.knobs.tamper_zip, id) {
            make_zip(&package_files_with(id, "evil"))
        } else {
            self.genuine_zip(id)
        }
    }

    /// The `h1:` Terraform records for a package (dirhash of the unpacked files),
    /// computed independently of `tflock_core::hash`.
    pub fn expected_h1(&self, id: &PackageId) -> String {
        independent_h1(&package_files(id))
    }

    /// The `zh:` of a package's genuine zip.
    pub fn expected_zh(&self, id: &PackageId) -> String {
        format!("zh:{}", hex::encode(Sha256::digest(self.genuine_zip(id))))
    }

    /// The `zh:` of the zip actually served (differs from [`Self::expected_zh`] when
    /// tampered).
    pub fn served_zh(&self, id: &PackageId) -> String {
        format!("zh:{}", hex::encode(Sha256::digest(self.served_zip(id))))
    }

    /// The archive file name.
    pub fn filename(id: &PackageId) -> String {
        format!(
            "terraform-provider-{}_{}_{}.zip",
            id.provider.r#type, id.version, id.platform
        )
    }

    fn release_dir(provider: &Provider, version: &str) -> String {
        format!(
            "/files/{}/{}/{version}/",
            provider.namespace, provider.r#type
        )
    }

    fn sums_name(provider: &Provider, version: &str) -> String {
        format!(
            "terraform-provider-{}_{version}_SHA256SUMS",
            provider.r#type
        )
    }

    /// The release's `SHA256SUMS` document (two spaces, sorted by file name).
    pub fn sha256sums(&self, provider: &Provider, version: &str) -> Vec<u8> {
        let mut lines: Vec<String> = self
            .platforms(provider, version)
            .iter()
            .map(|p| {
                let id = Self::id(provider, version, p);
                format!(
                    "{}  {}\n",
                    hex::encode(Sha256::digest(self.genuine_zip(&id))),
                    Self::filename(&id)
                )
            })
            .collect();
        lines.sort();
        lines.concat().into_bytes()
    }

    /// The detached signature served for `SHA256SUMS`, per [`Knobs::signing`].
    pub fn signature(&self, provider: &Provider, version: &str) -> Vec<u8> {
        let doc = self.sha256sums(provider, version);
        match self.knobs.signing {
            Signing::Good | Signing::NoKeys => self.key.sign(&doc),
            Signing::Bad => {
                let mut other = doc.clone();
                other.extend_from_slice(b"0000000000000000000000000000000000000000000000000000000000000000  extra.zip\n");
                self.key.sign(&other)
            }
            Signing::UnknownKey => self.stranger.sign(&doc),
        }
    }

    /// The `download/<os>/<arch>` answer, `None` for a 404.
    pub fn download_json(&self, id: &PackageId) -> Option<String> {
        if !self.exists(id) {
            return None;
        }
        let (os, arch) = id.platform.split_once('_').expect("os_arch");
        let dir = Self::release_dir(&id.provider, &id.version);
        let sums = Self::sums_name(&id.provider, &id.version);
        let keys = if self.knobs.signing == Signing::NoKeys {
            serde_json::json!({"gpg_public_keys": []})
        } else {
            serde_json::json!({"gpg_public_keys": [{
                "key_id": self.key.key_id,
                "ascii_armor": self.key.armored_public,
                "source": "Fake Provider Author",
            }]})
        };
        let mut body = serde_json::json!({
            "protocols": ["5.0"],
            "os": os,
            "arch": arch,
            "filename": Self::filename(id),
            "download_url": format!("{dir}{}", Self::filename(id)),
            "shasum": hex::encode(Sha256::digest(self.genuine_zip(id))),
            "shasums_url": format!("{dir}{sums}"),
            "shasums_signature_url": format!("{dir}{sums}.sig"),
            "signing_keys": keys,
        });
        if self.knobs.packages {
            let mut packages = serde_json::Map::new();
            for p in self.platforms(&id.provider, &id.version) {
                let pid = Self::id(&id.provider, &id.version, &p);
                let h1 = if Self::has_knob(&self.knobs.lying_h1, &pid) {
                    independent_h1(&package_files_with(&pid, "liar"))
                } else {
                    self.expected_h1(&pid)
                };
                packages.insert(
                    p.clone(),
                    serde_json::json!({
                        "hashes": [h1, self.expected_zh(&pid)],
                        "package_size": self.genuine_zip(&pid).len(),
                    }),
                );
            }
            body["packages"] = serde_json::Value::Object(packages);
        }
        Some(serde_json::to_string_pretty(&body).expect("json"))
    }

    /// The `versions` answer for `provider`, `None` for a 404.
    pub fn versions_json(&self, provider: &Provider) -> Option<String> {
        let versions = self.releases.get(provider)?;
        let list: Vec<serde_json::Value> = versions
            .keys()
            .map(|v| {
                let platforms: Vec<serde_json::Value> = self
                    .platforms(provider, v)
                    .iter()
                    .map(|p| {
                        let (os, arch) = p.split_once('_').expect("os_arch");
                        serde_json::json!({"os": os, "arch": arch})
                    })
                    .collect();
                serde_json::json!({"version": v, "protocols": ["5.0"], "platforms": platforms})
            })
            .collect();
        let mut body = serde_json::json!({ "versions": list });
        if let Some(w) = self.knobs.warnings.get(&provider.to_string()) {
            body["warnings"] = serde_json::json!(w);
        }
        Some(serde_json::to_string_pretty(&body).expect("json"))
    }

    fn mirror_dir(provider: &Provider) -> String {
        format!(
            "/providers/{}/{}/{}/",
            provider.hostname, provider.namespace, provider.r#type
        )
    }

    /// Every file the registry hosts and the mirror serves, keyed by full `https://` URL.
    /// Relative references inside the documents resolve within this tree, so it can be
    /// served as is (e.g. from a loopback HTTP server mapping host names to the tree).
    pub fn files(&self) -> BTreeMap<String, Vec<u8>> {
        let mut out = BTreeMap::new();
        for (provider, versions) in &self.releases {
            let host = format!("https://{}", provider.hostname);
            out.insert(
                format!("{host}/.well-known/terraform.json"),
                br#"{"providers.v1":"/v1/providers/"}"#.to_vec(),
            );
            if let Some(v) = self.versions_json(provider) {
                out.insert(
                    format!(
                        "{host}/v1/providers/{}",
                        versions_path(&provider.namespace, &provider.r#type)
                    ),
                    v.into_bytes(),
                );
            }
            let mdir = format!("https://{MIRROR_HOST}{}", Self::mirror_dir(provider));
            let index: serde_json::Map<String, serde_json::Value> = versions
                .keys()
                .map(|v| (v.clone(), serde_json::json!({})))
                .collect();
            out.insert(
                format!("{mdir}index.json"),
                serde_json::to_vec_pretty(&serde_json::json!({ "versions": index })).expect("json"),
            );
            for version in versions.keys() {
                let dir = format!("{host}{}", Self::release_dir(provider, version));
                let sums = Self::sums_name(provider, version);
                out.insert(format!("{dir}{sums}"), self.sha256sums(provider, version));
                out.insert(
                    format!("{dir}{sums}.sig"),
                    self.signature(provider, version),
                );
                let mut archives = serde_json::Map::new();
                for platform in self.platforms(provider, version) {
                    let id = Self::id(provider, version, &platform);
                    let (os, arch) = platform.split_once('_').expect("os_arch");
                    if let Some(d) = self.download_json(&id) {
                        out.insert(
                            format!(
                                "{host}/v1/providers/{}",
                                download_path(
                                    &provider.namespace,
                                    &provider.r#type,
                                    version,
                                    os,
                                    arch
                                )
                            ),
                            d.into_bytes(),
                        );
                    }
                    let zip = self.served_zip(&id);
                    out.insert(format!("{dir}{}", Self::filename(&id)), zip.clone());
                    out.insert(format!("{mdir}{}", Self::filename(&id)), zip);
                    let mut hashes = vec![self.expected_h1(&id)];
                    if self.knobs.mirror_zh {
                        hashes.push(self.expected_zh(&id));
                    }
                    archives.insert(
                        platform.clone(),
                        serde_json::json!({"url": Self::filename(&id), "hashes": hashes}),
                    );
                }
                out.insert(
                    format!("{mdir}{version}.json"),
                    serde_json::to_vec_pretty(&serde_json::json!({ "archives": archives }))
                        .expect("json"),
                );
            }
        }
        out
    }

    /// The files under one host, keyed by path (for a static file server).
    pub fn files_for_host(&self, host: &str) -> BTreeMap<String, Vec<u8>> {
        let prefix = format!("https://{host}");
        self.files()
            .into_iter()
            .filter_map(|(url, body)| url.strip_prefix(&prefix).map(|p| (p.to_string(), body)))
            .collect()
    }
}

impl Default for FakeRegistry {
    fn default() -> Self {
        FakeRegistry::new()
    }
}

/// Where the host installs from (what a CLI config's `provider_installation` decides).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SourceKind {
    /// The provider's origin registry (`direct`).
    #[default]
    Registry,
    /// The network mirror at [`MIRROR_BASE`].
    Mirror,
}

/// A host that answers a planner from a [`FakeRegistry`]'s file tree.
#[derive(Debug, Clone)]
pub struct FakeHost {
    /// Whose rules.
    pub flavor: Flavor,
    /// Where packages come from.
    pub source: SourceKind,
    /// OpenTofu `trust_all_hashes` on the mirror.
    pub trust_all_hashes: bool,
    /// Packages already unpacked in `.terraform/providers` (their `h1:` is reported).
    pub installed: Vec<PackageId>,
    /// Packages in the global plugin cache.
    pub cached: Vec<PackageId>,
    /// The served files, by URL.
    pub files: BTreeMap<String, Vec<u8>>,
    /// Every URL fetched, in order (for assertions about traffic).
    pub fetched: Vec<String>,
    /// The fake's independently computed hashes, for local packages.
    registry: FakeRegistry,
}

impl FakeHost {
    /// A host serving `registry`.
    pub fn new(registry: &FakeRegistry, flavor: Flavor, source: SourceKind) -> FakeHost {
        FakeHost {
            flavor,
            source,
            trust_all_hashes: false,
            installed: Vec::new(),
            cached: Vec::new(),
            files: registry.files(),
            fetched: Vec::new(),
            registry: registry.clone(),
        }
    }

    fn get(&mut self, url: &Url) -> Option<Vec<u8>> {
        self.fetched.push(url.to_string());
        self.files.get(url.as_str()).cloned()
    }

    /// Runs the planner to completion: asks for every request, performs it, answers, and
    /// finishes.
    pub fn drive(&mut self, mut planner: Planner) -> Outcome {
        let mut rounds = 0;
        loop {
            let requests = planner.take_requests();
            if requests.is_empty() {
                break;
            }
            rounds += 1;
            assert!(rounds < 1000, "planner keeps asking");
            for req in requests {
                let answer = self.answer(&req.need);
                planner
                    .answer(req.id, answer)
                    .expect("answer fits the request");
            }
        }
        assert!(planner.is_done(), "planner has unanswered requests");
        planner.finish()
    }

    /// The answer a real host would give to `need`.
    pub fn answer(&mut self, need: &Need) -> Answer {
        match need {
            Need::Versions { provider } => Answer::Versions(self.versions(provider)),
            Need::InstalledPackage {
                provider,
                version,
                platform,
            } => Answer::LocalPackage(self.local(
                &self.installed.clone(),
                provider,
                version,
                platform,
            )),
            Need::CachedPackage {
                provider,
                version,
                platform,
            } => {
                Answer::LocalPackage(self.local(&self.cached.clone(), provider, version, platform))
            }
            Need::PackageMeta {
                provider,
                version,
                platform,
            } => Answer::PackageMeta(self.package_meta(provider, version, platform)),
            Need::Package { location, .. } => {
                let tflock_core::install::PackageLocation::Url(url) = location else {
                    return Answer::Package(Err(SourceError::other("not a URL")));
                };
                Answer::Package(self.package(url))
            }
        }
    }

    fn local(
        &self,
        list: &[PackageId],
        provider: &Provider,
        version: &Version,
        platform: &Platform,
    ) -> Option<PackageHash> {
        let id = PackageId {
            provider: provider.clone(),
            version: version.to_string(),
            platform: platform.to_string(),
        };
        list.contains(&id)
            .then(|| PackageHash::parse(&self.registry.expected_h1(&id)).expect("h1"))
    }

    fn registry_base(&mut self, provider: &Provider) -> Result<Url, SourceError> {
        let url =
            discovery_url(&provider.hostname).map_err(|e| SourceError::other(e.to_string()))?;
        let body = self.get(&url).ok_or_else(|| {
            SourceError::other(format!(
                "could not connect to {}: no discovery document",
                provider.hostname
            ))
        })?;
        let disco = Discovery::parse(&body, &url).map_err(|e| SourceError::other(e.to_string()))?;
        disco
            .providers_v1(&provider.hostname, self.flavor)
            .map_err(|e| SourceError {
                kind: SourceErrorKind::HostNoProviders {
                    hostname: provider.hostname.clone(),
                    other_version: matches!(
                        e,
                        DiscoveryError::NoProviders {
                            other_version: true,
                            ..
                        }
                    ),
                },
                message: e.to_string(),
            })
    }

    fn versions(&mut self, provider: &Provider) -> Result<AvailableVersions, SourceError> {
        let (body, warnings) = match self.source {
            SourceKind::Registry => {
                let base = self.registry_base(provider)?;
                let url = base
                    .join(&versions_path(&provider.namespace, &provider.r#type))
                    .map_err(|e| SourceError::other(e.to_string()))?;
                let body = self.get(&url).ok_or_else(|| SourceError {
                    kind: SourceErrorKind::ProviderNotKnown,
                    message: provider_not_known(&provider.hostname, &provider.to_string()),
                })?;
                let parsed = VersionsResponse::parse(&body, &provider.to_string())
                    .map_err(|e| SourceError::other(e.0))?;
                let versions = parsed
                    .valid_versions()
                    .map(|v| v.version.clone())
                    .collect::<Vec<_>>();
                (versions, parsed.warnings)
            }
            SourceKind::Mirror => {
                let base = Url::parse(MIRROR_BASE).expect("mirror base");
                let url = index_url(
                    &base,
                    &provider.hostname,
                    &provider.namespace,
                    &provider.r#type,
                )
                .map_err(SourceError::other)?;
                let body = self.get(&url).ok_or_else(|| {
                    SourceError::other(format!(
                        "provider {provider} was not found in any of the search locations"
                    ))
                })?;
                let index = MirrorIndex::parse(&body).map_err(SourceError::other)?;
                (index.versions, Vec::new())
            }
        };
        let versions = body.iter().filter_map(|v| Version::parse(v).ok()).collect();
        Ok(AvailableVersions { versions, warnings })
    }

    fn package_meta(
        &mut self,
        provider: &Provider,
        version: &Version,
        platform: &Platform,
    ) -> Result<SourcePackage, SourceError> {
        let v = version.to_string();
        match self.source {
            SourceKind::Registry => {
                let base = self.registry_base(provider)?;
                let url = base
                    .join(&download_path(
                        &provider.namespace,
                        &provider.r#type,
                        &v,
                        &platform.os,
                        &platform.arch,
                    ))
                    .map_err(|e| SourceError::other(e.to_string()))?;
                let Some(body) = self.get(&url) else {
                    return Err(SourceError {
                        kind: SourceErrorKind::PlatformNotSupported { mirror_url: None },
                        message: platform_not_supported(
                            &provider.to_string(),
                            &v,
                            &platform.to_string(),
                        ),
                    });
                };
                let answer = DownloadResponse::parse(&body, &provider.to_string())
                    .map_err(|e| SourceError::other(e.0))?;
                let meta = answer
                    .validate(
                        self.flavor,
                        &provider.to_string(),
                        &v,
                        &platform.os,
                        &platform.arch,
                        &url,
                    )
                    .map_err(|e| SourceError::other(e.0))?;
                let sums_url = meta.shasums_url.clone();
                let sig_url = meta.shasums_signature_url.clone();
                let sha256sums = self.get(&sums_url).ok_or_else(|| {
                    SourceError::other(format!("404 Not Found returned from {}", provider.hostname))
                })?;
                let signature = self.get(&sig_url).ok_or_else(|| {
                    SourceError::other(format!("404 Not Found returned from {}", provider.hostname))
                })?;
                Ok(SourcePackage::Registry {
                    meta: Box::new(meta),
                    sha256sums,
                    signature,
                })
            }
            SourceKind::Mirror => {
                let base = Url::parse(MIRROR_BASE).expect("mirror base");
                let url = version_url(
                    &base,
                    &provider.hostname,
                    &provider.namespace,
                    &provider.r#type,
                    &v,
                )
                .map_err(SourceError::other)?;
                let body = self.get(&url).ok_or_else(|| {
                    SourceError::other(tflock_core::protocol::mirror::version_index_missing(
                        &provider.to_string(),
                        &v,
                    ))
                })?;
                let doc = MirrorVersion::parse(&body).map_err(SourceError::other)?;
                let pkg = doc
                    .package(
                        self.flavor,
                        &platform.to_string(),
                        &url,
                        self.trust_all_hashes,
                        || {
                            platform_missing(
                                &base,
                                &provider.to_string(),
                                &v,
                                &platform.to_string(),
                            )
                        },
                    )
                    .map_err(|e| match e {
                        MirrorPackageError::PlatformMissing(m) => SourceError {
                            kind: SourceErrorKind::PlatformNotSupported {
                                mirror_url: Some(MIRROR_BASE.to_string()),
                            },
                            message: m,
                        },
                        MirrorPackageError::Query(m) => SourceError::other(m),
                    })?;
                Ok(SourcePackage::NetworkMirror {
                    mirror_url: MIRROR_BASE.to_string(),
                    url: pkg.url.to_string(),
                    hashes: pkg.hashes,
                    trust_all_hashes: self.trust_all_hashes,
                })
            }
        }
    }

    fn package(&mut self, url: &str) -> Result<FetchedPackage, SourceError> {
        let url = Url::parse(url).map_err(|e| SourceError::other(e.to_string()))?;
        let bytes = self.get(&url).ok_or_else(|| {
            SourceError::other(format!(
                "{}: bad response code: 404",
                url.host_str().unwrap_or_default()
            ))
        })?;
        let hashes = hash_zip(&bytes).map_err(|e| SourceError::other(e.to_string()))?;
        Ok(FetchedPackage::Archive {
            hashes,
            sha256: Sha256::digest(&bytes).into(),
            size: bytes.len() as u64,
        })
    }
}
