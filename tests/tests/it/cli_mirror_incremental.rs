//! `providers mirror` updates a mirror incrementally (issue 31, item 5): an archive already
//! in the directory whose checksum is the signed one is not downloaded again, and the run
//! says how many it skipped. Requests are counted on the loopback registry.

use crate::e2e_common::{
    host_block, id, platforms, provider, registry, registry_files, text, Env, HOST,
};
use tflock_core::addrs::Platform;
use tflock_tests::fake_registry::FakeRegistry;
use tflock_tests::http_server::StaticServer;

struct World {
    env: Env,
    reg: FakeRegistry,
    server: StaticServer,
    target: std::path::PathBuf,
}

fn world() -> World {
    let demo = provider("demo");
    let reg = registry(&[(&demo, "1.0.0")]);
    let server = StaticServer::start(registry_files(&reg, HOST));
    let env = Env::new();
    env.cli_config(&host_block(&server));
    env.requires(&[("demo", "1.0.0")]);
    let target = env.home.path().join("mirror");
    World {
        env,
        reg,
        server,
        target,
    }
}

impl World {
    /// Runs `providers mirror` for `platforms` into the target; returns stdout and the zips
    /// it requested.
    fn mirror(&self, platforms: &[&str]) -> (String, Vec<String>) {
        let before = self.server.requests().len();
        let mut args = vec!["providers".to_string(), "mirror".to_string()];
        args.extend(platforms.iter().map(|p| format!("-platform={p}")));
        args.push(self.target.display().to_string());
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = self.env.run(&args);
        assert!(out.status.success(), "{}", text(&out));
        let zips = self.server.requests()[before..]
            .iter()
            .filter(|r| r.ends_with(".zip"))
            .cloned()
            .collect();
        (String::from_utf8_lossy(&out.stdout).into_owned(), zips)
    }

    fn archive(&self, platform: &str) -> std::path::PathBuf {
        self.target
            .join(HOST)
            .join("acme/demo")
            .join(FakeRegistry::filename(&id(
                &provider("demo"),
                "1.0.0",
                platform,
            )))
    }

    /// Every file of the mirror (relative name, bytes), sorted.
    fn snapshot(&self) -> Vec<(String, Vec<u8>)> {
        let mut out = Vec::new();
        let mut dirs = vec![self.target.clone()];
        while let Some(dir) = dirs.pop() {
            for e in std::fs::read_dir(&dir).expect("read dir").flatten() {
                let path = e.path();
                if path.is_dir() {
                    dirs.push(path);
                } else {
                    let name = path
                        .strip_prefix(&self.target)
                        .expect("under")
                        .display()
                        .to_string();
                    out.push((name, std::fs::read(&path).expect("read")));
                }
            }
        }
        out.sort();
        out
    }
}

/// Two platforms of the fake release, this machine's first.
fn two() -> [String; 2] {
    let here = Platform::current().to_string();
    let other = platforms()
        .into_iter()
        .find(|p| *p != here)
        .expect("another");
    [here, other]
}

#[test]
fn a_second_run_over_an_unchanged_mirror_downloads_nothing_and_says_what_it_skipped() {
    let w = world();
    let [a, b] = two();
    let (_, zips) = w.mirror(&[&a, &b]);
    assert_eq!(zips.len(), 2, "{zips:?}");
    let first = w.snapshot();

    let (stdout, zips) = w.mirror(&[&a, &b]);
    assert!(zips.is_empty(), "downloaded again: {zips:?}");
    assert!(
        stdout.contains("- Skipped 2 package(s) already in the mirror (their checksums match the signed ones); downloaded 0\n"),
        "{stdout}"
    );
    assert_eq!(w.snapshot(), first, "the mirror changed");
}

#[test]
fn a_new_platform_downloads_only_its_own_package() {
    let w = world();
    let [a, b] = two();
    w.mirror(&[&a]);
    let (stdout, zips) = w.mirror(&[&a, &b]);
    assert_eq!(zips.len(), 1, "{zips:?}");
    assert!(zips[0].ends_with(&format!("{b}.zip")), "{zips:?}");
    assert!(
        stdout.contains("- Skipped 1 package(s) already in the mirror (their checksums match the signed ones); downloaded 1\n"),
        "{stdout}"
    );
    assert!(w.archive(&b).is_file());
}

#[test]
fn an_archive_that_no_longer_matches_its_signed_checksum_is_downloaded_again() {
    let w = world();
    let [a, b] = two();
    w.mirror(&[&a, &b]);
    let genuine = std::fs::read(w.archive(&b)).expect("read");
    // Same length, other bytes: only a checksum can tell.
    let mut tampered = genuine.clone();
    let last = tampered.len() - 1;
    tampered[last] ^= 0xff;
    std::fs::write(w.archive(&b), &tampered).expect("write");

    let (stdout, zips) = w.mirror(&[&a, &b]);
    assert_eq!(zips.len(), 1, "{zips:?}");
    assert!(zips[0].ends_with(&format!("{b}.zip")), "{zips:?}");
    assert!(stdout.contains("downloaded 1\n"), "{stdout}");
    assert_eq!(std::fs::read(w.archive(&b)).expect("read"), genuine);
    assert_eq!(
        genuine,
        w.reg.genuine_zip(&id(&provider("demo"), "1.0.0", &b))
    );
}
