//! The root module's variables files (`terraform.tfvars`, `*.auto.tfvars`, their `.json`
//! forms), which `terraform init` 1.15 reads before anything else: every fixture of
//! `tests/fixtures/config/var_files/` through `terraform init -json` and through the core
//! calls `tflock init` makes (`api::input_values`), diagnostics compared with their ranges.
//! The `dangling_*` fixtures get a `shared.auto.tfvars` link to a file that does not exist.
//! A fixture's optional `args` file holds command-line options, one a line (`-var=x=1`,
//! `-var-file=dev.tfvars`), and `env` holds `TF_VAR_` variables (`NAME=VALUE` lines, the
//! prefix left out). Both tools also say which directory each module call names (Terraform's
//! `.terraform/modules/modules.json`, tflock's loaded tree): a `const` variable's value
//! decides it.

use std::path::Path;

use tflock_core::api::input_values::{check_tree, collect, files_to_read, DirEntry};
use tflock_core::api::input_values::{VarArg, VarFile, VarFileRead};
use tflock_core::config::{load_tree, LoadOptions, ModuleTree};
use tflock_core::{Diagnostic, Flavor};

/// The diagnostics these files are about (Terraform's other init output is not compared).
fn about_values(summary: &str, file: &str) -> bool {
    file.ends_with(".tfvars")
        || file.ends_with(".tfvars.json")
        || summary.contains("variable")
        || summary == "Failed to read variables file"
        || summary.contains("module source")
        || summary.contains("-var")
        || file.starts_with("<value for")
}

/// `severity summary | file:line:col-line:col | detail`; Terraform names two undeclared
/// values picked by Go's map order, so those details are compared without the names.
fn line(severity: &str, summary: &str, at: Option<(String, [u64; 4])>, detail: &str) -> String {
    let detail = if summary == "Value for undeclared variable" {
        detail
            .split('"')
            .step_by(2)
            .collect::<Vec<_>>()
            .join("\"…\"")
    } else {
        detail.to_string()
    };
    let at = at.map_or(String::new(), |(f, [a, b, c, d])| {
        format!("{f}:{a}:{b}-{c}:{d}")
    });
    format!("{severity} {summary} | {at} | {detail}")
}

/// A fixture's command-line options and `TF_VAR_` variables.
struct Given {
    args: Vec<String>,
    env: Vec<(String, String)>,
}

impl Given {
    fn read(dir: &Path) -> Given {
        let lines = |name: &str| -> Vec<String> {
            std::fs::read_to_string(dir.join(name))
                .map(|t| t.lines().map(str::to_string).collect())
                .unwrap_or_default()
        };
        Given {
            args: lines("args"),
            env: lines("env")
                .iter()
                .filter_map(|l| l.split_once('='))
                .map(|(n, v)| (n.to_string(), v.to_string()))
                .collect(),
        }
    }
}

/// `key -> dir` for every module `terraform init` installed.
fn terraform_modules(dir: &Path) -> Vec<String> {
    let Ok(text) = std::fs::read_to_string(dir.join(".terraform/modules/modules.json")) else {
        return Vec::new();
    };
    let doc: serde_json::Value = serde_json::from_str(&text).expect("modules.json");
    let mut out: Vec<String> = doc["Modules"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|m| m["Key"] != "")
        .map(|m| {
            format!(
                "{} -> {}",
                m["Key"].as_str().unwrap_or_default(),
                m["Dir"].as_str().unwrap_or_default()
            )
        })
        .collect();
    out.sort();
    out
}

/// `key -> dir` for every module in tflock's tree.
fn tflock_modules(tree: &ModuleTree, out: &mut Vec<String>) {
    for child in &tree.children {
        out.push(format!("{} -> {}", child.key, child.dir));
        tflock_modules(child, out);
    }
}

