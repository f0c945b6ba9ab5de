//! The acceptance decisions on their own: checks against the previous lock entry, which
//! hashes each source's authentication adds, and the rejections' texts.

use super::accept::{accept, Accepted, Rejection, Release};
use super::signatures::SignatureMemo;
use super::texts;
use crate::addrs::{Platform, Provider};
use crate::collections::SortedMap;
use crate::hash::{PackageHash, ZipHashes};
use crate::install::needs::{FetchedPackage, SourcePackage};
use crate::install::options::{Mode, PlanOptions};
use crate::lockfile::ProviderLock;
use crate::protocol::auth::AuthKind;
use crate::protocol::registry::{PackageEntry, PackageMeta};
use crate::protocol::signature::{SigningKey, TrustRoots};
use crate::version::{Constraints, Version};
use crate::Flavor;

const H1: &str = "h1:unpacked";
const H1_ARCHIVE: &str = "h1:archive";
const FILENAME: &str = "terraform-provider-null_1.0.0_linux_amd64.zip";
const SHA: [u8; 32] = [0xaa; 32];
const OTHER_SHA: [u8; 32] = [0xbb; 32];

/// An Ed25519 key (`tflock_tests::fake_registry::TestKey::generate(19, ...)`) and its
/// detached signature over [`sha256sums`], made once with the tests crate's OpenPGP library.
const KEY: &str = "-----BEGIN PGP PUBLIC KEY BLOCK-----

xjMEX14QABYJKwYBBAHaRw8BAQdAYWarj7dkdT0NFS+Z6lYcFDJorykFE+ithN4b
ksTyezHNKHRmbG9jayBhY2NlcHQgdGVzdHMgPGFjY2VwdEBleGFtcGxlLmNvbT7C
hgQTFggALgUCawRxJBYhBJzvw1OZXIZDFEiXQfu3ODRV4zR1AhsDAh4BAQsBFQEW
AScCGQEACgkQ+7c4NFXjNHVs3gD/bPulsE2CIINarvreV7JGMq3MMAq1K0XlMjdp
SDox7IsA/ij4YiYacoRNORsfxttsokaz28c/0hP5Ru4eMGjta90J
=qsGw
-----END PGP PUBLIC KEY BLOCK-----
";
const KEY_ID: &str = "FBB7383455E33475";
const SIGNATURE: &str = "c27504001608001d1621049cefc353995c864314489741fbb7383455e3347505026b047124000a0910fbb7383455e3347511f00100ad2f37647851af6803c692106f4a695826ef3e6c1403dd5c00f288ab1950ad570100ddf741f4a2a61235c88da633906d5d4acf0dc776ae62d15be6cbe6f7aa71c703";

fn hash(s: &str) -> PackageHash {
    PackageHash::parse(s).unwrap()
}

fn zh(sha: &[u8; 32]) -> PackageHash {
    PackageHash::zh_from_digest(sha)
}

fn hashes(list: &[&str]) -> Vec<PackageHash> {
    list.iter().map(|h| hash(h)).collect()
}

fn provider(f: Flavor) -> Provider {
    Provider::default_for("null", f)
}

fn v(s: &str) -> Version {
    Version::parse(s).unwrap()
}

fn options(f: Flavor, mode: Mode) -> PlanOptions {
    PlanOptions::new(f, mode, vec![Platform::parse("linux_amd64").unwrap()])
}

fn archive() -> FetchedPackage {
    FetchedPackage::Archive {
        hashes: ZipHashes {
            h1: hash(H1),
            zh: zh(&SHA),
            h1_archive: hash(H1_ARCHIVE),
        },
        sha256: SHA,
        size: 100,
    }
}

fn directory() -> FetchedPackage {
    FetchedPackage::Dir { h1: hash(H1) }
}

fn prior(f: Flavor, version: &str, list: &[&str]) -> ProviderLock {
    ProviderLock::new(provider(f), v(version), None, hashes(list))
}

fn local_archive() -> SourcePackage {
    SourcePackage::LocalArchive {
        path: "mirror/null.zip".into(),
    }
}

fn mirror(list: &[(&str, &str)], trust_all_hashes: bool) -> SourcePackage {
    SourcePackage::NetworkMirror {
        mirror_url: "https://mirror.example/".into(),
        url: "https://mirror.example/null.zip".into(),
        hashes: list
            .iter()
            .map(|(p, h)| (p.to_string(), h.to_string()))
            .collect(),
        trust_all_hashes,
    }
}

