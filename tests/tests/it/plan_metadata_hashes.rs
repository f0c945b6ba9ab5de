//! `-metadata-hashes` in the planner (issue 31, item 3): every platform's `h1:` from the
//! source's metadata with one package downloaded per provider, the same lock bytes as a
//! download of every platform, and each platform's `zh:` still checked against the signed
//! `SHA256SUMS`. Driven by the fake host, which records every URL it fetched.

use tflock_core::addrs::{Platform, Provider};
use tflock_core::install::{HashSource, Mode, Outcome, PlanOptions, Planner, Requirements};
use tflock_core::lockfile::{write_locks, Locks};
use tflock_core::version::Constraints;
use tflock_core::Flavor;
use tflock_tests::fake_registry::{FakeHost, FakeRegistry, PackageId, SourceKind};

const PLATFORMS: [&str; 4] = [
    "darwin_arm64",
    "linux_amd64",
    "linux_arm64",
    "windows_amd64",
];
const NAMES: [&str; 2] = ["alpha", "beta"];

fn provider(name: &str) -> Provider {
    Provider::parse(
        &format!("registry.example.com/acme/{name}"),
        Flavor::Terraform,
    )
    .expect("address")
}

fn id(name: &str, platform: &str) -> PackageId {
    PackageId {
        provider: provider(name),
        version: "1.0.0".to_string(),
        platform: platform.to_string(),
    }
}

/// Two providers at 1.0.0 for every platform of [`PLATFORMS`]; `packages`: OpenTofu's
/// per-platform metadata in the registry's answers; the mirror always lists `zh:` too.
fn registry(packages: bool) -> FakeRegistry {
    let mut reg = FakeRegistry::new();
    reg.knobs.packages = packages;
    reg.knobs.mirror_zh = true;
    for name in NAMES {
        reg.publish(&provider(name), "1.0.0", &PLATFORMS);
    }
    reg
}

/// What one run produced: its outcome, the lock text, and the zips it fetched.
struct Run {
    outcome: Outcome,
    lock: String,
    zips: Vec<String>,
}

fn run(host: &mut FakeHost, flavor: Flavor, hash_source: HashSource) -> Run {
    let mut reqs = Requirements::new();
    for name in NAMES {
        reqs.insert(
            provider(name),
            Constraints::parse("1.0.0", flavor).expect("constraint"),
        );
    }
    let platforms = PLATFORMS
        .iter()
        .map(|p| Platform::parse(p).expect("platform"))
        .collect();
    let mut opts = PlanOptions::new(flavor, Mode::ProvidersLock, platforms);
    opts.hash_source = hash_source;
    let before = host.fetched.len();
    let outcome = host.drive(Planner::new(reqs, Locks::default(), opts));
    let zips = host.fetched[before..]
        .iter()
        .filter(|u| u.ends_with(".zip"))
        .cloned()
        .collect();
    Run {
        lock: write_locks(&outcome.new_lock, flavor),
        outcome,
        zips,
    }
}

/// Runs both modes on fresh hosts over `reg`; asserts both succeed.
fn both(reg: &FakeRegistry, flavor: Flavor, source: SourceKind, trust_all: bool) -> (Run, Run) {
    let mut runs = [HashSource::Packages, HashSource::Metadata].map(|mode| {
        let mut host = FakeHost::new(reg, flavor, source);
        host.trust_all_hashes = trust_all;
        let r = run(&mut host, flavor, mode);
        assert!(
            !r.outcome.has_errors(),
            "{mode:?}: {:?}",
            r.outcome.diagnostics
        );
        Some(r)
    });
    (
        runs[0].take().expect("full"),
        runs[1].take().expect("metadata"),
    )
}

/// Every platform's `h1:` and `zh:` of both providers is in `lock`.
fn assert_complete(reg: &FakeRegistry, lock: &str) {
    for name in NAMES {
        for p in PLATFORMS {
            assert!(lock.contains(&reg.expected_h1(&id(name, p))), "{p}: {lock}");
        }
    }
}

#[test]
fn opentofu_packages_lock_every_platform_with_one_download_per_provider_and_the_same_bytes() {
    let reg = registry(true);
    let (full, meta) = both(&reg, Flavor::OpenTofu, SourceKind::Registry, false);
    assert_eq!(
        full.zips.len(),
        NAMES.len() * PLATFORMS.len(),
        "{:?}",
        full.zips
    );
    assert_eq!(meta.zips.len(), NAMES.len(), "{:?}", meta.zips);
    assert_eq!(meta.lock, full.lock);
    assert_complete(&reg, &meta.lock);
}

#[test]
fn a_network_mirrors_hashes_lock_every_platform_with_one_download_and_the_same_bytes() {
    let reg = registry(false);
    for flavor in [Flavor::Terraform, Flavor::OpenTofu] {
        let (full, meta) = both(&reg, flavor, SourceKind::Mirror, false);
        assert_eq!(full.zips.len(), NAMES.len() * PLATFORMS.len(), "{flavor:?}");
        assert_eq!(meta.zips.len(), NAMES.len(), "{flavor:?}: {:?}", meta.zips);
        assert_eq!(meta.lock, full.lock, "{flavor:?}");
        assert_complete(&reg, &meta.lock);
    }
    // With trust_all_hashes each platform's list spans platforms: only its own count.
    let (full, meta) = both(&reg, Flavor::OpenTofu, SourceKind::Mirror, true);
    assert_eq!(meta.zips.len(), NAMES.len(), "{:?}", meta.zips);
    assert_eq!(meta.lock, full.lock);
}

