//! Lock update rules, messages, review diff and three-way merge, as values.

use tflock_core::addrs::Provider;
use tflock_core::hash::PackageHash;
use tflock_core::lockfile::messages::{
    incomplete_lock_warning, lock_written_message, readonly_outcome, strip_markup,
};
use tflock_core::lockfile::update::{
    locked_version_conflict, needs_write, pinned_version, record_install, retain_required,
    InstalledPackage, PackageOrigin,
};
use tflock_core::lockfile::{
    diff_locks, header_flavor, load_locks, merge_locks, render_merge, write_locks, LoadOptions,
    Locks, ProviderLock,
};
use tflock_core::version::{Constraints, Version};
use tflock_core::{Flavor, Severity};

fn p(s: &str) -> Provider {
    Provider::parse(s, Flavor::Terraform).expect("address")
}
fn v(s: &str) -> Version {
    Version::parse(s).expect("version")
}
fn c(s: &str) -> Option<Constraints> {
    Some(Constraints::parse(s, Flavor::Terraform).expect("constraints"))
}
fn h(list: &[&str]) -> Vec<PackageHash> {
    list.iter()
        .map(|s| PackageHash::parse(s).expect("hash"))
        .collect()
}

fn fixture_locks(case: &str, file: &str) -> Locks {
    let text = std::fs::read_to_string(tflock_tests::fixtures("lockfile").join(case).join(file))
        .expect("fixture");
    let (locks, diags) = load_locks(&text, &LoadOptions::new("f", header_flavor(&text)));
    assert!(diags.is_empty(), "{diags:?}");
    locks
}

#[test]
fn set_provider_sorts_and_dedupes_hashes_like_terraform() {
    let mut locks = Locks::new();
    let lock = locks.set_provider(
        p("test/foo"),
        v("1.0.0"),
        c(">= 1.0.0"),
        h(&["zh:b", "h1:a", "zh:b", "h1:c"]),
    );
    let got: Vec<&str> = lock.hashes().iter().map(|h| h.as_str()).collect();
    assert_eq!(got, ["h1:a", "h1:c", "zh:b"]);
}

