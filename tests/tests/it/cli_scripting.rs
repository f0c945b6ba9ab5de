//! End to end: what scripts and users rely on around the commands. `tflock version` (and
//! Terraform's `-v`/`-version`/`--version` shortcuts, `-json` in `terraform version -json`'s
//! shape), shell completions, the exit statuses (0 ok, 1 error, 2 differences found for
//! `lockfile fmt -check`, `lockfile diff -exit-code` and `lockfile coverage`), the
//! `format_version` of single JSON documents, and a closed stdout (`| head`) ending a command
//! quietly instead of with a panic and a backtrace.

use crate::e2e_common::*;
use std::process::{Command, Stdio};
use tflock_core::addrs::Platform;
use tflock_core::Flavor;
use tflock_tests::http_server::StaticServer;
use tflock_tests::tflock_bin;

/// A lock of `demo` 1.2.0 with the registry's `zh:` for `plats` only, unsorted hashes when
/// `messy` (so `lockfile fmt` would rewrite it).
fn demo_lock(
    reg: &tflock_tests::fake_registry::FakeRegistry,
    plats: &[&str],
    messy: bool,
) -> String {
    let demo = provider("demo");
    let text = lock_text(
        Flavor::Terraform,
        &[LockEntry {
            provider: &demo,
            version: "1.2.0",
            constraints: None,
            hashes: plats
                .iter()
                .map(|p| reg.expected_zh(&id(&demo, "1.2.0", p)))
                .collect(),
        }],
    );
    if messy {
        text.replace("  version = ", "  version     = ")
    } else {
        text
    }
}

fn code(env: &Env, args: &[&str]) -> (Option<i32>, String, String) {
    let out = env.run(args);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn version_prints_like_terraform_version_under_every_spelling() {
    let env = Env::new();
    env.cli_config("");
    let want = format!(
        "tflock v{}\non {}\n\n",
        env!("CARGO_PKG_VERSION"),
        Platform::current()
    );
    for spelling in [&["version"][..], &["-v"], &["-version"], &["--version"]] {
        let (status, stdout, stderr) = code(&env, spelling);
        assert_eq!(status, Some(0), "{spelling:?}: {stderr}");
        assert_eq!(stdout, want, "{spelling:?}");
    }
}

#[test]
fn version_lists_the_locks_selections_and_json_has_terraforms_shape() {
    let demo = provider("demo");
    let reg = registry(&[(&demo, "1.2.0")]);
    let env = Env::new();
    env.cli_config("");
    std::fs::write(
        env.work.join(".terraform.lock.hcl"),
        demo_lock(&reg, &["linux_amd64"], false),
    )
    .expect("write lock");
    let (status, stdout, _) = code(&env, &["version"]);
    assert_eq!(status, Some(0));
    assert!(
        stdout.ends_with(&format!("+ provider {HOST}/acme/demo v1.2.0\n\n")),
        "{stdout}"
    );
    for args in [&["version", "-json"][..], &["-v", "-json"]] {
        let (status, stdout, stderr) = code(&env, args);
        assert_eq!(status, Some(0), "{stderr}");
        let v: serde_json::Value = serde_json::from_str(&stdout).expect("one JSON document");
        assert_eq!(
            v,
            serde_json::json!({
                "format_version": "1.0",
                "tflock_version": env!("CARGO_PKG_VERSION"),
                "platform": Platform::current().to_string(),
                "provider_selections": { format!("{HOST}/acme/demo"): "1.2.0" },
                "tflock_outdated": false,
            })
        );
        assert!(
            stdout.starts_with("{\n  \"format_version\": \"1.0\","),
            "{stdout}"
        );
    }
}

#[test]
fn completions_are_printed_for_every_shell() {
    let env = Env::new();
    for shell in ["bash", "zsh", "fish", "powershell"] {
        let (status, stdout, stderr) = code(&env, &["completions", shell]);
        assert_eq!(status, Some(0), "{shell}: {stderr}");
        assert!(stdout.contains("tflock"), "{shell}");
        // Subcommands and their flags come from the clap definitions.
        assert!(
            stdout.contains("lockfile") && stdout.contains("exit-code"),
            "{shell}"
        );
    }
    let (status, _, _) = code(&env, &["completions", "cmd.exe"]);
    assert_eq!(
        status,
        Some(1),
        "a usage error is 1, never 2 (differences found)"
    );
}

#[test]
fn fmt_check_exits_2_naming_the_file_and_writes_nothing() {
    let demo = provider("demo");
    let reg = registry(&[(&demo, "1.2.0")]);
    let env = Env::new();
    let path = env.work.join(".terraform.lock.hcl");
    let canonical = demo_lock(&reg, &["linux_amd64"], false);
    std::fs::write(&path, &canonical).expect("write");
    assert_eq!(
        code(&env, &["lockfile", "fmt", "-check"]),
        (Some(0), String::new(), String::new())
    );

    let messy = demo_lock(&reg, &["linux_amd64"], true);
    std::fs::write(&path, &messy).expect("write");
    let (status, stdout, _) = code(&env, &["lockfile", "fmt", "-check"]);
    assert_eq!(status, Some(2));
    assert_eq!(stdout, ".terraform.lock.hcl\n");
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        messy,
        "-check wrote"
    );
    let (status, stdout, _) = code(&env, &["lockfile", "fmt", "--check", "other.hcl"]);
    assert_eq!(status, Some(1), "a missing file is an error: {stdout}");

    // -w then makes -check pass.
    assert_eq!(code(&env, &["lockfile", "fmt", "-w"]).0, Some(0));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), canonical);
    assert_eq!(code(&env, &["lockfile", "fmt", "-check"]).0, Some(0));
}

