//! Crash safety of everything the CLI writes: `init`, `providers lock`, `providers mirror`
//! and `lockfile fmt -w` killed with SIGKILL at random points leave the lock file old or
//! new (never partial), and the next run repairs whatever was cut short (the packages it
//! then trusts match the lock: `tflock verify`). A full disk and a read-only directory give
//! an error naming the path and leave the previous lock file unchanged.
//!
//! The kill points are random; the seed is printed and `TFLOCK_CRASH_SEED` replays one.

use crate::e2e_common::*;
use rand::{rngs::StdRng, Rng, SeedableRng};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};
use tflock_tests::http_server::StaticServer;

/// Kill iterations per command.
const KILLS: usize = 24;

/// Three providers, two versions each, served over loopback; the module starts on 1.0.0.
struct Scene {
    _server: StaticServer,
    env: Env,
}

fn scene() -> Scene {
    let names = ["alpha", "beta", "gamma"];
    let providers: Vec<_> = names.iter().map(|n| provider(n)).collect();
    let releases: Vec<_> = providers
        .iter()
        .flat_map(|p| [(p, "1.0.0"), (p, "1.1.0")])
        .collect();
    let reg = registry(&releases);
    let server = StaticServer::start(registry_files(&reg, HOST));
    let env = Env::new();
    env.cli_config(&host_block(&server));
    Scene {
        _server: server,
        env,
    }
}

impl Scene {
    fn require(&self, version: &str) {
        self.env
            .requires(&[("alpha", version), ("beta", version), ("gamma", version)]);
    }
}

fn seed() -> u64 {
    let seed = std::env::var("TFLOCK_CRASH_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
        });
    eprintln!("crash_safety: TFLOCK_CRASH_SEED={seed}");
    seed
}

/// How long `cmd` takes when left alone (the slowest of three runs), to spread kills over.
fn full_run(mut make: impl FnMut() -> Command, reset: &mut dyn FnMut()) -> Duration {
    let mut longest = Duration::ZERO;
    for _ in 0..3 {
        reset();
        let started = Instant::now();
        let out = make().output().expect("run tflock");
        assert!(out.status.success(), "{}", all_output(&out));
        longest = longest.max(started.elapsed());
    }
    longest
}

/// Spawns `cmd` and SIGKILLs it after `delay` (if it is still running).
fn kill_after(mut cmd: Command, delay: Duration) {
    let mut child = cmd
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("spawn tflock");
    std::thread::sleep(delay);
    let _ = child.kill();
    let _ = child.wait();
}

/// Every file and directory under `dir`, recursively.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in entries.flatten() {
        let path = e.path();
        if path.is_dir() {
            out.extend(files_under(&path));
        }
        out.push(path);
    }
    out
}

/// Replaces `to` with a copy of `from` (the state a kill iteration starts from).
fn replace_tree(from: &Path, to: &Path) {
    let _ = std::fs::remove_dir_all(to);
    copy_tree(from, to);
}

/// Kills `args` (run in the scene's working directory) at random points; after each kill the
/// lock is `old` or `new`, and a complete rerun gives `new` and packages `verify` accepts.
fn kills_leave_old_or_new(s: &Scene, args: &[&str], check_install: bool) {
    let work = s.env.work.clone();
    let start = s.env.home.path().join("start");
    replace_tree(&work, &start);
    let old = s.env.lock();
    let mut reset = || replace_tree(&start, &work);
    let full = full_run(|| s.env.command_in(&work, args), &mut reset);
    let new = s.env.lock();
    assert_ne!(
        old, new,
        "the command must change the lock for the test to mean anything"
    );
    let seed = seed();
    let mut rng = StdRng::seed_from_u64(seed);
    let limit = full.as_micros() as u64 * 11 / 10;
    let (mut old_seen, mut new_seen) = (0, 0);
    for i in 0..KILLS {
        reset();
        let delay = Duration::from_micros(rng.gen_range(0..=limit));
        kill_after(s.env.command_in(&work, args), delay);
        let after = s.env.lock();
        let which = if after == old {
            old_seen += 1;
            "old"
        } else if after == new {
            new_seen += 1;
            "new"
        } else {
            panic!(
                "seed {seed}, kill {i} after {delay:?} of {full:?}: {args:?} left a lock that is neither old nor new:\n{after}"
            );
        };
        let rerun = s.env.run_in(&work, args);
        assert!(
            rerun.status.success(),
            "seed {seed}, kill {i} after {delay:?} (lock {which}): the rerun failed:\n{}",
            all_output(&rerun)
        );
        assert_eq!(s.env.lock(), new, "seed {seed}, kill {i}: the rerun's lock");
        if check_install {
            let verify = s.env.run_in(&work, &["verify"]);
            assert!(
                verify.status.success(),
                "seed {seed}, kill {i} after {delay:?}: the rerun trusted a package that does not match the lock:\n{}",
                all_output(&verify)
            );
        }
    }
    eprintln!(
        "crash_safety: {args:?}: {KILLS} kills within {full:?}: lock old {old_seen}, new {new_seen}"
    );
}

