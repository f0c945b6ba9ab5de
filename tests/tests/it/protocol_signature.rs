//! Signed `SHA256SUMS`: real OpenPGP keys and detached signatures made here with the `pgp`
//! crate, run through Terraform's and OpenTofu's registry package authentication.

use tflock_core::collections::SortedMap;

use pgp::composed::{
    ArmorOptions, DetachedSignature, KeyType, SecretKeyParamsBuilder, SignedPublicKey,
    SignedSecretKey, SubkeyParamsBuilder,
};
use pgp::crypto::hash::HashAlgorithm;
use pgp::ser::Serialize;
use pgp::types::{KeyDetails, Password};
use rand::SeedableRng;
use sha2::{Digest, Sha256};
use tflock_core::protocol::auth::{
    authenticate_registry_package, check_registry_h1, AuthKind, RegistryAuthInput,
};
use tflock_core::protocol::registry::{DownloadResponse, PackageEntry, PackageMeta};
use tflock_core::protocol::signature::{find_signing_key, SigningKey, TrustRoots};
use tflock_core::protocol::Sha256Sums;
use tflock_core::Flavor;
use url::Url;

struct Key {
    secret: SignedSecretKey,
    armored: String,
}

fn rng(seed: u64) -> rand::rngs::StdRng {
    rand::rngs::StdRng::seed_from_u64(seed)
}

fn keygen(seed: u64, uid: &str, signing_subkey: bool) -> Key {
    let mut params = SecretKeyParamsBuilder::default();
    params
        .key_type(KeyType::Ed25519Legacy)
        .can_certify(true)
        .can_sign(!signing_subkey)
        .primary_user_id(uid.into());
    if signing_subkey {
        let mut sub = SubkeyParamsBuilder::default();
        sub.key_type(KeyType::Ed25519Legacy).can_sign(true);
        params.subkeys(vec![sub.build().unwrap()]);
    }
    let secret = params.build().unwrap().generate(rng(seed)).unwrap();
    let public = SignedPublicKey::from(secret.clone());
    let armored = public.to_armored_string(ArmorOptions::default()).unwrap();
    Key { secret, armored }
}

impl Key {
    /// 16 upper-case hex digits of the primary key ID.
    fn key_id(&self) -> String {
        let id = self.secret.primary_key.legacy_key_id();
        id.as_ref().iter().map(|b| format!("{b:02X}")).collect()
    }

    /// A binary detached signature, as registries serve `SHA256SUMS.sig`.
    fn sign(&self, data: &[u8]) -> Vec<u8> {
        let sig = if let Some(sub) = self.secret.secret_subkeys.first() {
            DetachedSignature::sign_binary_data(
                rng(7),
                &sub.key,
                &Password::empty(),
                HashAlgorithm::Sha256,
                data,
            )
        } else {
            DetachedSignature::sign_binary_data(
                rng(7),
                &self.secret.primary_key,
                &Password::empty(),
                HashAlgorithm::Sha256,
                data,
            )
        };
        sig.unwrap().to_bytes().unwrap()
    }

    /// An armored detached signature (the form of `trust_signature`).
    fn sign_armored(&self, data: &[u8]) -> String {
        DetachedSignature::sign_binary_data(
            rng(8),
            &self.secret.primary_key,
            &Password::empty(),
            HashAlgorithm::Sha512,
            data,
        )
        .unwrap()
        .to_armored_string(ArmorOptions::default())
        .unwrap()
    }

    fn signing_key(&self) -> SigningKey {
        SigningKey {
            key_id: Some(self.key_id()),
            ascii_armor: self.armored.clone(),
            ..SigningKey::default()
        }
    }
}

/// The de-armored bytes of an armored key: what a partner trust signature covers.
fn dearmor(armored: &str) -> Vec<u8> {
    use std::io::Read;
    let mut out = Vec::new();
    pgp::armor::Dearmor::new(armored.as_bytes())
        .read_to_end(&mut out)
        .unwrap();
    out
}