#[test]
fn the_terraform_registry_has_no_h1_metadata_so_every_platform_is_still_downloaded() {
    let reg = registry(false);
    let (full, meta) = both(&reg, Flavor::Terraform, SourceKind::Registry, false);
    assert_eq!(meta.zips.len(), NAMES.len() * PLATFORMS.len());
    assert_eq!(meta.lock, full.lock);
}

#[test]
fn provenance_says_which_h1_came_from_metadata_and_which_was_computed_here() {
    let reg = registry(true);
    let (_, meta) = both(&reg, Flavor::OpenTofu, SourceKind::Registry, false);
    for name in NAMES {
        let result = meta
            .outcome
            .providers
            .iter()
            .find(|r| r.provider == provider(name))
            .expect("provider result");
        let downloaded: Vec<&String> = meta
            .zips
            .iter()
            .filter(|z| z.contains(&format!("provider-{name}_")))
            .collect();
        assert_eq!(downloaded.len(), 1, "{:?}", meta.zips);
        for p in PLATFORMS {
            let h1 = reg.expected_h1(&id(name, p));
            let prov = result
                .provenance
                .iter()
                .find(|h| h.hash.as_str() == h1)
                .expect("h1 recorded");
            let anchor = downloaded[0].ends_with(&format!("{p}.zip"));
            assert_eq!(prov.computed_locally, anchor, "{name} {p}: {prov:?}");
            assert_eq!(prov.from_metadata, !anchor, "{name} {p}: {prov:?}");
            assert!(prov.platforms.contains(&p.to_string()), "{prov:?}");
        }
    }
}

#[test]
fn a_mirror_h1_the_downloaded_package_contradicts_is_not_trusted_and_every_platform_is_downloaded()
{
    let reg = registry(false);
    let mut host = FakeHost::new(&reg, Flavor::Terraform, SourceKind::Mirror);
    // The mirror lies about the first platform's h1: (its zh: is right, so the package
    // itself is accepted); the anchor then hashes to something else than claimed.
    for name in NAMES {
        let truth = reg.expected_h1(&id(name, PLATFORMS[0]));
        let lie = reg.expected_h1(&id(name, PLATFORMS[1]));
        let key = host
            .files
            .keys()
            .find(|k| k.ends_with(&format!("/acme/{name}/1.0.0.json")))
            .expect("mirror document")
            .clone();
        let doc = String::from_utf8(host.files[&key].clone()).expect("utf-8");
        let (head, tail) = doc.split_once(&truth).expect("listed");
        host.files
            .insert(key, format!("{head}{lie}{tail}").into_bytes());
    }
    let meta = run(&mut host, Flavor::Terraform, HashSource::Metadata);
    assert!(!meta.outcome.has_errors(), "{:?}", meta.outcome.diagnostics);
    assert_eq!(
        meta.zips.len(),
        NAMES.len() * PLATFORMS.len(),
        "{:?}",
        meta.zips
    );
    assert!(meta
        .outcome
        .providers
        .iter()
        .flat_map(|r| &r.provenance)
        .all(|h| !h.from_metadata));
    assert_complete(&reg, &meta.lock);
}

#[test]
fn a_platform_whose_zh_the_signed_sha256sums_do_not_list_fails_without_being_downloaded() {
    let reg = registry(true);
    let mut host = FakeHost::new(&reg, Flavor::OpenTofu, SourceKind::Registry);
    // Re-sign a SHA256SUMS whose line for the last platform names other bytes: the
    // registry's own metadata still agrees with itself, only the signed sums do not.
    let last = PLATFORMS[PLATFORMS.len() - 1];
    for name in NAMES {
        let p = provider(name);
        let sums = String::from_utf8(reg.sha256sums(&p, "1.0.0")).expect("utf-8");
        let genuine = reg.expected_zh(&id(name, last));
        let genuine = genuine.trim_start_matches("zh:");
        let forged = sums.replace(genuine, &"0".repeat(64));
        assert_ne!(forged, sums);
        let sums_key = host
            .files
            .keys()
            .find(|k| k.contains(&format!("/acme/{name}/")) && k.ends_with("_SHA256SUMS"))
            .expect("sums")
            .clone();
        host.files
            .insert(format!("{sums_key}.sig"), reg.key.sign(forged.as_bytes()));
        host.files.insert(sums_key, forged.into_bytes());
    }
    let meta = run(&mut host, Flavor::OpenTofu, HashSource::Metadata);
    assert!(meta.outcome.has_errors(), "{}", meta.lock);
    assert!(!meta
        .zips
        .iter()
        .any(|z| z.ends_with(&format!("{last}.zip"))));
    let text = format!("{:?}", meta.outcome.diagnostics);
    assert!(text.contains(last), "{text}");
    assert!(
        text.contains("checksum list has unexpected SHA-256 hash"),
        "{text}"
    );
}
