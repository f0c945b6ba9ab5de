//! `providers lock` remembers platforms (issue 31, item 4): without `-platform` a lock that
//! covers several platforms keeps them all, `-platform=locked` names them, and
//! `TFLOCK_PLATFORMS` sets the default list; an explicit `-platform` is Terraform's
//! behaviour. End to end through the loopback registry.

use crate::e2e_common::{
    host_block, id, lock_text, platforms, provider, registry, registry_files, text, Env, LockEntry,
    HOST,
};
use tflock_core::addrs::Platform;
use tflock_core::Flavor;
use tflock_tests::fake_registry::FakeRegistry;
use tflock_tests::http_server::StaticServer;

struct World {
    env: Env,
    reg: FakeRegistry,
    server: StaticServer,
}

/// `acme/demo` and `acme/extra` 1.0.0 for every platform of [`platforms`]; only `demo` is
/// required.
fn world(configure: impl FnOnce(&mut FakeRegistry)) -> World {
    let demo = provider("demo");
    let extra = provider("extra");
    let mut reg = registry(&[(&demo, "1.0.0"), (&extra, "1.0.0")]);
    configure(&mut reg);
    let server = StaticServer::start(registry_files(&reg, HOST));
    let env = Env::new();
    env.cli_config(&host_block(&server));
    env.requires(&[("demo", "1.0.0")]);
    World { env, reg, server }
}

impl World {
    fn h1(&self, name: &str, platform: &str) -> String {
        self.reg
            .expected_h1(&id(&provider(name), "1.0.0", platform))
    }

    /// The platforms whose `h1:` of `acme/extra` the lock holds.
    fn locked_h1_platforms(&self) -> Vec<String> {
        let lock = self.env.lock();
        platforms()
            .into_iter()
            .filter(|p| lock.contains(&self.h1("extra", p)))
            .collect()
    }

    /// Locks `demo` for `given`, then requires `extra` too: a provider new to the lock,
    /// whose platforms only the run's platform list decides.
    fn locked_then_extended(&self, given: &[&str]) {
        let mut args = vec!["providers".to_string(), "lock".to_string()];
        args.extend(given.iter().map(|p| format!("-platform={p}")));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = self.env.run(&args);
        assert!(out.status.success(), "{}", text(&out));
        self.env.requires(&[("demo", "1.0.0"), ("extra", "1.0.0")]);
    }
}

fn here() -> String {
    Platform::current().to_string()
}