fn terraform_lines(dir: &Path, home: &Path, given: &Given) -> (Vec<String>, Vec<String>) {
    let mut cmd = tflock_tests::terraform::terraform();
    cmd.args(["init", "-backend=false", "-json"])
        .args(&given.args)
        .current_dir(dir)
        .env("HOME", home)
        .env("TF_CLI_CONFIG_FILE", home.join("cli.tfrc"));
    for (name, value) in &given.env {
        cmd.env(format!("TF_VAR_{name}"), value);
    }
    let out = cmd.output().expect("run terraform");
    let mut seen: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["type"] == "diagnostic")
        .map(|v| v["diagnostic"].clone())
        .filter_map(|d| {
            let s = |v: &serde_json::Value| v.as_str().unwrap_or_default().to_string();
            let r = &d["range"];
            let file = s(&r["filename"]);
            if !about_values(&s(&d["summary"]), &file) {
                return None;
            }
            let n = |v: &serde_json::Value| v.as_u64().unwrap_or_default();
            let at = r.is_object().then(|| {
                (
                    file,
                    [
                        n(&r["start"]["line"]),
                        n(&r["start"]["column"]),
                        n(&r["end"]["line"]),
                        n(&r["end"]["column"]),
                    ],
                )
            });
            Some(line(
                &s(&d["severity"]),
                &s(&d["summary"]),
                at,
                &s(&d["detail"]),
            ))
        })
        .collect();
    seen.sort();
    (seen, terraform_modules(dir))
}

/// What `tflock init` reports about the values: reading them, then (when that had no
/// errors) checking them against the loaded root module.
fn tflock_lines(dir: &Path, given: &Given) -> (Vec<String>, Vec<String>) {
    let entries: Vec<DirEntry> = std::fs::read_dir(dir)
        .expect("fixture copy")
        .flatten()
        .map(|e| DirEntry {
            name: e.file_name().to_string_lossy().into_owned(),
            is_dir: e.file_type().is_ok_and(|t| t.is_dir()),
            resolves: std::fs::metadata(e.path()).is_ok(),
        })
        .collect();
    let files: Vec<VarFile> = files_to_read(&entries)
        .into_iter()
        .map(|name| VarFile {
            read: std::fs::read(dir.join(&name)).map_or(VarFileRead::Missing, VarFileRead::Bytes),
            name,
        })
        .collect();
    let args: Vec<VarArg> = given
        .args
        .iter()
        .map(|a| match a.strip_prefix("-var-file=") {
            Some(name) => VarArg::File(VarFile {
                read: std::fs::read(dir.join(name))
                    .map_or(VarFileRead::Missing, VarFileRead::Bytes),
                name: name.to_string(),
            }),
            None => VarArg::Var(
                a.strip_prefix("-var=")
                    .expect("-var= or -var-file=")
                    .to_string(),
            ),
        })
        .collect();
    let (values, mut diags) = collect(&given.env, &files, &args);
    let mut modules = Vec::new();
    if !diags.has_errors() {
        let dirs = config_dirs(dir);
        let opts = LoadOptions {
            values: values.clone(),
            ..LoadOptions::new(Flavor::Terraform)
        };
        let tree = load_tree(&dirs, "", &opts);
        diags.extend(tree.diagnostics());
        diags.extend(check_tree(&values, &tree));
        // Terraform installs nothing once the values have an error.
        if !diags.has_errors() {
            tflock_modules(&tree, &mut modules);
            modules.sort();
        }
    }
    let render = |d: &Diagnostic| {
        let severity = if d.is_error() { "error" } else { "warning" };
        // Terraform's JSON view widens an empty range by one column.
        let at = d.range.as_ref().map(|r| {
            let end_column = r.end.column + usize::from(r.start == r.end);
            (
                r.filename.clone(),
                [r.start.line, r.start.column, r.end.line, end_column].map(|n| n as u64),
            )
        });
        let file = at.as_ref().map_or("", |(f, _)| f.as_str());
        about_values(&d.summary, file).then(|| line(severity, &d.summary, at.clone(), &d.detail))
    };
    let mut seen: Vec<String> = diags.iter().filter_map(render).collect();
    seen.sort();
    (seen, modules)
}

/// Every directory below `dir` (but `.terraform`) with its files, keyed by its path
/// relative to the root.
/// The configuration under `dir` as the loader takes it: the root's `.tf` files under `""`,
/// then every subdirectory's files under its relative path.
fn config_dirs(dir: &Path) -> tflock_core::collections::SortedMap<String, Vec<(String, Vec<u8>)>> {
    let mut dirs = tflock_core::collections::SortedMap::default();
    let root: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .expect("configuration directory")
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tf"))
        .map(|e| {
            let bytes = std::fs::read(e.path()).expect("config file");
            (e.file_name().to_string_lossy().into_owned(), bytes)
        })
        .collect();
    dirs.insert(String::new(), root);
    module_dirs(dir, "", &mut dirs);
    dirs
}