#[test]
fn killing_init_leaves_the_lock_old_or_new_and_the_next_init_installs_only_matching_packages() {
    let s = scene();
    s.require("1.0.0");
    let first = s.env.run(&["init"]);
    assert!(first.status.success(), "{}", all_output(&first));
    s.require("1.1.0");
    kills_leave_old_or_new(&s, &["init", "-upgrade"], true);
}

#[test]
fn killing_init_with_a_plugin_cache_never_leaves_a_cache_entry_a_later_init_trusts() {
    let mut s = scene();
    let cache = s.env.home.path().join("plugin-cache");
    std::fs::create_dir_all(&cache).expect("mkdir");
    s.env
        .set("TF_PLUGIN_CACHE_DIR", &cache.display().to_string());
    s.require("1.0.0");
    let first = s.env.run(&["init"]);
    assert!(first.status.success(), "{}", all_output(&first));
    s.require("1.1.0");
    // The cache persists across iterations (it is outside the working directory), so a
    // cache entry cut short by one kill is what a later iteration's init finds.
    kills_leave_old_or_new(&s, &["init", "-upgrade"], true);
    for path in files_under(&cache) {
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        assert!(
            !name.ends_with(".zip"),
            "a partial download was left under a final name: {}",
            path.display()
        );
    }
}

#[test]
fn killing_providers_lock_leaves_the_lock_old_or_new() {
    let s = scene();
    s.require("1.0.0");
    let first = s.env.run(&["providers", "lock", "-platform=linux_amd64"]);
    assert!(first.status.success(), "{}", all_output(&first));
    kills_leave_old_or_new(
        &s,
        &[
            "providers",
            "lock",
            "-platform=linux_amd64",
            "-platform=darwin_arm64",
            "-platform=windows_amd64",
        ],
        false,
    );
}

#[test]
fn killing_lockfile_fmt_w_leaves_the_lock_old_or_new() {
    let s = scene();
    s.require("1.0.0");
    let first = s.env.run(&["providers", "lock", "-platform=linux_amd64"]);
    assert!(first.status.success(), "{}", all_output(&first));
    // An untidy but valid lock: fmt -w rewrites it into Terraform's layout.
    let untidy = s.env.lock().replace("  version     = ", "  version = ");
    std::fs::write(s.env.work.join(".terraform.lock.hcl"), &untidy).expect("write");
    kills_leave_old_or_new(&s, &["lockfile", "fmt", "-w"], false);
}

#[test]
fn killing_providers_mirror_never_leaves_a_package_the_next_mirror_run_keeps() {
    let s = scene();
    s.require("1.1.0");
    let target = s.env.home.path().join("mirror");
    let target_arg = target.display().to_string();
    let args = [
        "providers",
        "mirror",
        "-platform=linux_amd64",
        "-platform=darwin_arm64",
        target_arg.as_str(),
    ];
    let started = Instant::now();
    let out = s.env.run(&args);
    assert!(out.status.success(), "{}", all_output(&out));
    let full = started.elapsed();
    let complete = snapshot(&target);
    let seed = seed();
    let mut rng = StdRng::seed_from_u64(seed);
    for i in 0..KILLS {
        let _ = std::fs::remove_dir_all(&target);
        let delay = Duration::from_micros(rng.gen_range(0..=full.as_micros() as u64 * 11 / 10));
        kill_after(s.env.command_in(&s.env.work, &args), delay);
        // Whatever is there under a final name is complete.
        for (name, bytes) in snapshot(&target) {
            if let Some(want) = complete.iter().find(|(n, _)| *n == name) {
                assert!(
                    name.ends_with(".json") || want.1 == bytes,
                    "seed {seed}, kill {i} after {delay:?}: {name} is partial"
                );
            }
        }
        let rerun = s.env.run(&args);
        assert!(rerun.status.success(), "{}", all_output(&rerun));
        let files: Vec<_> = snapshot(&target)
            .into_iter()
            .filter(|(n, _)| n.ends_with(".zip"))
            .collect();
        let want: Vec<_> = complete
            .iter()
            .filter(|(n, _)| n.ends_with(".zip"))
            .cloned()
            .collect();
        assert_eq!(files, want, "seed {seed}, kill {i}: the rerun's packages");
    }
}

/// Every regular file under `dir` (relative name, bytes), sorted, temp files excluded.
fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<_> = files_under(dir)
        .into_iter()
        .filter(|p| p.is_file())
        .filter(|p| {
            !p.file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .starts_with(".tflock")
        })
        .map(|p| {
            let name = p.strip_prefix(dir).unwrap_or(&p).display().to_string();
            (name, std::fs::read(&p).expect("read"))
        })
        .collect();
    out.sort();
    out
}