const ZIP: &[u8] = b"pretend this is terraform-provider-demo_1.0.0_linux_amd64.zip";
const FILENAME: &str = "terraform-provider-demo_1.0.0_linux_amd64.zip";

fn sha(data: &[u8]) -> [u8; 32] {
    Sha256::digest(data).into()
}

fn sums_document() -> Vec<u8> {
    format!(
        "{}  terraform-provider-demo_1.0.0_darwin_arm64.zip\n{}  {FILENAME}\n",
        hex::encode(sha(b"darwin")),
        hex::encode(sha(ZIP))
    )
    .into_bytes()
}

fn meta(keys: Vec<SigningKey>) -> PackageMeta {
    let answer = DownloadResponse {
        protocols: vec!["5.0".into()],
        os: "linux".into(),
        arch: "amd64".into(),
        filename: FILENAME.into(),
        download_url: FILENAME.into(),
        shasum: hex::encode(sha(ZIP)),
        shasums_url: "SHA256SUMS".into(),
        shasums_signature_url: "SHA256SUMS.sig".into(),
        signing_keys: tflock_core::protocol::registry::SigningKeys {
            gpg_public_keys: keys,
        },
        packages: None,
    };
    let url =
        Url::parse("https://registry.example/v1/providers/acme/demo/1.0.0/download/linux/amd64")
            .unwrap();
    answer
        .validate(
            Flavor::Terraform,
            "registry.example/acme/demo",
            "1.0.0",
            "linux",
            "amd64",
            &url,
        )
        .unwrap()
}

struct Case {
    flavor: Flavor,
    host: &'static str,
    meta: PackageMeta,
    document: Vec<u8>,
    signature: Vec<u8>,
    archive: Vec<u8>,
    roots: TrustRoots,
}

impl Case {
    fn new(meta: PackageMeta, signature: Vec<u8>, roots: TrustRoots) -> Case {
        Case {
            flavor: Flavor::Terraform,
            host: "registry.example",
            meta,
            document: sums_document(),
            signature,
            archive: ZIP.to_vec(),
            roots,
        }
    }

    fn run(&self) -> Result<tflock_core::protocol::AuthResult, String> {
        authenticate_registry_package(&RegistryAuthInput {
            flavor: self.flavor,
            provider_hostname: self.host,
            enforce_gpg_validation: false,
            meta: &self.meta,
            document: &self.document,
            signature: &self.signature,
            archive_sha256: sha(&self.archive),
            archive_size: self.archive.len() as u64,
            trust_roots: &self.roots,
        })
        .map_err(|e| e.to_string())
    }
}

/// Trust roots made of generated keys, so each outcome can be produced.
fn test_roots() -> (Key, Key, TrustRoots) {
    let hashicorp = keygen(1, "Test HashiCorp <security@example.com>", false);
    let partners = keygen(2, "Test Partners <partners@example.com>", false);
    let roots = TrustRoots {
        hashicorp: hashicorp.armored.clone(),
        partners: partners.armored.clone(),
    };
    (hashicorp, partners, roots)
}

#[test]
fn community_key_is_self_signed_and_vouches_for_every_zh_line() {
    let (_, _, roots) = test_roots();
    let author = keygen(10, "Acme <acme@example.com>", false);
    let sig = author.sign(&sums_document());
    let r = Case::new(meta(vec![author.signing_key()]), sig, roots)
        .run()
        .unwrap();
    assert_eq!(r.kind, AuthKind::SelfSigned);
    assert_eq!(r.key_id.as_deref(), Some(author.key_id().as_str()));
    assert_eq!(r.key_id.as_ref().unwrap().len(), 16);
    assert_eq!(
        r.summary(),
        format!("self-signed, key ID {}", author.key_id())
    );
    let signed: Vec<&str> = r.vouched_hashes(true);
    let want_darwin = format!("zh:{}", hex::encode(sha(b"darwin")));
    let want_linux = format!("zh:{}", hex::encode(sha(ZIP)));
    assert_eq!(signed, vec![want_linux.as_str(), want_darwin.as_str()]);
    assert_eq!(
        r.local_hashes().collect::<Vec<_>>(),
        vec![want_linux.as_str()]
    );
}