/// A registry answer for linux_amd64 whose `SHA256SUMS` also lists darwin_arm64's archive.
fn registry(signing_keys: Vec<SigningKey>, signature: &[u8]) -> SourcePackage {
    let url = url::Url::parse("https://registry.example/null.zip").unwrap();
    SourcePackage::Registry {
        meta: Box::new(PackageMeta {
            protocols: vec![(5, 0)],
            platform: "linux_amd64".into(),
            filename: FILENAME.into(),
            download_url: url.clone(),
            sha256: SHA,
            shasums_url: url.clone(),
            shasums_signature_url: url,
            signing_keys,
            packages: SortedMap::new(),
        }),
        sha256sums: sha256sums(),
        signature: signature.to_vec(),
    }
}

fn signed_registry() -> SourcePackage {
    let key = SigningKey {
        ascii_armor: KEY.into(),
        ..SigningKey::default()
    };
    registry(vec![key], &hex::decode(SIGNATURE).unwrap())
}

fn sha256sums() -> Vec<u8> {
    format!(
        "{}  {FILENAME}\n{}  terraform-provider-null_1.0.0_darwin_arm64.zip\n",
        hex::encode(SHA),
        hex::encode(OTHER_SHA)
    )
    .into_bytes()
}

/// [`registry`] with OpenTofu's `packages` listing `h1` for linux_amd64.
fn registry_with_packages(h1: &str) -> SourcePackage {
    let mut source = registry(Vec::new(), b"");
    if let SourcePackage::Registry { meta, .. } = &mut source {
        let entry = |hashes: Vec<String>| PackageEntry {
            hashes,
            package_size: 100,
        };
        meta.packages.insert(
            "linux_amd64".into(),
            entry(vec![h1.into(), zh(&SHA).to_string()]),
        );
        meta.packages.insert(
            "darwin_arm64".into(),
            entry(vec!["h1:darwin".into(), zh(&OTHER_SHA).to_string()]),
        );
    }
    source
}

fn run(
    opts: &PlanOptions,
    prior: Option<&ProviderLock>,
    source: &SourcePackage,
    fetched: &FetchedPackage,
) -> Result<Accepted, Rejection> {
    let provider = provider(opts.flavor);
    let release = Release {
        provider: &provider,
        version: &v("1.0.0"),
        constraints: &Constraints::default(),
    };
    accept(
        opts,
        release,
        prior,
        source,
        fetched,
        &mut SignatureMemo::default(),
    )
}

fn recorded(a: &Accepted) -> Vec<&str> {
    a.lock.hashes().iter().map(PackageHash::as_str).collect()
}

#[test]
fn init_refuses_a_package_matching_no_hash_of_the_locked_version() {
    let opts = options(Flavor::Terraform, Mode::Init);
    let lock = prior(Flavor::Terraform, "1.0.0", &["h1:someone-else"]);
    let err = run(&opts, Some(&lock), &local_archive(), &archive()).unwrap_err();
    assert!(matches!(err, Rejection::ChecksumMismatch(_)));
    assert_eq!(
        texts::rejection(&err),
        "the current package for registry.terraform.io/hashicorp/null 1.0.0 doesn't match any of the checksums previously recorded in the dependency lock file; for more information: https://developer.hashicorp.com/terraform/language/files/dependency-lock#checksum-verification"
    );
}

#[test]
fn a_directory_mismatch_says_the_checksums_may_be_for_other_platforms() {
    let opts = options(Flavor::OpenTofu, Mode::Init);
    let lock = prior(Flavor::OpenTofu, "1.0.0", &["h1:someone-else"]);
    let source = SourcePackage::LocalDir {
        path: "mirror/null".into(),
    };
    let err = run(&opts, Some(&lock), &source, &directory()).unwrap_err();
    assert_eq!(
        texts::rejection(&err),
        "the local package for registry.opentofu.org/hashicorp/null 1.0.0 doesn't match any of the checksums previously recorded in the dependency lock file (this might be because the available checksums are for packages targeting different platforms)"
    );
}