/// A small tmpfs mounted on a fresh directory for the test's lifetime (needs root, as CI
/// and this project's machines run; elsewhere the test says so and does nothing).
struct SmallFs {
    dir: tempfile::TempDir,
}

impl SmallFs {
    fn mount(kib: usize) -> Option<SmallFs> {
        let dir = tempfile::tempdir().expect("tempdir");
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={kib}k"), "tmpfs"])
            .arg(dir.path())
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            eprintln!("crash_safety: cannot mount a tmpfs here (not root?); full-disk and read-only cases not run");
            return None;
        }
        Some(SmallFs { dir })
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Fills the file system until a write fails with "no space left".
    fn fill(&self) {
        let mut f = std::fs::File::create(self.path().join("filler")).expect("filler");
        let block = vec![0u8; 4096];
        loop {
            if std::io::Write::write_all(&mut f, &block).is_err() {
                break;
            }
        }
        let _ = f.sync_all();
    }

    fn remount(&self, option: &str) {
        let ok = Command::new("mount")
            .args(["-o", &format!("remount,{option}")])
            .arg(self.path())
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "remount {option}");
    }
}

impl Drop for SmallFs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(self.dir.path()).status();
    }
}

/// The scene's module moved into `fs` (with a lock for linux_amd64 only), and the scene.
fn scene_on(fs: &SmallFs) -> (Scene, PathBuf) {
    let s = scene();
    s.require("1.0.0");
    let first = s.env.run(&["providers", "lock", "-platform=linux_amd64"]);
    assert!(first.status.success(), "{}", all_output(&first));
    let work = fs.path().join("work");
    replace_tree(&s.env.work, &work);
    (s, work)
}

fn lock_at(work: &Path) -> String {
    std::fs::read_to_string(work.join(".terraform.lock.hcl")).expect("lock")
}

#[test]
fn a_full_disk_fails_naming_the_lock_file_and_keeps_the_old_lock() {
    let Some(fs) = SmallFs::mount(512) else {
        return;
    };
    let (s, work) = scene_on(&fs);
    let old = lock_at(&work);
    fs.fill();
    let out = s.env.run_in(
        &work,
        &[
            "providers",
            "lock",
            "-platform=linux_amd64",
            "-platform=darwin_arm64",
        ],
    );
    let text = unwrapped(&all_output(&out));
    eprintln!("crash_safety: the CLI said:\n{text}");
    assert!(!out.status.success(), "{text}");
    assert!(
        text.contains(".terraform.lock.hcl"),
        "the error names the lock file: {text}"
    );
    assert!(
        text.contains("Error while writing new dependency lock information to .terraform.lock.hcl: write .terraform.lock.hcl: no space left on device."),
        "Terraform's diagnostic, with the cause: {text}"
    );
    assert_eq!(lock_at(&work), old, "the old lock is unchanged");
    assert!(
        files_under(&work).iter().all(|p| !p
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .starts_with(".tflock")),
        "no temporary file left behind: {:?}",
        files_under(&work)
    );
}

#[test]
fn a_full_disk_during_init_installs_nothing_a_later_init_trusts() {
    let Some(fs) = SmallFs::mount(512) else {
        return;
    };
    let (s, work) = scene_on(&fs);
    let old = lock_at(&work);
    fs.fill();
    let out = s.env.run_in(&work, &["init"]);
    let text = unwrapped(&all_output(&out));
    eprintln!("crash_safety: the CLI said:\n{text}");
    assert!(!out.status.success(), "{text}");
    assert!(text.contains("No space left on device"), "{text}");
    assert!(
        text.contains(&work.display().to_string()) || text.contains(".terraform"),
        "the error names the path: {text}"
    );
    assert_eq!(lock_at(&work), old, "the old lock is unchanged");
    std::fs::remove_file(fs.path().join("filler")).expect("free space");
    let out = s.env.run_in(&work, &["init"]);
    assert!(out.status.success(), "{}", all_output(&out));
    let verify = s.env.run_in(&work, &["verify"]);
    assert!(verify.status.success(), "{}", all_output(&verify));
}

#[test]
fn a_read_only_directory_fails_naming_the_lock_file_and_keeps_the_old_lock() {
    let Some(fs) = SmallFs::mount(1024) else {
        return;
    };
    let (s, work) = scene_on(&fs);
    let old = lock_at(&work);
    fs.remount("ro");
    let out = s.env.run_in(
        &work,
        &[
            "providers",
            "lock",
            "-platform=linux_amd64",
            "-platform=darwin_arm64",
        ],
    );
    let text = unwrapped(&all_output(&out));
    fs.remount("rw");
    assert!(!out.status.success(), "{text}");
    assert!(text.contains(".terraform.lock.hcl"), "{text}");
    assert!(
        text.contains("to .terraform.lock.hcl: open .terraform.lock.hcl: read-only file system."),
        "{text}"
    );
    assert_eq!(lock_at(&work), old);
}