#[test]
fn diff_exit_code_is_2_when_the_locks_differ_and_json_is_versioned() {
    let demo = provider("demo");
    let reg = registry(&[(&demo, "1.2.0")]);
    let env = Env::new();
    std::fs::write(
        env.work.join("old.hcl"),
        demo_lock(&reg, &["linux_amd64"], false),
    )
    .unwrap();
    std::fs::write(
        env.work.join("new.hcl"),
        demo_lock(&reg, &["linux_amd64", "darwin_arm64"], false),
    )
    .unwrap();
    assert_eq!(
        code(&env, &["lockfile", "diff", "old.hcl", "new.hcl"]).0,
        Some(0)
    );
    assert_eq!(
        code(
            &env,
            &["lockfile", "diff", "-exit-code", "old.hcl", "new.hcl"]
        )
        .0,
        Some(2)
    );
    assert_eq!(
        code(
            &env,
            &["lockfile", "diff", "-exit-code", "old.hcl", "old.hcl"]
        )
        .0,
        Some(0)
    );
    assert_eq!(
        code(
            &env,
            &["lockfile", "diff", "-exit-code", "old.hcl", "absent.hcl"]
        )
        .0,
        Some(1)
    );
    let (status, stdout, _) = code(
        &env,
        &[
            "lockfile",
            "diff",
            "-json",
            "-exit-code",
            "old.hcl",
            "new.hcl",
        ],
    );
    assert_eq!(status, Some(2));
    let v: serde_json::Value = serde_json::from_str(&stdout).expect("one JSON document");
    assert_eq!(v["format_version"], "1.0");
    assert_eq!(v["providers"][0]["provider"], format!("{HOST}/acme/demo"));
}

#[test]
fn coverage_exits_2_when_a_platform_is_missing_and_1_only_on_errors() {
    let demo = provider("demo");
    let reg = registry(&[(&demo, "1.2.0")]);
    let server = StaticServer::start(registry_files(&reg, HOST));
    let env = Env::new();
    env.cli_config(&host_block(&server));
    std::fs::write(
        env.work.join(".terraform.lock.hcl"),
        demo_lock(&reg, &["linux_amd64"], false),
    )
    .unwrap();
    let (status, stdout, stderr) = code(&env, &["lockfile", "coverage", "-platform=linux_amd64"]);
    assert_eq!(status, Some(0), "{stdout}{stderr}");
    let (status, stdout, stderr) = code(
        &env,
        &[
            "lockfile",
            "coverage",
            "-platform=linux_amd64",
            "-platform=darwin_arm64",
        ],
    );
    assert_eq!(status, Some(2), "{stdout}{stderr}");
    assert!(stdout.contains("missing darwin_arm64"), "{stdout}");
}

#[test]
fn init_and_providers_lock_json_documents_carry_format_version() {
    let demo = provider("demo");
    let reg = registry(&[(&demo, "1.2.0")]);
    let server = StaticServer::start(registry_files(&reg, HOST));
    let env = Env::new();
    env.cli_config(&host_block(&server));
    env.requires(&[("demo", "1.2.0")]);
    for args in [&["init", "-json"][..], &["providers", "lock", "-json"]] {
        let out = env.run(args);
        assert!(out.status.success(), "{}", text(&out));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
        assert_eq!(v["format_version"], "1.0", "{args:?}");
    }
}

#[test]
fn merge_json_documents_carry_format_version() {
    let env = Env::new();
    env.requires(&[("demo", "1.2.0")]);
    for args in [
        &["merge", "-json", "."][..],
        &["merge", "-json", "-requirements", "."],
    ] {
        let out = env.run(args);
        assert!(out.status.success(), "{}", text(&out));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
        assert_eq!(v["format_version"], "1.0", "{args:?}");
    }
}

/// A stdout whose reading end is already closed: every write fails with EPIPE.
fn closed_stdout() -> Stdio {
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    Stdio::from(writer)
}

#[test]
fn a_closed_stdout_ends_commands_quietly() {
    let demo = provider("demo");
    let reg = registry(&[(&demo, "1.2.0")]);
    let server = StaticServer::start(registry_files(&reg, HOST));
    let env = Env::new();
    env.cli_config(&host_block(&server));
    env.requires(&[("demo", "1.2.0")]);
    let runs: [&[&str]; 5] = [
        &[
            "providers",
            "lock",
            "-json",
            "-platform=linux_amd64",
            "-platform=darwin_arm64",
        ],
        &["providers", "lock", "-platform=windows_amd64"],
        &["version"],
        &["completions", "bash"],
        &["lockfile", "fmt"],
    ];
    for args in runs {
        let out = env
            .command_in(&env.work, args)
            .stdout(closed_stdout())
            .stderr(Stdio::piped())
            .output()
            .expect("run tflock");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(
            !stderr.contains("panicked")
                && !stderr.contains("Broken pipe")
                && !stderr.contains("backtrace"),
            "{args:?}: {stderr}"
        );
    }
    // The work was done all the same.
    assert!(env
        .lock()
        .contains("provider \"registry.example.com/acme/demo\""));

    // Through a real shell pipeline, as the issue reported it.
    let script = format!(
        "{} providers lock --json -platform=linux_amd64 | head -c 600 >/dev/null",
        tflock_bin().display()
    );
    // The shell gets the environment `Env` gives tflock.
    let mut sh = Command::new("sh");
    for (k, v) in env.command_in(&env.work, &[]).get_envs() {
        match v {
            Some(v) => sh.env(k, v),
            None => sh.env_remove(k),
        };
    }
    let out = sh
        .args(["-c", &script])
        .current_dir(&env.work)
        .output()
        .expect("run sh");
    assert!(out.status.success(), "{}", text(&out));
    assert!(out.stderr.is_empty(), "{}", text(&out));
}