#[test]
fn hashicorp_key_gives_signed_by_hashicorp_without_key_id_in_the_summary() {
    let (hashicorp, _, roots) = test_roots();
    let sig = hashicorp.sign(&sums_document());
    let r = Case::new(meta(vec![hashicorp.signing_key()]), sig, roots)
        .run()
        .unwrap();
    assert_eq!(r.kind, AuthKind::SignedByHashiCorp);
    assert_eq!(r.summary(), "signed by HashiCorp");
}

#[test]
fn partner_trust_signature_gives_signed_by_a_hashicorp_partner() {
    let (_, partners, roots) = test_roots();
    let author = keygen(11, "Partner Co <p@example.com>", false);
    let mut key = author.signing_key();
    key.trust_signature = partners.sign_armored(&dearmor(&author.armored));
    let sig = author.sign(&sums_document());
    let r = Case::new(meta(vec![key]), sig, roots).run().unwrap();
    assert_eq!(r.kind, AuthKind::SignedByPartner);
    assert_eq!(
        r.summary(),
        format!("signed by a HashiCorp partner, key ID {}", author.key_id())
    );
}

#[test]
fn trust_signature_by_another_key_fails_the_whole_authentication() {
    let (_, _, roots) = test_roots();
    let impostor = keygen(12, "Impostor <i@example.com>", false);
    let author = keygen(13, "Partner Co <p@example.com>", false);
    let mut key = author.signing_key();
    key.trust_signature = impostor.sign_armored(&dearmor(&author.armored));
    let sig = author.sign(&sums_document());
    let err = Case::new(meta(vec![key.clone()]), sig.clone(), roots.clone())
        .run()
        .unwrap_err();
    assert_eq!(
        err,
        "error verifying trust signature: openpgp: signature made by unknown entity"
    );

    // A trust signature that is not armored fails to decode, as in Terraform.
    key.trust_signature = "invalid PGP armor value".into();
    let err = Case::new(meta(vec![key]), sig, roots).run().unwrap_err();
    assert_eq!(err, "error decoding trust signature: EOF");
}

#[test]
fn signature_by_an_unlisted_key_is_from_an_unknown_issuer() {
    let (_, _, roots) = test_roots();
    let listed = keygen(14, "Listed <l@example.com>", false);
    let signer = keygen(15, "Other <o@example.com>", false);
    let sig = signer.sign(&sums_document());
    let err = Case::new(meta(vec![listed.signing_key()]), sig.clone(), roots.clone())
        .run()
        .unwrap_err();
    assert_eq!(err, "authentication signature from unknown issuer");

    // OpenTofu words the same failure its own way.
    let mut case = Case::new(meta(vec![listed.signing_key()]), sig, roots);
    case.flavor = Flavor::OpenTofu;
    assert_eq!(
        case.run().unwrap_err(),
        "the provider is not signed with a valid signing key; please contact the provider author (authentication signature from unknown issuer)"
    );
}

#[test]
fn tampered_document_fails_signature_checking() {
    let (_, _, roots) = test_roots();
    let author = keygen(16, "Acme <acme@example.com>", false);
    let sig = author.sign(&sums_document());
    let mut case = Case::new(meta(vec![author.signing_key()]), sig, roots);
    // Still lists the right shasum for our file, but another line changed after signing.
    case.document = format!(
        "{}  terraform-provider-demo_1.0.0_darwin_arm64.zip\n{}  {FILENAME}\n",
        hex::encode(sha(b"evil")),
        hex::encode(sha(ZIP))
    )
    .into_bytes();
    // go-crypto's wording for an Ed25519 (legacy EdDSA) key, as Terraform prints it.
    assert_eq!(
        case.run().unwrap_err(),
        "error checking signature: openpgp: invalid signature: EdDSA verification failure"
    );
}

