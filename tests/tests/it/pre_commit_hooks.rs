//! End to end: the hooks of `.pre-commit-hooks.yaml`, run by the real `pre-commit` (PyPI,
//! installed by `tflock_tests::pre_commit`) in a generated git repository, offline, against
//! the loopback registry, with README's `.pre-commit-config.yaml` (its repository pointed at
//! a local copy). `tflock-lock` completes a lock that lacks a listed platform (the hook fails
//! once, as pre-commit does for a file it changed) and leaves a complete one alone;
//! `tflock-check` fails on a lock that is not formatted or lacks a platform.

use crate::e2e_common::*;
use std::path::Path;
use std::process::{Command, Output};
use tflock_core::Flavor;
use tflock_tests::http_server::StaticServer;
use tflock_tests::pre_commit::pre_commit;
use tflock_tests::{tflock_bin, workspace_root};

const PLATFORMS: &str = "[-platform=linux_amd64, -platform=darwin_arm64]";

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .output()
        .expect("run git");
    assert!(out.status.success(), "git {args:?}: {}", text(&out));
}

/// A git repository holding this workspace's hook definitions and scripts, as pre-commit
/// would clone from GitHub; returns its commit.
fn hook_repo(dir: &Path) -> String {
    let root = workspace_root();
    std::fs::create_dir_all(dir.join("pre-commit")).unwrap();
    std::fs::copy(
        root.join(".pre-commit-hooks.yaml"),
        dir.join(".pre-commit-hooks.yaml"),
    )
    .unwrap();
    for entry in std::fs::read_dir(root.join("pre-commit")).unwrap() {
        let entry = entry.unwrap();
        // `copy` keeps the executable bits the hooks need.
        std::fs::copy(entry.path(), dir.join("pre-commit").join(entry.file_name())).unwrap();
    }
    git(dir, &["init", "-q"]);
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "hooks"]);
    let out = Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(dir)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// `pre-commit ARGS` in the work tree, with `tflock` on PATH and `Env`'s environment.
/// README's `.pre-commit-config.yaml` (section "pre-commit"), pointed at the local hook
/// repository instead of GitHub: the test runs the configuration users copy.
fn readme_config(hooks: &Path, rev: &str) -> String {
    let readme = std::fs::read_to_string(workspace_root().join("README.md")).unwrap();
    let section = &readme[readme
        .find("\n## pre-commit\n")
        .expect("pre-commit section")..];
    let yaml = section
        .split("```yaml\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("a yaml block");
    let config: String = yaml
        .lines()
        .map(|line| match line.trim_start() {
            l if l.starts_with("- repo: ") => format!("  - repo: {}\n", hooks.display()),
            l if l.starts_with("rev: ") => format!("    rev: {rev}\n"),
            _ => format!("{line}\n"),
        })
        .collect();
    assert!(
        config.contains(&format!("args: {PLATFORMS}")),
        "README's hooks take {PLATFORMS}: {config}"
    );
    config
}

fn run(env: &Env, args: &[&str]) -> Output {
    let mut cmd = pre_commit();
    for (k, v) in env.command_in(&env.work, &[]).get_envs() {
        match v {
            Some(v) => cmd.env(k, v),
            None => cmd.env_remove(k),
        };
    }
    let bin_dir = tflock_bin().parent().unwrap().to_path_buf();
    let path = std::env::var("PATH").unwrap_or_default();
    cmd.args(args)
        .current_dir(&env.work)
        .env("PATH", format!("{}:{path}", bin_dir.display()))
        .env("PRE_COMMIT_HOME", env.home.path().join("pre-commit-cache"))
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .output()
        .expect("run pre-commit")
}

#[test]
fn lock_hook_completes_the_lock_once_and_check_hook_guards_it() {
    let demo = provider("demo");
    let reg = registry(&[(&demo, "1.2.0")]);
    let server = StaticServer::start(registry_files(&reg, HOST));
    let env = Env::new();
    env.cli_config(&host_block(&server));
    env.requires(&[("demo", "1.2.0")]);
    // A lock with linux_amd64's checksums only, as a filesystem-mirror `init` on Linux writes.
    let linux = id(&demo, "1.2.0", "linux_amd64");
    let partial = lock_text(
        Flavor::Terraform,
        &[LockEntry {
            provider: &demo,
            version: "1.2.0",
            constraints: Some("1.2.0"),
            hashes: vec![reg.expected_h1(&linux), reg.expected_zh(&linux)],
        }],
    );
    std::fs::write(env.work.join(".terraform.lock.hcl"), &partial).unwrap();

    let hooks = env.home.path().join("hooks");
    let rev = hook_repo(&hooks);
    std::fs::write(
        env.work.join(".pre-commit-config.yaml"),
        readme_config(&hooks, &rev),
    )
    .unwrap();
    git(&env.work, &["init", "-q"]);
    git(&env.work, &["add", "-A"]);
    git(&env.work, &["commit", "-q", "-m", "partial lock"]);

    // The check hook fails on the partial lock and writes nothing.
    let out = run(&env, &["run", "tflock-check", "--all-files"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("missing darwin_arm64"),
        "{}",
        text(&out)
    );
    assert_eq!(env.lock(), partial);

    // The lock hook adds darwin_arm64; pre-commit fails the run for the changed file.
    let out = run(&env, &["run", "--all-files"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("files were modified by this hook"),
        "{}",
        text(&out)
    );
    let darwin = id(&demo, "1.2.0", "darwin_arm64");
    assert!(
        env.lock().contains(&reg.expected_h1(&darwin)),
        "{}",
        env.lock()
    );
    assert!(
        env.lock().contains(&reg.expected_h1(&linux)),
        "{}",
        env.lock()
    );

    // Staged, both hooks pass and nothing is downloaded again (the hash cache knows both).
    git(&env.work, &["add", "-A"]);
    git(&env.work, &["commit", "-q", "-m", "complete lock"]);
    let complete = env.lock();
    let zips = |s: &StaticServer| s.requests().iter().filter(|r| r.ends_with(".zip")).count();
    let zips_before = zips(&server);
    let out = run(&env, &["run", "--all-files"]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(env.lock(), complete);
    assert_eq!(
        zips(&server),
        zips_before,
        "a complete lock was locked again"
    );

    // Only the lock changed (no configuration file): coverage says complete, so the lock
    // hook does not lock at all, and asks the registry no more than coverage does.
    let requests_before = server.requests().len();
    let out = run(
        &env,
        &[
            "run",
            "tflock-lock",
            "--verbose",
            "--files",
            ".terraform.lock.hcl",
        ],
    );
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        !String::from_utf8_lossy(&out.stdout).contains("tflock-lock: ."),
        "{}",
        text(&out)
    );
    assert!(server.requests()[requests_before..]
        .iter()
        .all(|r| !r.ends_with(".zip")));

    // A lock that is not in canonical form fails the check hook.
    std::fs::write(
        env.work.join(".terraform.lock.hcl"),
        complete.replace("  version     = ", "  version = "),
    )
    .unwrap();
    let out = run(
        &env,
        &["run", "tflock-check", "--files", ".terraform.lock.hcl"],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("is not formatted"),
        "{}",
        text(&out)
    );
}