#[test]
fn hashes_of_another_locked_version_check_nothing() {
    let opts = options(Flavor::Terraform, Mode::InitUpgrade);
    let lock = prior(Flavor::Terraform, "0.9.0", &["h1:someone-else"]);
    let a = run(&opts, Some(&lock), &local_archive(), &archive()).unwrap();
    assert_eq!(recorded(&a), [H1]);
    assert!(a.incomplete);
    assert_eq!(a.auth, None);
}

#[test]
fn a_locked_zh_matches_the_archive_and_is_kept() {
    let opts = options(Flavor::Terraform, Mode::Init);
    let locked_zh = zh(&SHA).to_string();
    let lock = prior(Flavor::Terraform, "1.0.0", &[&locked_zh]);
    let a = run(&opts, Some(&lock), &local_archive(), &archive()).unwrap();
    assert_eq!(recorded(&a), [H1, locked_zh.as_str()]);
    // The lock already held something besides this platform's h1:.
    assert!(!a.incomplete);
}

#[test]
fn a_locked_h1_is_checked_against_the_archive_form_not_the_unpacked_one() {
    let opts = options(Flavor::Terraform, Mode::Init);
    let lock = prior(Flavor::Terraform, "1.0.0", &[H1_ARCHIVE]);
    let a = run(&opts, Some(&lock), &local_archive(), &archive()).unwrap();
    assert_eq!(recorded(&a), [H1_ARCHIVE, H1]);

    let lock = prior(Flavor::Terraform, "1.0.0", &[H1]);
    let err = run(&opts, Some(&lock), &local_archive(), &archive()).unwrap_err();
    assert!(matches!(err, Rejection::ChecksumMismatch(_)));
}

#[test]
fn a_locked_zh_cannot_check_an_unpacked_directory() {
    let opts = options(Flavor::Terraform, Mode::Init);
    let locked_zh = zh(&SHA).to_string();
    let lock = prior(Flavor::Terraform, "1.0.0", &[&locked_zh]);
    let source = SourcePackage::LocalDir {
        path: "mirror/null".into(),
    };
    let err = run(&opts, Some(&lock), &source, &directory()).unwrap_err();
    assert!(matches!(err, Rejection::ChecksumMismatch(_)));

    let lock = prior(Flavor::Terraform, "1.0.0", &[H1]);
    let a = run(&opts, Some(&lock), &source, &directory()).unwrap();
    assert_eq!(recorded(&a), [H1]);
    assert!(a.incomplete, "only this platform's h1: vouches for it");
}

#[test]
fn providers_lock_unites_the_hashes_without_checking_them() {
    let opts = options(Flavor::Terraform, Mode::ProvidersLock);
    let lock = prior(Flavor::Terraform, "1.0.0", &["h1:someone-else"]);
    let a = run(&opts, Some(&lock), &local_archive(), &archive()).unwrap();
    assert_eq!(recorded(&a), ["h1:someone-else", H1]);
}

#[test]
fn a_mirror_zh_verifies_the_package_and_only_opentofu_records_it() {
    let mirror_zh = zh(&SHA).to_string();
    let source = mirror(&[("linux_amd64", &mirror_zh)], false);

    let opts = options(Flavor::Terraform, Mode::Init);
    let a = run(&opts, None, &source, &archive()).unwrap();
    assert_eq!(
        a.auth.as_ref().map(|a| a.kind),
        Some(AuthKind::VerifiedChecksum)
    );
    assert_eq!(recorded(&a), [H1]);
    assert!(a.incomplete);

    let opts = options(Flavor::OpenTofu, Mode::Init);
    let a = run(&opts, None, &source, &archive()).unwrap();
    assert_eq!(
        a.auth.as_ref().map(|a| a.kind),
        Some(AuthKind::VerifiedChecksum)
    );
    assert_eq!(recorded(&a), [H1, mirror_zh.as_str()]);
    // Verified locally is not vouched for: the lock still covers one platform.
    assert!(a.incomplete);
}

#[test]
fn a_mirror_hash_the_package_does_not_match_is_unauthentic() {
    let opts = options(Flavor::Terraform, Mode::Init);
    let source = mirror(&[("linux_amd64", "zh:0000")], false);
    let err = run(&opts, None, &source, &archive()).unwrap_err();
    assert!(matches!(err, Rejection::Unauthentic(_)));
    assert_eq!(
        texts::rejection(&err),
        "provider package doesn't match the expected checksum \"zh:0000\""
    );
}