#[test]
fn save_locks_matches_terraforms_expected_file() {
    // The inputs of Terraform's TestSaveLocksToFile: unsorted providers, constraint `1.2`
    // canonicalized to `1.2.0`, a provider without constraints, hashes given out of order.
    let mut locks = Locks::new();
    locks.set_provider(
        p("test/foo"),
        v("1.0.0"),
        c(">= 1.0.0"),
        h(&[
            "test:cccccccccccccccccccccccccccccccccccccccccccccccc",
            "test:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb",
            "test:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        ]),
    );
    locks.set_provider(p("test/bar"), v("1.2.0"), c("~> 1.0"), vec![]);
    locks.set_provider(p("test/baz"), v("1.2.0"), None, vec![]);
    locks.set_provider(p("test/boo"), v("1.2.0"), c("1.2"), vec![]);
    let want = concat!(
        "# This file is maintained automatically by \"terraform init\".\n",
        "# Manual edits may be lost in future updates.\n",
        "\n",
        "provider \"registry.terraform.io/test/bar\" {\n",
        "  version     = \"1.2.0\"\n",
        "  constraints = \"~> 1.0\"\n",
        "}\n",
        "\n",
        "provider \"registry.terraform.io/test/baz\" {\n",
        "  version = \"1.2.0\"\n",
        "}\n",
        "\n",
        "provider \"registry.terraform.io/test/boo\" {\n",
        "  version     = \"1.2.0\"\n",
        "  constraints = \"1.2.0\"\n",
        "}\n",
        "\n",
        "provider \"registry.terraform.io/test/foo\" {\n",
        "  version     = \"1.0.0\"\n",
        "  constraints = \">= 1.0.0\"\n",
        "  hashes = [\n",
        "    \"test:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\",\n",
        "    \"test:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\",\n",
        "    \"test:cccccccccccccccccccccccccccccccccccccccccccccccc\",\n",
        "  ]\n",
        "}\n",
    );
    assert_eq!(write_locks(&locks, Flavor::Terraform), want);
    let tofu = write_locks(&locks, Flavor::OpenTofu);
    assert!(tofu.starts_with("# This file is maintained automatically by \"tofu init\".\n"));
    assert_eq!(
        &tofu[tofu.find('\n').unwrap()..],
        &want[want.find('\n').unwrap()..]
    );
}

#[test]
fn equality_ignores_constraints_but_not_hash_order() {
    let mut a = Locks::new();
    a.set_provider(
        p("test/foo"),
        v("1.0.0"),
        c(">= 1.0.0"),
        h(&["h1:a", "zh:b"]),
    );
    let mut b = Locks::new();
    b.set_provider(p("test/foo"), v("1.0.0"), c("~> 1.0"), h(&["h1:a", "zh:b"]));
    assert!(a.equal(&b));
    assert!(
        !needs_write(&a, &b),
        "a constraints-only change does not rewrite the file"
    );

    let (from_file, _) = load_locks(
        "provider \"registry.terraform.io/test/foo\" {\n  version = \"1.0.0\"\n  hashes = [\"zh:b\", \"h1:a\"]\n}\n",
        &LoadOptions::new("f", Flavor::Terraform),
    );
    assert_eq!(
        from_file.provider(&p("test/foo")).unwrap().hashes(),
        h(&["zh:b", "h1:a"]).as_slice()
    );
    assert!(
        !from_file.equal(&a),
        "file order is kept on load, so unsorted hashes differ"
    );
    assert!(needs_write(&from_file, &a));

    let mut other_version = Locks::new();
    other_version.set_provider(p("test/foo"), v("1.0.0+meta"), None, h(&["h1:a", "zh:b"]));
    assert!(
        !other_version.equal(&a),
        "build metadata is part of the version"
    );
    assert!(other_version.equal_provider_address(&a));
}

#[test]
fn readonly_mode_errors_on_new_providers_and_warns_on_changed_selections() {
    let mut old = Locks::new();
    old.set_provider(p("test/foo"), v("1.0.0"), None, h(&["h1:a"]));
    assert_eq!(
        readonly_outcome(&old, &old.clone(), Flavor::Terraform),
        None
    );

    let mut more = old.clone();
    more.set_provider(p("test/bar"), v("2.0.0"), None, vec![]);
    let d = readonly_outcome(&old, &more, Flavor::Terraform).expect("a diagnostic");
    assert_eq!(d.severity, Severity::Error);
    assert_eq!(d.summary, "Provider dependency changes detected");
    assert_eq!(d.detail, "Changes to the required provider dependencies were detected, but the lock file is read-only. To use and record these requirements, run \"terraform init\" without the \"-lockfile=readonly\" flag.");

    let mut rehashed = Locks::new();
    rehashed.set_provider(p("test/foo"), v("1.0.0"), None, h(&["h1:a", "h1:b"]));
    let d = readonly_outcome(&old, &rehashed, Flavor::OpenTofu).expect("a diagnostic");
    assert_eq!(d.severity, Severity::Warning);
    assert_eq!(d.summary, "Provider lock file not updated");
    assert_eq!(d.detail, "Changes to the provider selections were detected, but not saved in the .terraform.lock.hcl file. To record these selections, run \"tofu init\" without the \"-lockfile=readonly\" flag.");
}

#[test]
fn written_messages_depend_on_whether_a_lock_file_existed() {
    let empty = Locks::new();
    assert_eq!(
        lock_written_message(&empty, Flavor::OpenTofu),
        "\nOpenTofu has created a lock file [bold].terraform.lock.hcl[reset] to record the provider\n\
selections it made above. Include this file in your version control repository\n\
so that OpenTofu can guarantee to make the same selections by default when\n\
you run \"tofu init\" in the future."
    );
    let mut some = Locks::new();
    some.set_provider(p("test/foo"), v("1.0.0"), None, vec![]);
    assert_eq!(
        strip_markup(&lock_written_message(&some, Flavor::Terraform)),
        "\nTerraform has made some changes to the provider dependency selections recorded\n\
in the .terraform.lock.hcl file. Review those changes and commit them to your\n\
version control system if they represent changes you intended to make."
    );
}

#[test]
fn incomplete_lock_warning_lists_providers_sorted() {
    let d = incomplete_lock_warning(
        &[
            "yandex-cloud/yandex".to_string(),
            "hashicorp/null".to_string(),
        ],
        "linux_amd64",
        Flavor::Terraform,
    );
    assert_eq!(d.summary, "Incomplete lock file information for providers");
    assert_eq!(d.detail, "Due to your customized provider installation methods, Terraform was forced to calculate lock file checksums locally for the following providers:\n  - hashicorp/null\n  - yandex-cloud/yandex\n\nThe current .terraform.lock.hcl file only includes checksums for linux_amd64, so Terraform running on another platform will fail to install these providers.\n\nTo calculate additional checksums for another platform, run:\n  terraform providers lock -platform=linux_amd64\n(where linux_amd64 is the platform to generate)");
}

fn package(
    addr: &str,
    version: &str,
    package_hashes: &[&str],
    installed_h1: &str,
    signed: &[&str],
) -> InstalledPackage {
    InstalledPackage {
        addr: p(addr),
        version: v(version),
        constraints: c("~> 2.1.0"),
        package_hashes: h(package_hashes),
        installed_h1: PackageHash::parse(installed_h1).unwrap(),
        signed_hashes: h(signed),
        origin: PackageOrigin::Download,
    }
}

#[test]
fn a_new_h1_is_recorded_only_when_the_package_matches_a_recorded_hash() {
    // The documentation's "new provider package checksums" example: the package for another
    // platform matched a recorded zh:, so its h1: is added.
    let old = fixture_locks("change-new-checksums-terraform", "old.terraform.lock.hcl");
    let want = std::fs::read_to_string(
        tflock_tests::fixtures("lockfile")
            .join("change-new-checksums-terraform/new.terraform.lock.hcl"),
    )
    .unwrap();
    let azurerm = p("hashicorp/azurerm");
    let pkg = package(
        "hashicorp/azurerm",
        "2.1.0",
        &[
            "zh:5810d48f574c0e363c969b3f45276369c8f0a35b34d6202fdfceb7b85b3ac597",
            "h1:1xvaS5D8B8t6J6XmXxX8spo97tAzjhacjedFX1B47Fk=",
        ],
        "h1:1xvaS5D8B8t6J6XmXxX8spo97tAzjhacjedFX1B47Fk=",
        &[],
    );
    let lock = record_install(old.provider(&azurerm), &pkg, Flavor::Terraform).expect("matches");
    let mut new = old.clone();
    new.insert(lock);
    assert_eq!(write_locks(&new, Flavor::Terraform), want);
    assert!(needs_write(&old, &new));

    let stranger = package(
        "hashicorp/azurerm",
        "2.1.0",
        &["zh:00", "h1:zz"],
        "h1:zz",
        &[],
    );
    let err = record_install(old.provider(&azurerm), &stranger, Flavor::Terraform).unwrap_err();
    assert_eq!(err.error, "the current package for registry.terraform.io/hashicorp/azurerm 2.1.0 doesn't match any of the checksums previously recorded in the dependency lock file; for more information: https://developer.hashicorp.com/terraform/language/files/dependency-lock#checksum-verification");
}

#[test]
fn recorded_hashes_union_prior_installed_and_signed_for_the_same_version_only() {
    let mut prior = Locks::new();
    prior.set_provider(
        p("test/foo"),
        v("1.0.0"),
        c(">= 1.0.0"),
        h(&["h1:old", "zh:ok", "x1:future"]),
    );
    let same = InstalledPackage {
        addr: p("test/foo"),
        version: v("1.0.0"),
        constraints: c("~> 1.0"),
        package_hashes: h(&["zh:ok"]),
        installed_h1: PackageHash::parse("h1:new").unwrap(),
        signed_hashes: h(&["zh:ok", "zh:other"]),
        origin: PackageOrigin::Download,
    };
    let lock = record_install(prior.provider(&p("test/foo")), &same, Flavor::Terraform).unwrap();
    let got: Vec<&str> = lock.hashes().iter().map(|h| h.as_str()).collect();
    assert_eq!(
        got,
        ["h1:new", "h1:old", "zh:ok", "zh:other"],
        "unknown schemes are not carried over"
    );
    assert_eq!(
        lock.constraints_string(),
        "~> 1.0",
        "constraints are replaced by the configured ones"
    );

    let upgraded = InstalledPackage {
        version: v("1.1.0"),
        package_hashes: h(&["zh:unrelated"]),
        ..same
    };
    let lock =
        record_install(prior.provider(&p("test/foo")), &upgraded, Flavor::Terraform).unwrap();
    let got: Vec<&str> = lock.hashes().iter().map(|h| h.as_str()).collect();
    assert_eq!(
        got,
        ["h1:new", "zh:ok", "zh:other"],
        "a new version starts from fresh hashes"
    );
}

#[test]
fn selections_are_kept_unless_upgrading_and_unneeded_providers_dropped() {
    let mut locks = fixture_locks(
        "change-removed-provider-terraform",
        "old.terraform.lock.hcl",
    );
    let azurerm = p("hashicorp/azurerm");
    assert_eq!(pinned_version(&locks, &azurerm, false), Some(&v("2.30.0")));
    assert_eq!(pinned_version(&locks, &azurerm, true), None);
    assert_eq!(
        locked_version_conflict(&azurerm, &v("2.30.0"), &c("~> 3.0").unwrap(), Flavor::OpenTofu),
        "locked provider registry.terraform.io/hashicorp/azurerm 2.30.0 does not match configured version constraint ~> 3.0; must use tofu init -upgrade to allow selection of new versions"
    );
    retain_required(&mut locks, &[p("hashicorp/aws"), p("newrelic/newrelic")]);
    let want = fixture_locks(
        "change-removed-provider-terraform",
        "new.terraform.lock.hcl",
    );
    assert_eq!(
        write_locks(&locks, Flavor::Terraform),
        write_locks(&want, Flavor::Terraform)
    );
}

#[test]
fn diff_is_structured_for_tools() {
    let old = fixture_locks("change-new-version-terraform", "old.terraform.lock.hcl");
    let mut new = fixture_locks("change-new-version-terraform", "new.terraform.lock.hcl");
    new.set_provider(p("hashicorp/aws"), v("3.10.0"), c("~> 3.0"), vec![]);
    let json = serde_json::to_string_pretty(&diff_locks(&old, &new)).expect("serializable");
    insta::assert_snapshot!("lockfile_diff_json", json);
}

fn one(addr: &str, version: &str, hashes: &[&str]) -> ProviderLock {
    ProviderLock::new(p(addr), v(version), None, h(hashes))
}

fn locks_of(entries: &[ProviderLock]) -> Locks {
    let mut l = Locks::new();
    for e in entries {
        l.insert(e.clone());
    }
    l
}

#[test]
fn merge_unites_hashes_for_the_same_version() {
    let base = locks_of(&[one("test/a", "1.0.0", &["zh:1"])]);
    let ours = locks_of(&[one("test/a", "1.0.0", &["h1:mac", "zh:1"])]);
    let theirs = locks_of(&[
        one("test/a", "1.0.0", &["h1:linux", "zh:1"]),
        one("test/b", "2.0.0", &[]),
    ]);
    let m = merge_locks(&base, &ours, &theirs);
    assert!(m.is_clean());
    let a: Vec<&str> = m
        .locks
        .provider(&p("test/a"))
        .unwrap()
        .hashes()
        .iter()
        .map(|h| h.as_str())
        .collect();
    assert_eq!(a, ["h1:linux", "h1:mac", "zh:1"]);
    assert!(
        m.locks.provider(&p("test/b")).is_some(),
        "a provider added on one side is kept"
    );
}

#[test]
fn merge_takes_the_changed_side_and_conflicts_on_divergent_versions() {
    let base = locks_of(&[
        one("test/a", "1.0.0", &["zh:1"]),
        one("test/gone", "1.0.0", &[]),
    ]);
    let ours = locks_of(&[one("test/a", "1.1.0", &["zh:2"])]);
    let theirs = locks_of(&[
        one("test/a", "1.0.0", &["zh:1"]),
        one("test/gone", "1.0.0", &[]),
    ]);
    let m = merge_locks(&base, &ours, &theirs);
    assert!(m.is_clean());
    assert_eq!(
        m.locks.provider(&p("test/a")).unwrap().version(),
        &v("1.1.0")
    );
    assert!(
        m.locks.provider(&p("test/gone")).is_none(),
        "removed on one side, untouched on the other"
    );

    let theirs = locks_of(&[
        one("test/a", "1.2.0", &["zh:3"]),
        one("test/gone", "1.0.1", &[]),
    ]);
    let m = merge_locks(&base, &ours, &theirs);
    let got: Vec<(String, Option<String>, Option<String>)> = m
        .conflicts
        .iter()
        .map(|c| (c.provider.clone(), c.ours.clone(), c.theirs.clone()))
        .collect();
    assert_eq!(
        got,
        [
            (
                "registry.terraform.io/test/a".into(),
                Some("1.1.0".into()),
                Some("1.2.0".into())
            ),
            (
                "registry.terraform.io/test/gone".into(),
                None,
                Some("1.0.1".into())
            ),
        ]
    );
    insta::assert_snapshot!(
        "lockfile_merge_conflict_markers",
        render_merge(&m, Flavor::Terraform)
    );
}