fn module_dirs(
    dir: &Path,
    rel: &str,
    out: &mut tflock_core::collections::SortedMap<String, Vec<(String, Vec<u8>)>>,
) {
    for sub in std::fs::read_dir(dir).expect("fixture copy").flatten() {
        if !sub.path().is_dir() || sub.file_name() == ".terraform" {
            continue;
        }
        let name = sub.file_name().to_string_lossy().into_owned();
        let key = if rel.is_empty() {
            name
        } else {
            format!("{rel}/{name}")
        };
        let files: Vec<(String, Vec<u8>)> = std::fs::read_dir(sub.path())
            .expect("module dir")
            .flatten()
            .filter(|e| e.path().is_file())
            .map(|e| {
                let bytes = std::fs::read(e.path()).expect("module file");
                (e.file_name().to_string_lossy().into_owned(), bytes)
            })
            .collect();
        out.insert(key.clone(), files);
        module_dirs(&sub.path(), &key, out);
    }
}

/// Copies a fixture directory (files and module subdirectories).
fn copy_dir(from: &Path, to: &Path) {
    for e in std::fs::read_dir(from).expect("case").flatten() {
        let target = to.join(e.file_name());
        if e.path().is_dir() {
            std::fs::create_dir(&target).expect("mkdir");
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).expect("copy");
        }
    }
}