#[test]
fn unsigned_packages_fail_for_terraform_and_skip_signing_on_the_opentofu_registry() {
    let (_, _, roots) = test_roots();
    let case = Case::new(meta(vec![]), Vec::new(), roots.clone());
    assert_eq!(
        case.run().unwrap_err(),
        "authentication signature from unknown issuer"
    );

    let mut case = Case::new(meta(vec![]), Vec::new(), roots.clone());
    case.flavor = Flavor::OpenTofu;
    case.host = "registry.opentofu.org";
    let r = case.run().unwrap();
    assert_eq!(r.kind, AuthKind::SigningSkipped);
    assert_eq!(r.summary(), "signing skipped");
    assert_eq!(r.key_id, None);
    // Not required on its own registry ⇒ registry-reported hashes count for the lock.
    assert_eq!(r.vouched_hashes(false).len(), 2);

    // Any other registry requires a signature even without keys.
    let mut case = Case::new(meta(vec![]), Vec::new(), roots);
    case.flavor = Flavor::OpenTofu;
    assert!(case
        .run()
        .unwrap_err()
        .starts_with("the provider is not signed with a valid signing key"));
}

#[test]
fn opentofu_signed_result_names_the_key() {
    let (_, _, roots) = test_roots();
    let author = keygen(17, "Acme <acme@example.com>", false);
    let sig = author.sign(&sums_document());
    let mut case = Case::new(meta(vec![author.signing_key()]), sig, roots);
    case.flavor = Flavor::OpenTofu;
    let r = case.run().unwrap();
    assert_eq!(r.kind, AuthKind::Signed);
    assert_eq!(r.summary(), format!("signed, key ID {}", author.key_id()));
}

#[test]
fn first_verifying_key_wins_and_subkey_signatures_report_the_primary_key_id() {
    let other = keygen(18, "Other <o@example.com>", false);
    let author = keygen(19, "Acme <acme@example.com>", true);
    let doc = sums_document();
    let sig = author.sign(&doc);
    let found = find_signing_key(&doc, &sig, &[other.signing_key(), author.signing_key()]).unwrap();
    assert_eq!(found.index, 1);
    assert_eq!(found.key_id, author.key_id());
}

#[test]
fn armored_signatures_are_accepted_too() {
    let author = keygen(20, "Acme <acme@example.com>", false);
    let doc = sums_document();
    let sig = author.sign_armored(&doc);
    let found = find_signing_key(&doc, sig.as_bytes(), &[author.signing_key()]).unwrap();
    assert_eq!(found.key_id, author.key_id());
}

#[test]
fn checksum_steps_run_before_the_signature() {
    let (_, _, roots) = test_roots();
    let author = keygen(21, "Acme <acme@example.com>", false);
    let sig = author.sign(&sums_document());

    let mut case = Case::new(meta(vec![author.signing_key()]), sig.clone(), roots.clone());
    case.archive = b"something else".to_vec();
    assert_eq!(
        case.run().unwrap_err(),
        format!(
            "archive has incorrect checksum zh:{} (expected zh:{})",
            hex::encode(sha(b"something else")),
            hex::encode(sha(ZIP))
        )
    );

    let mut case = Case::new(meta(vec![author.signing_key()]), sig, roots);
    case.document =
        b"0000000000000000000000000000000000000000000000000000000000000000  other.zip\n".to_vec();
    assert_eq!(
        case.run().unwrap_err(),
        format!("checksum list has no SHA-256 hash for \"{FILENAME}\"")
    );
}

#[test]
fn a_signed_document_with_a_blank_line_vouches_for_nothing_instead_of_crashing() {
    let (_, _, roots) = test_roots();
    let author = keygen(22, "Acme <acme@example.com>", false);
    let doc = [sums_document(), b"\n".to_vec()].concat();
    let sig = author.sign(&doc);
    let mut case = Case::new(meta(vec![author.signing_key()]), sig, roots);
    case.document = doc;
    let r = case.run().unwrap();
    assert_eq!(r.kind, AuthKind::SelfSigned);
    assert_eq!(
        r.sums_problem.as_deref(),
        Some("checksum list line 3 is blank")
    );
    assert!(r.vouched_hashes(true).is_empty());
    assert!(Sha256Sums::parse(&case.document).is_err());
}

