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
fn completions_are_printed_for_every_shell_readme_shows() {
    let env = Env::new();
    // The shells of README's Install section, whose lines run these commands.
    let readme = std::fs::read_to_string(tflock_tests::workspace_root().join("README.md")).unwrap();
    let install = &readme[readme.find("\n## Install\n").expect("Install section")..];
    let install = &install[..install[3..].find("\n## ").expect("next section")];
    let shells: Vec<&str> = install
        .split("tflock completions ")
        .skip(1)
        .filter_map(|rest| rest.split_whitespace().next())
        .collect();
    assert_eq!(shells, ["bash", "zsh", "fish", "powershell"]);
    for shell in shells {
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

/// The examples of README.md's section `heading` written as ```console transcripts: each
/// `$ ` line is a command, the lines after it (up to the next `$ `) its exact stdout.
pub(crate) fn readme_console_examples(heading: &str) -> Vec<(String, String)> {
    let readme = std::fs::read_to_string(tflock_tests::workspace_root().join("README.md"))
        .expect("read README.md");
    let start = readme
        .find(&format!("\n## {heading}\n"))
        .unwrap_or_else(|| panic!("README.md has no section {heading:?}"));
    let section = &readme[start + 1..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |e| e + 3)];
    let mut examples: Vec<(String, String)> = Vec::new();
    for block in section.split("```console\n").skip(1) {
        let block = block.split("```").next().unwrap_or_default();
        for line in block.lines() {
            match line.strip_prefix("$ ") {
                Some(command) => examples.push((command.to_string(), String::new())),
                None => {
                    let (_, out) = examples.last_mut().expect("output after a command");
                    out.push_str(line);
                    out.push('\n');
                }
            }
        }
    }
    examples
}

/// Runs `script` with `sh` in `dir` with the environment `env` gives tflock, `tflock` on
/// PATH.
fn shell(env: &Env, dir: &std::path::Path, script: &str) -> std::process::Output {
    let mut sh = Command::new("sh");
    for (k, v) in env.command_in(dir, &[]).get_envs() {
        match v {
            Some(v) => sh.env(k, v),
            None => sh.env_remove(k),
        };
    }
    let bin_dir = tflock_bin().parent().expect("bin dir").to_path_buf();
    let path = std::env::var("PATH").unwrap_or_default();
    sh.args(["-c", script])
        .current_dir(dir)
        .env("PATH", format!("{}:{path}", bin_dir.display()))
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .output()
        .expect("run sh")
}

#[test]
fn readme_scripting_examples_print_what_the_readme_shows() {
    let examples = readme_console_examples("Scripting");
    assert!(examples.len() >= 6, "{examples:?}");
    assert!(
        Command::new("jq").arg("--version").output().is_ok(),
        "the README's examples need jq (`cargo xtask setup` installs it)"
    );
    // The repository the README describes: a committed lock covering linux_amd64, and two
    // more root modules under envs/.
    let demo = provider("demo");
    let reg = registry(&[(&demo, "1.2.0")]);
    let server = StaticServer::start(registry_files(&reg, HOST));
    let env = Env::new();
    env.cli_config(&host_block(&server));
    env.requires(&[("demo", "1.2.0")]);
    for root in ["envs/dev", "envs/prod"] {
        std::fs::create_dir_all(env.work.join(root)).unwrap();
        std::fs::copy(
            env.work.join("main.tf"),
            env.work.join(root).join("main.tf"),
        )
        .unwrap();
    }
    std::fs::write(
        env.work.join(".terraform.lock.hcl"),
        demo_lock(&reg, &["linux_amd64"], false),
    )
    .unwrap();
    let setup = shell(
        &env,
        &env.work,
        "git init -q && git add -A && git commit -q -m lock",
    );
    assert!(setup.status.success(), "{}", text(&setup));
    for (command, want) in &examples {
        let out = shell(&env, &env.work, command);
        assert!(out.status.success(), "{command}\n{}", text(&out));
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            *want,
            "{command}\n{}",
            text(&out)
        );
    }
}

/// Asserts `out` is one pretty JSON object with `"format_version": "1.0"` first; returns it.
fn one_document(args: &[&str], out: &std::process::Output) -> serde_json::Value {
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", text(out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.starts_with("{\n  \"format_version\": \"1.0\",\n") && stdout.ends_with("}\n"),
        "{args:?}: {stdout}"
    );
    let v: serde_json::Value = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("{args:?}: not one JSON document: {e}\n{stdout}"));
    assert!(v.is_object(), "{args:?}");
    v
}