#[test]
fn a_mirror_without_hashes_vouches_for_nothing() {
    let opts = options(Flavor::Terraform, Mode::Init);
    let a = run(&opts, None, &mirror(&[], false), &archive()).unwrap();
    assert_eq!(a.auth, None);
    assert_eq!(recorded(&a), [H1]);
}

#[test]
fn a_trusted_mirror_vouches_for_every_platform_in_opentofu() {
    let opts = options(Flavor::OpenTofu, Mode::Init);
    let source = mirror(
        &[("linux_amd64", H1_ARCHIVE), ("darwin_arm64", "h1:darwin")],
        true,
    );
    let a = run(&opts, None, &source, &archive()).unwrap();
    assert_eq!(
        a.auth.as_ref().map(|a| a.kind),
        Some(AuthKind::VerifiedChecksum)
    );
    assert_eq!(recorded(&a), [H1_ARCHIVE, "h1:darwin", H1]);
    assert!(!a.incomplete);
}

#[test]
fn a_registry_package_must_be_an_archive() {
    let opts = options(Flavor::Terraform, Mode::Init);
    let err = run(&opts, None, &registry(Vec::new(), b""), &directory()).unwrap_err();
    assert_eq!(err, Rejection::NotAnArchive);
    assert_eq!(texts::rejection(&err), "registry package is not an archive");
}

#[test]
fn a_registry_archive_with_another_checksum_is_unauthentic() {
    let opts = options(Flavor::Terraform, Mode::Init);
    let FetchedPackage::Archive { hashes, size, .. } = archive() else {
        unreachable!()
    };
    let tampered = FetchedPackage::Archive {
        hashes,
        sha256: OTHER_SHA,
        size,
    };
    let err = run(&opts, None, &registry(Vec::new(), b""), &tampered).unwrap_err();
    assert_eq!(
        texts::rejection(&err),
        format!(
            "archive has incorrect checksum {} (expected {})",
            zh(&OTHER_SHA),
            zh(&SHA)
        )
    );
}

#[test]
fn terraform_requires_a_signature_from_a_listed_key() {
    let opts = options(Flavor::Terraform, Mode::Init);
    let err = run(&opts, None, &registry(Vec::new(), b""), &archive()).unwrap_err();
    assert_eq!(
        texts::rejection(&err),
        "authentication signature from unknown issuer"
    );
}

#[test]
fn opentofu_skips_signing_on_its_registry_and_trusts_the_sums() {
    let opts = options(Flavor::OpenTofu, Mode::Init);
    let a = run(&opts, None, &registry(Vec::new(), b""), &archive()).unwrap();
    let auth = a.auth.as_ref().unwrap();
    assert_eq!(auth.kind, AuthKind::SigningSkipped);
    assert_eq!(auth.key_id, None);
    let mut want = vec![
        H1.to_string(),
        zh(&SHA).to_string(),
        zh(&OTHER_SHA).to_string(),
    ];
    want.sort();
    assert_eq!(recorded(&a), want);
    assert!(!a.incomplete);
}

#[test]
fn opentofu_enforcing_signatures_refuses_an_unsigned_registry_package() {
    let mut opts = options(Flavor::OpenTofu, Mode::Init);
    opts.enforce_gpg_validation = true;
    let err = run(&opts, None, &registry(Vec::new(), b""), &archive()).unwrap_err();
    assert!(texts::rejection(&err).starts_with(
        "the provider is not signed with a valid signing key; please contact the provider author ("
    ));
}

#[test]
fn opentofu_packages_vouch_for_every_platform_once_the_h1_matches() {
    let opts = options(Flavor::OpenTofu, Mode::Init);
    let a = run(&opts, None, &registry_with_packages(H1), &archive()).unwrap();
    assert_eq!(
        a.auth.as_ref().map(|a| a.kind),
        Some(AuthKind::SigningSkipped)
    );
    for h in [
        "h1:darwin".to_string(),
        H1.to_string(),
        zh(&OTHER_SHA).to_string(),
    ] {
        assert!(recorded(&a).contains(&h.as_str()), "{h} recorded");
    }

    let err = run(&opts, None, &registry_with_packages("h1:lies"), &archive()).unwrap_err();
    assert_eq!(
        texts::rejection(&err),
        "registry response lists h1 checksums for linux_amd64 that do not match the downloaded package (h1:archive); the registry's package hashes cannot be trusted"
    );
}