/// Two platforms of the fake releases that are not this machine's.
fn two_others() -> [String; 2] {
    let others: Vec<String> = platforms().into_iter().filter(|p| *p != here()).collect();
    [others[0].clone(), others[1].clone()]
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

#[test]
fn providers_lock_without_platforms_keeps_every_platform_a_several_platform_lock_covers() {
    let w = world(|_| {});
    let [a, b] = two_others();
    w.locked_then_extended(&[&a, &b]);
    let out = w.env.run(&["providers", "lock"]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(
        w.locked_h1_platforms(),
        sorted(vec![here(), a.clone(), b.clone()]),
        "{}\n{}",
        w.env.lock(),
        text(&out)
    );
    let mut rest = sorted(vec![a, b]);
    rest.insert(0, here());
    let line = format!(
        "tflock: keeping the 3 platforms the lock file covers ({}); -platform=OS_ARCH locks only those given\n",
        rest.join(", ")
    );
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(&line),
        "{line}{}",
        text(&out)
    );
}

#[test]
fn an_explicit_platform_locks_only_the_platforms_given_as_terraform_does() {
    let w = world(|_| {});
    let [a, b] = two_others();
    w.locked_then_extended(&[&a, &b]);
    let out = w
        .env
        .run(&["providers", "lock", &format!("-platform={}", here())]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(w.locked_h1_platforms(), [here()], "{}", w.env.lock());
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("tflock: keeping"),
        "{}",
        text(&out)
    );
}

#[test]
fn a_lock_of_one_platform_keeps_terraforms_default_and_asks_nothing_more() {
    let w = world(|_| {});
    let [a, _] = two_others();
    w.locked_then_extended(&[&a]);
    let before = w.server.requests().len();
    let out = w.env.run(&["providers", "lock"]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(w.locked_h1_platforms(), [here()], "{}", w.env.lock());
    // Only this platform's documents: no probe asked about the lock's other platform.
    let (os, arch) = here()
        .split_once('_')
        .map(|(o, a)| (o.to_string(), a.to_string()))
        .expect("os_arch");
    let elsewhere: Vec<String> = w.server.requests()[before..]
        .iter()
        .filter(|r| r.contains("/download/") && !r.ends_with(&format!("/download/{os}/{arch}")))
        .cloned()
        .collect();
    assert!(elsewhere.is_empty(), "{elsewhere:?}");
}

#[test]
fn platform_locked_names_exactly_the_platforms_the_lock_covers() {
    let w = world(|_| {});
    let [a, b] = two_others();
    w.locked_then_extended(&[&a, &b]);
    let out = w.env.run(&["providers", "lock", "-platform=locked"]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(
        w.locked_h1_platforms(),
        sorted(vec![a, b]),
        "{}\n{}",
        w.env.lock(),
        text(&out)
    );
}

#[test]
fn platform_locked_without_a_lock_is_an_error_that_says_what_to_do() {
    let w = world(|_| {});
    let out = w.env.run(&["providers", "lock", "-platform=locked"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("No platforms to lock"), "{}", text(&out));
    assert!(stderr.contains("-platform=OS_ARCH"), "{}", text(&out));
    assert!(w.env.lock().is_empty());
}

#[test]
fn tflock_platforms_is_the_default_list_and_a_flag_overrides_it() {
    let mut w = world(|_| {});
    let [a, b] = two_others();
    w.env.set("TFLOCK_PLATFORMS", &format!("{a}, {b}"));
    w.env.requires(&[("extra", "1.0.0")]);
    let out = w.env.run(&["providers", "lock"]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(w.locked_h1_platforms(), sorted(vec![a.clone(), b.clone()]));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(&format!(
            "tflock: platforms from TFLOCK_PLATFORMS: {a}, {b}\n"
        )),
        "{}",
        text(&out)
    );

    std::fs::remove_file(w.env.work.join(".terraform.lock.hcl")).expect("rm lock");
    let out = w
        .env
        .run(&["providers", "lock", &format!("-platform={}", here())]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(w.locked_h1_platforms(), [here()]);

    w.env.set("TFLOCK_PLATFORMS", "linux");
    let out = w.env.run(&["providers", "lock"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(
            "The string \"linux\" given in TFLOCK_PLATFORMS is not a valid target platform"
        ),
        "{}",
        text(&out)
    );
}

#[test]
fn the_cli_configs_tflock_platforms_is_the_default_below_the_environment() {
    let mut w = world(|_| {});
    let [a, b] = two_others();
    w.env.cli_config(&format!(
        "{}tflock_platforms = [\"{a}\"]\n",
        host_block(&w.server)
    ));
    w.env.requires(&[("extra", "1.0.0")]);
    let out = w.env.run(&["providers", "lock"]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(w.locked_h1_platforms(), std::slice::from_ref(&a));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(&format!(
            "tflock: platforms from the CLI configuration's tflock_platforms: {a}\n"
        )),
        "{}",
        text(&out)
    );

    std::fs::remove_file(w.env.work.join(".terraform.lock.hcl")).expect("rm lock");
    w.env.set("TFLOCK_PLATFORMS", &b);
    let out = w.env.run(&["providers", "lock"]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(w.locked_h1_platforms(), [b]);
}

#[test]
fn h1_checksums_the_terraform_registry_cannot_place_are_said_and_this_platform_is_locked() {
    // A lock made on another machine: the Terraform registry lists no h1: and this hash
    // cache is empty, so its platforms cannot be named without downloading.
    let w = world(|_| {});
    let demo = provider("demo");
    let [a, b] = two_others();
    let mut hashes = vec![w.h1("demo", &a), w.h1("demo", &b)];
    hashes.extend(
        platforms()
            .iter()
            .map(|p| w.reg.expected_zh(&id(&demo, "1.0.0", p))),
    );
    let lock = lock_text(
        Flavor::Terraform,
        &[LockEntry {
            provider: &demo,
            version: "1.0.0",
            constraints: Some("1.0.0"),
            hashes,
        }],
    );
    std::fs::write(w.env.work.join(".terraform.lock.hcl"), lock).expect("write lock");
    w.env.requires(&[("demo", "1.0.0"), ("extra", "1.0.0")]);
    let out = w.env.run(&["providers", "lock"]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(w.locked_h1_platforms(), [here()], "{}", w.env.lock());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(
            "tflock: the lock file has 2 h1: checksum(s) of platforms tflock cannot name without downloading"
        ),
        "{}",
        text(&out)
    );
}

#[test]
fn registry_metadata_alone_names_the_locked_platforms_with_an_empty_hash_cache() {
    // OpenTofu's `packages` list every platform's h1:; this run's hash cache is empty, so
    // only the metadata can place the lock's h1: checksums.
    let w = world(|r| r.knobs.packages = true);
    let demo = provider("demo");
    let [a, b] = two_others();
    let mut hashes = vec![w.h1("demo", &a), w.h1("demo", &b)];
    hashes.extend(
        platforms()
            .iter()
            .map(|p| w.reg.expected_zh(&id(&demo, "1.0.0", p))),
    );
    // OpenTofu reads `packages`: the lock's header makes the directory OpenTofu's.
    let lock = lock_text(
        Flavor::OpenTofu,
        &[LockEntry {
            provider: &demo,
            version: "1.0.0",
            constraints: Some("1.0.0"),
            hashes,
        }],
    );
    std::fs::write(w.env.work.join(".terraform.lock.hcl"), lock).expect("write lock");
    w.env.requires(&[("demo", "1.0.0"), ("extra", "1.0.0")]);
    let out = w.env.run(&["providers", "lock"]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(
        w.locked_h1_platforms(),
        sorted(vec![here(), a, b]),
        "{}\n{}",
        w.env.lock(),
        text(&out)
    );
}