#[test]
fn every_json_output_is_one_object_with_format_version_first() {
    let demo = provider("demo");
    let reg = registry(&[(&demo, "1.2.0")]);
    let server = StaticServer::start(registry_files(&reg, HOST));
    let env = Env::new();
    env.cli_config(&host_block(&server));
    env.requires(&[("demo", "1.2.0")]);
    let installed = env.installed_dir(&demo, "1.2.0").display().to_string();
    let mirror = env.home.path().join("mirror").display().to_string();
    // In this order: `init` installs what `hash` and `verify` read.
    let runs: Vec<(Vec<&str>, &str)> = vec![
        (vec!["init", "-json"], "providers"),
        (vec!["version", "-json"], "provider_selections"),
        (
            vec!["providers", "lock", "-json", "-platform=linux_amd64"],
            "providers",
        ),
        (
            vec![
                "providers",
                "mirror",
                "-json",
                "-platform=linux_amd64",
                &mirror,
            ],
            "providers",
        ),
        (vec!["hash", "-json", &installed], "files"),
        (vec!["verify", "-json"], "checks"),
        (
            vec!["lockfile", "coverage", "-json", "-platform=linux_amd64"],
            "providers",
        ),
        (
            vec![
                "lockfile",
                "diff",
                "-json",
                ".terraform.lock.hcl",
                ".terraform.lock.hcl",
            ],
            "providers",
        ),
        (vec!["merge", "-json", "."], "merged"),
        (vec!["merge", "-json", "-requirements", "."], "providers"),
    ];
    for (args, member) in &runs {
        let v = one_document(args, &env.run(args));
        assert!(v.get(*member).is_some(), "{args:?}: no {member}: {v}");
    }
    let v = one_document(&["verify"], &env.run(&["verify", "-json"]));
    assert_eq!(v["platform"], Platform::current().to_string());
    assert_eq!(v["checks"][0]["status"], "ok", "{v}");
}

#[test]
fn mirror_json_says_what_was_downloaded_and_skipped_with_the_hashes() {
    let demo = provider("demo");
    let reg = registry(&[(&demo, "1.2.0")]);
    let server = StaticServer::start(registry_files(&reg, HOST));
    let env = Env::new();
    env.cli_config(&host_block(&server));
    env.requires(&[("demo", "1.2.0")]);
    let target = env.home.path().join("mirror").display().to_string();
    let args = [
        "providers",
        "mirror",
        "-json",
        "-platform=linux_amd64",
        "-platform=darwin_arm64",
        &target,
    ];
    let package = |platform: &str, status: &str| {
        let pid = id(&demo, "1.2.0", platform);
        serde_json::json!({
            "platform": platform,
            "file": format!(
                "{HOST}/acme/demo/{}",
                tflock_tests::fake_registry::FakeRegistry::filename(&pid)
            ),
            "status": status,
            "hashes": [reg.expected_h1(&pid), reg.expected_zh(&pid)],
        })
    };
    let document = |downloaded: usize, skipped: usize, status: &str| {
        serde_json::json!({
            "format_version": "1.0",
            "target": target,
            "platforms": ["linux_amd64", "darwin_arm64"],
            "downloaded": downloaded,
            "skipped": skipped,
            "copied": 0,
            "providers": [{
                "provider": format!("{HOST}/acme/demo"),
                "version": "1.2.0",
                "platforms": [package("darwin_arm64", status), package("linux_amd64", status)],
            }],
        })
    };
    assert_eq!(
        one_document(&args, &env.run(&args)),
        document(2, 0, "downloaded")
    );
    // Again over the unchanged mirror: nothing is downloaded, both packages are skipped.
    assert_eq!(
        one_document(&args, &env.run(&args)),
        document(0, 2, "skipped")
    );

    // A provider that cannot be installed: exit 1, and the planner's document says why.
    env.requires(&[("demo", "9.9.9")]);
    let out = env.run(&args);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
    assert_eq!(v["format_version"], "1.0");
    assert_eq!(v["diagnostics"][0]["severity"], "error", "{v}");
}

/// The lines of an NDJSON stdout, each checked to be one compact object in Terraform's
/// streaming shape.
fn ndjson(out: &std::process::Output) -> Vec<serde_json::Value> {
    let stdout = String::from_utf8_lossy(&out.stdout);
    stdout
        .lines()
        .map(|line| {
            assert!(line.starts_with("{\"@level\":\""), "{line}");
            let v: serde_json::Value = serde_json::from_str(line).expect("one object per line");
            let keys: Vec<&String> = v.as_object().expect("object").keys().collect();
            assert_eq!(
                keys[..4],
                ["@level", "@message", "@module", "@timestamp"],
                "{line}"
            );
            assert_eq!(v["@module"], "tflock.ui");
            let stamp = v["@timestamp"].as_str().expect("timestamp");
            // hclog's form: 2026-11-25T21:54:36.960409Z.
            assert!(
                stamp.len() == 27 && stamp.ends_with('Z') && stamp.as_bytes()[19] == b'.',
                "{stamp}"
            );
            v
        })
        .collect()
}