#[test]
fn terraform_calls_a_listed_key_self_signed_and_records_every_signed_zh() {
    let opts = options(Flavor::Terraform, Mode::Init);
    let a = run(&opts, None, &signed_registry(), &archive()).unwrap();
    let auth = a.auth.as_ref().unwrap();
    assert_eq!(auth.kind, AuthKind::SelfSigned);
    assert_eq!(auth.summary(), format!("self-signed, key ID {KEY_ID}"));
    let mut want = vec![
        H1.to_string(),
        zh(&SHA).to_string(),
        zh(&OTHER_SHA).to_string(),
    ];
    want.sort();
    assert_eq!(recorded(&a), want);
    assert!(!a.incomplete);
}

#[test]
fn terraform_shows_no_key_id_for_a_hashicorp_signature() {
    let mut opts = options(Flavor::Terraform, Mode::Init);
    opts.trust_roots = TrustRoots {
        hashicorp: KEY.into(),
        partners: TrustRoots::hashicorp().partners,
    };
    let a = run(&opts, None, &signed_registry(), &archive()).unwrap();
    let auth = a.auth.as_ref().unwrap();
    assert_eq!(auth.kind, AuthKind::SignedByHashiCorp);
    assert_eq!(auth.summary(), "signed by HashiCorp");
}

#[test]
fn opentofu_calls_any_verified_signature_signed() {
    let opts = options(Flavor::OpenTofu, Mode::Init);
    let a = run(&opts, None, &signed_registry(), &archive()).unwrap();
    let auth = a.auth.as_ref().unwrap();
    assert_eq!(auth.kind, AuthKind::Signed);
    assert_eq!(auth.key_id.as_deref(), Some(KEY_ID));
    assert_eq!(recorded(&a).len(), 3);
}

#[test]
fn a_signature_over_other_sums_is_unauthentic() {
    let opts = options(Flavor::Terraform, Mode::Init);
    let mut source = signed_registry();
    if let SourcePackage::Registry { sha256sums, .. } = &mut source {
        sha256sums.extend_from_slice(b"# appended after signing\n");
    }
    let err = run(&opts, None, &source, &archive()).unwrap_err();
    assert!(matches!(err, Rejection::Unauthentic(_)), "{err:?}");
}

#[test]
fn each_sha256sums_signature_is_verified_once_per_run_with_the_same_verdict() {
    let opts = options(Flavor::Terraform, Mode::ProvidersLock);
    let provider = provider(opts.flavor);
    let (version, constraints) = (v("1.0.0"), Constraints::default());
    let release = || Release {
        provider: &provider,
        version: &version,
        constraints: &constraints,
    };
    let mut tampered = signed_registry();
    if let SourcePackage::Registry { sha256sums, .. } = &mut tampered {
        sha256sums.extend_from_slice(b"# appended after signing\n");
    }
    let mut memo = SignatureMemo::default();
    let mut accept_with = |source: &SourcePackage| {
        accept(&opts, release(), None, source, &archive(), &mut memo).map(|a| a.auth)
    };
    let first = accept_with(&signed_registry());
    let refused = accept_with(&tampered);
    let again = accept_with(&signed_registry());
    let refused_again = accept_with(&tampered);
    assert!(first.is_ok(), "{first:?}");
    assert_eq!(first, again);
    assert!(
        matches!(refused, Err(Rejection::Unauthentic(_))),
        "{refused:?}"
    );
    assert_eq!(refused, refused_again);
    assert_eq!(memo.verified(), 2);
    // The verdicts from memory are the ones a fresh verification gives.
    assert_eq!(
        first,
        run(&opts, None, &signed_registry(), &archive()).map(|a| a.auth)
    );
    assert_eq!(
        refused,
        run(&opts, None, &tampered, &archive()).map(|a| a.auth)
    );
}

#[test]
fn a_signed_package_still_has_to_match_the_lock() {
    let opts = options(Flavor::Terraform, Mode::Init);
    let lock = prior(Flavor::Terraform, "1.0.0", &["zh:someone-else"]);
    let err = run(&opts, Some(&lock), &signed_registry(), &archive()).unwrap_err();
    assert!(matches!(err, Rejection::ChecksumMismatch(_)));
}