#[test]
fn variables_files_are_read_as_terraform_init_reads_them() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/config/var_files");
    let home = tempfile::tempdir().expect("tempdir");
    std::fs::write(home.path().join("cli.tfrc"), "").expect("cli config");
    let mut cases: Vec<_> = std::fs::read_dir(&fixtures)
        .expect("fixtures")
        .flatten()
        .map(|e| e.path())
        .collect();
    cases.sort();
    let (mut failures, mut with_diagnostics) = (Vec::new(), 0);
    for case in &cases {
        let work = tempfile::tempdir().expect("tempdir");
        copy_dir(case, work.path());
        let name = case
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        if name.starts_with("dangling_") {
            std::os::unix::fs::symlink(
                "../missing.auto.tfvars",
                work.path().join("shared.auto.tfvars"),
            )
            .expect("link");
        }
        let given = Given::read(case);
        let (want, got) = (
            terraform_lines(work.path(), home.path(), &given),
            tflock_lines(work.path(), &given),
        );
        with_diagnostics += usize::from(!want.0.is_empty() || !want.1.is_empty());
        if want != got {
            failures.push(format!(
                "{name}\n--- terraform {want:#?}\n--- tflock {got:#?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert_eq!(
        with_diagnostics,
        cases.len(),
        "every fixture trips something or installs a module"
    );
}

/// `tflock providers` with `-var` and `-var-file` in either order (and `TF_VAR_`) prints the
/// tree `terraform get` + `terraform providers` print with the same options: the CLI keeps
/// the options' order, and the later one names the module.
#[test]
fn providers_takes_var_and_var_file_in_command_line_order() {
    let home = tempfile::tempdir().expect("tempdir");
    std::fs::write(home.path().join("cli.tfrc"), "").expect("cli config");
    let work = tempfile::tempdir().expect("tempdir");
    let dir = work.path();
    std::fs::write(
        dir.join("main.tf"),
        "variable \"src\" {\n  const   = true\n  default = \"./a\"\n}\n\nmodule \"m\" {\n  source = var.src\n}\n",
    )
    .expect("main.tf");
    for (m, provider) in [("a", "aa"), ("b", "bb")] {
        std::fs::create_dir(dir.join(m)).expect("mkdir");
        std::fs::write(
            dir.join(m).join("main.tf"),
            format!("terraform {{\n  required_providers {{\n    {provider} = {{ source = \"hashicorp/{provider}\" }}\n  }}\n}}\n"),
        )
        .expect("module");
    }
    std::fs::write(dir.join("a.tfvars"), "src = \"./a\"\n").expect("a.tfvars");
    std::fs::write(dir.join("b.tfvars"), "src = \"./b\"\n").expect("b.tfvars");
    let cases: [&[&str]; 4] = [
        &["-var=src=./b", "-var-file=a.tfvars"],
        &["-var-file=a.tfvars", "-var", "src=./b"],
        &["-var-file=b.tfvars", "-var-file=a.tfvars"],
        &[],
    ];
    let mut failures = Vec::new();
    for args in cases {
        let _ = std::fs::remove_dir_all(dir.join(".terraform"));
        let run_tf = |cmd: &str| {
            tflock_tests::terraform::terraform()
                .arg(cmd)
                .args(args)
                .current_dir(dir)
                .env("HOME", home.path())
                .env("TF_CLI_CONFIG_FILE", home.path().join("cli.tfrc"))
                .env("TF_VAR_src", "./b")
                .output()
                .expect("run terraform")
        };
        let get = run_tf("get");
        assert!(get.status.success(), "{get:?}");
        let want = run_tf("providers");
        let _ = std::fs::remove_dir_all(dir.join(".terraform"));
        let got = std::process::Command::new(tflock_tests::tflock_bin())
            .arg("providers")
            .args(args)
            .current_dir(dir)
            .env("HOME", home.path())
            .env("TF_VAR_src", "./b")
            .output()
            .expect("run tflock");
        // Terraform ends the tree with one more blank line, which is not compared here.
        let (want, got) = (
            String::from_utf8_lossy(&want.stdout).trim_end().to_string(),
            String::from_utf8_lossy(&got.stdout).trim_end().to_string(),
        );
        if want != got || !want.contains("hashicorp/") {
            failures.push(format!(
                "{args:?}\n--- terraform\n{want}\n--- tflock\n{got}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// OpenTofu's module sources (`tests/fixtures/config/opentofu_static_sources/`, whose README
/// derives each `expected` from OpenTofu's source and tests): any variable and local is read,
/// with the values `-var`, `-var-file`, the variables files and `TF_VAR_` give.
#[test]
fn opentofu_reads_variables_and_locals_in_module_sources() {
    let fixtures =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/config/opentofu_static_sources");
    let mut cases: Vec<_> = std::fs::read_dir(&fixtures)
        .expect("fixtures")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    let mut failures = Vec::new();
    for case in &cases {
        let given = Given::read(case);
        let entries: Vec<DirEntry> = std::fs::read_dir(case)
            .expect("case")
            .flatten()
            .map(|e| DirEntry {
                name: e.file_name().to_string_lossy().into_owned(),
                is_dir: e.path().is_dir(),
                resolves: true,
            })
            .collect();
        let files: Vec<VarFile> = files_to_read(&entries)
            .into_iter()
            .map(|name| VarFile {
                read: VarFileRead::Bytes(std::fs::read(case.join(&name)).expect("tfvars")),
                name,
            })
            .collect();
        let args: Vec<VarArg> = given
            .args
            .iter()
            .map(|a| VarArg::Var(a.strip_prefix("-var=").expect("-var=").to_string()))
            .collect();
        let (values, diags) = collect(&given.env, &files, &args);
        assert!(diags.is_empty(), "{diags:?}");
        let dirs = config_dirs(case);
        let opts = LoadOptions {
            values,
            ..LoadOptions::new(Flavor::OpenTofu)
        };
        let tree = load_tree(&dirs, "", &opts);
        let mut got = Vec::new();
        tflock_modules(&tree, &mut got);
        got.sort();
        for d in tree.diagnostics().iter() {
            let severity = if d.is_error() { "error" } else { "warning" };
            let at = d.range.as_ref().map_or(String::new(), |r| {
                format!(
                    "{}:{}:{}-{}:{}",
                    r.filename, r.start.line, r.start.column, r.end.line, r.end.column
                )
            });
            got.push(format!("{severity} {} | {at} | {}", d.summary, d.detail));
        }
        let want: Vec<String> = std::fs::read_to_string(case.join("expected"))
            .expect("expected")
            .lines()
            .map(str::to_string)
            .collect();
        if want != got {
            failures.push(format!(
                "{}\n--- want {want:#?}\n--- got {got:#?}",
                case.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert_eq!(cases.len(), 6, "every case ran");
}