#[test]
fn providers_lock_json_over_several_roots_streams_one_line_per_root() {
    let demo = provider("demo");
    let reg = registry(&[(&demo, "1.2.0")]);
    let server = StaticServer::start(registry_files(&reg, HOST));
    let env = Env::new();
    env.cli_config(&host_block(&server));
    env.requires(&[("demo", "1.2.0")]);
    for root in ["a", "b", "broken"] {
        std::fs::create_dir_all(env.work.join(root)).unwrap();
        std::fs::copy(
            env.work.join("main.tf"),
            env.work.join(root).join("main.tf"),
        )
        .unwrap();
    }
    std::fs::write(env.work.join("broken/main.tf"), "terraform {\n").unwrap();

    let out = env.run(&[
        "providers",
        "lock",
        "-json",
        "-platform=linux_amd64",
        "a",
        "b",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let lines = ndjson(&out);
    assert_eq!(lines.len(), 3, "{}", text(&out));
    assert_eq!(lines[0]["type"], "version");
    assert_eq!(lines[0]["tflock"], env!("CARGO_PKG_VERSION"));
    assert_eq!(lines[0]["ui"], "1.0");
    assert_eq!(
        lines[0]["@message"],
        format!("tflock {}", env!("CARGO_PKG_VERSION"))
    );
    for (line, root) in lines[1..].iter().zip(["a", "b"]) {
        assert_eq!(line["type"], "lock_result");
        assert_eq!(line["@level"], "info");
        assert_eq!(line["root"], root);
        assert_eq!(line["success"], true);
        let lock = std::fs::read_to_string(env.work.join(root).join(".terraform.lock.hcl"))
            .expect("lock written");
        assert_eq!(line["lock"]["lock_text"], lock);
        assert!(line["lock"].get("format_version").is_none());
    }

    // A module that fails is an error line, and the exit status is 1.
    let out = env.run(&[
        "providers",
        "lock",
        "-json",
        "-platform=linux_amd64",
        "broken",
        "a",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let lines = ndjson(&out);
    assert_eq!(lines.len(), 3, "{}", text(&out));
    assert_eq!(lines[1]["@level"], "error");
    assert_eq!(lines[1]["root"], "broken");
    assert_eq!(lines[1]["success"], false);
    assert_eq!(lines[1]["lock"], serde_json::Value::Null);
    assert_eq!(lines[2]["success"], true);
    // Its diagnostics are on stderr, as in every mode.
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("Error: "),
        "{}",
        text(&out)
    );

    // One root module is one document.
    let args = ["providers", "lock", "-json", "-platform=linux_amd64", "a"];
    one_document(&args, &env.run(&args));
}

/// The commands of `tflock [PATH] --help`'s "Commands:" list (without `help`).
fn subcommands(env: &Env, path: &[&str]) -> Vec<String> {
    let mut args = path.to_vec();
    args.push("--help");
    let help = String::from_utf8_lossy(&env.run(&args).stdout).into_owned();
    let Some(list) = help.split("Commands:\n").nth(1) else {
        return Vec::new();
    };
    list.lines()
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}

#[test]
fn the_readme_lists_every_command_with_json_and_help_shows_the_exit_statuses_and_json_rules() {
    let env = Env::new();
    env.cli_config("");
    // Every command and subcommand, from the help texts.
    let mut commands: Vec<Vec<String>> = Vec::new();
    let mut todo: Vec<Vec<String>> = vec![Vec::new()];
    while let Some(path) = todo.pop() {
        let refs: Vec<&str> = path.iter().map(String::as_str).collect();
        for name in subcommands(&env, &refs) {
            let mut child = path.clone();
            child.push(name);
            todo.push(child.clone());
            commands.push(child);
        }
    }
    assert!(commands.len() >= 12, "{commands:?}");
    let mut with_json: Vec<String> = commands
        .iter()
        .filter(|path| {
            let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
            args.push("--help");
            String::from_utf8_lossy(&env.run(&args).stdout).contains("--json")
        })
        .map(|path| path.join(" "))
        .collect();
    with_json.sort();
    let readme = std::fs::read_to_string(tflock_tests::workspace_root().join("README.md")).unwrap();
    let scripting = &readme[readme.find("\n## Scripting\n").expect("Scripting section")..];
    let mut listed: Vec<String> = scripting
        .lines()
        .filter_map(|l| l.strip_prefix("| `tflock "))
        .filter_map(|l| l.split('`').next())
        .map(str::to_string)
        .collect();
    listed.sort();
    assert_eq!(listed, with_json, "README's -json table against --help");

    // The "differences found" commands: the same three in README's table and `--help`.
    let two = scripting
        .lines()
        .find(|l| l.starts_with("| 2 |"))
        .expect("README lists status 2");
    let help = String::from_utf8_lossy(&env.run(&["--help"]).stdout).replace('\n', " ");
    assert!(
        help.contains("Exit status: 0 success; 1 error; 2 differences found"),
        "{help}"
    );
    assert!(
        help.contains("-json prints one JSON object, \"format_version\" first")
            && help.contains("several root modules prints NDJSON"),
        "{help}"
    );
    for check in [
        "lockfile diff -exit-code",
        "lockfile fmt -check",
        "lockfile coverage",
    ] {
        assert!(two.contains(&format!("`{check}`")), "README: {check}");
        assert!(help.contains(&format!("`{check}`")), "--help: {check}");
    }
}