fn with_packages(mut meta: PackageMeta, entries: &[(&str, &[&str], i64)]) -> PackageMeta {
    meta.packages = entries
        .iter()
        .map(|(p, hashes, size)| {
            (
                p.to_string(),
                PackageEntry {
                    hashes: hashes.iter().map(|h| h.to_string()).collect(),
                    package_size: *size,
                },
            )
        })
        .collect::<SortedMap<_, _>>();
    meta
}

#[test]
fn opentofu_packages_extension_is_checked_and_vouches_for_every_platform() {
    let (_, _, roots) = test_roots();
    let author = keygen(23, "Acme <acme@example.com>", false);
    let sig = author.sign(&sums_document());
    let zh_linux = format!("zh:{}", hex::encode(sha(ZIP)));
    let zh_darwin = format!("zh:{}", hex::encode(sha(b"darwin")));
    let size = ZIP.len() as i64;
    let good = with_packages(
        meta(vec![author.signing_key()]),
        &[
            ("linux_amd64", &[zh_linux.as_str(), "h1:linuxh1"], size),
            ("darwin_arm64", &[zh_darwin.as_str(), "h1:darwinh1"], 6),
        ],
    );
    let mut case = Case::new(good.clone(), sig.clone(), roots.clone());
    case.flavor = Flavor::OpenTofu;
    let r = case.run().unwrap();
    assert_eq!(r.kind, AuthKind::Signed);
    let h1s: Vec<(&str, Option<&str>)> = r
        .hashes
        .iter()
        .filter(|h| h.hash.starts_with("h1:"))
        .map(|h| (h.hash.as_str(), h.platform.as_deref()))
        .collect();
    assert_eq!(
        h1s,
        vec![
            ("h1:darwinh1", Some("darwin_arm64")),
            ("h1:linuxh1", Some("linux_amd64"))
        ]
    );
    assert!(r
        .hashes
        .iter()
        .all(|h| h.reported_by_registry || h.verified_locally));
    assert!(check_registry_h1(&good, "h1:linuxh1").is_ok());
    assert!(check_registry_h1(&good, "h1:other")
        .unwrap_err()
        .to_string()
        .contains("do not match the downloaded package"));

    let run = |m: PackageMeta| {
        let mut c = Case::new(m, sig.clone(), roots.clone());
        c.flavor = Flavor::OpenTofu;
        c.run().unwrap_err()
    };
    let base = || meta(vec![author.signing_key()]);
    assert_eq!(
        run(with_packages(
            base(),
            &[("darwin_arm64", &[zh_darwin.as_str()], 6)]
        )),
        "registry response missing package with platform \"linux_amd64\""
    );
    assert_eq!(
        run(with_packages(
            base(),
            &[("linux_amd64", &[zh_linux.as_str()], 0)]
        )),
        "registry response has invalid package size 0"
    );
    assert_eq!(
        run(with_packages(base(), &[("linux_amd64", &[zh_linux.as_str()], size + 1)])),
        format!("registry response indicates a package of size {}, but received a package of size {size}", size + 1)
    );
    assert_eq!(
        run(with_packages(base(), &[("linux_amd64", &[zh_darwin.as_str()], size)])),
        format!(
            "registry response expected sha256sum is \"{}\", which does not match the platform's value of \"{}\"",
            hex::encode(sha(ZIP)),
            hex::encode(sha(b"darwin"))
        )
    );
    assert_eq!(
        run(with_packages(
            base(),
            &[("linux_amd64", &["h1:only"], size)]
        )),
        "registry response does not contain matching sha256sum package entry and is invalid"
    );
}
