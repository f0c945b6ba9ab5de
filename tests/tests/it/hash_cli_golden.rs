//! `tflock hash` end to end: the sample provider zips print exactly `samples.golden`,
//! whose lines are themselves re-derived here from Go's dirhash (not from tflock).

use sha2::{Digest, Sha256};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use tflock_tests::{fixtures, oracle, tflock_bin, workspace_root};

const SAMPLES: &str = "tests/fixtures/hash/samples";

fn sample_paths() -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(workspace_root().join(SAMPLES))
        .expect("samples dir")
        .map(|e| format!("{SAMPLES}/{}", e.unwrap().file_name().to_str().unwrap()))
        .collect();
    v.sort();
    v
}

fn golden() -> String {
    std::fs::read_to_string(fixtures("hash").join("samples.golden")).expect("golden file")
}

/// Asks the Go oracle one question per line.
fn ask_go(requests: &[String]) -> Vec<String> {
    let mut child = Command::new(oracle("dirhash"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("oracle");
    let mut stdin = child.stdin.take().unwrap();
    for r in requests {
        writeln!(stdin, "{r}").unwrap();
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

fn tflock(args: &[&str]) -> std::process::Output {
    Command::new(tflock_bin())
        .args(args)
        .current_dir(workspace_root())
        .output()
        .expect("run tflock")
}

#[test]
fn golden_file_agrees_with_go() {
    let root = workspace_root();
    let work = tempfile::tempdir().unwrap();
    let mut expected = String::new();
    for (i, p) in sample_paths().iter().enumerate() {
        let full = root.join(p);
        let full = full.to_str().unwrap();
        let dest = work.path().join(i.to_string());
        let answers = ask_go(&[
            format!("unzip\t{full}\t{}", dest.to_str().unwrap()),
            format!("zip\t{full}"),
        ]);
        let zh = format!(
            "zh:{}",
            hex::encode(Sha256::digest(std::fs::read(full).unwrap()))
        );
        expected += &format!("{}  {p}\n{zh}  {p}\n", answers[0]);
        if answers[1] != answers[0] {
            expected += &format!("{}  {p}\n", answers[1]);
        }
    }
    assert_eq!(golden(), expected);
}

#[test]
fn cli_prints_the_golden_hashes_for_the_samples() {
    let paths = sample_paths();
    let args: Vec<&str> = std::iter::once("hash")
        .chain(paths.iter().map(String::as_str))
        .collect();
    let out = tflock(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8(out.stdout).unwrap(), golden());
}

#[test]
fn one_path_prints_bare_hashes_and_json_has_every_form() {
    let p = format!("{SAMPLES}/terraform-provider-layout_0.2.0_darwin_arm64.zip");
    let golden = golden();
    let want: Vec<&str> = golden
        .lines()
        .filter(|l| l.ends_with(&p))
        .map(|l| l.split("  ").next().unwrap())
        .collect();
    assert_eq!(want.len(), 3, "the layout sample has a directory entry");
    let out = tflock(&["hash", &p]);
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        want.join("\n") + "\n"
    );

    let out = tflock(&["hash", "-json", &p]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["format_version"], "1.0");
    assert_eq!(v["files"][0]["kind"], "zip");
    assert_eq!(v["files"][0]["path"], p.as_str());
    assert_eq!(v["files"][0]["h1"], want[0]);
    assert_eq!(v["files"][0]["zh"], want[1]);
    assert_eq!(v["files"][0]["h1_archive"], want[2]);
}

#[test]
fn directories_print_hashdir() {
    let work = tempfile::tempdir().unwrap();
    let full = workspace_root()
        .join(SAMPLES)
        .join("terraform-provider-acme_1.0.0_linux_amd64.zip");
    let dest = work.path().join("acme");
    let answers = ask_go(&[
        format!(
            "unzip\t{}\t{}",
            full.to_str().unwrap(),
            dest.to_str().unwrap()
        ),
        format!("dir\t{}", dest.to_str().unwrap()),
    ]);
    assert_eq!(answers[0], answers[1]);
    let out = tflock(&["hash", dest.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("{}\n", answers[1])
    );
    let out = tflock(&["hash", "--json", dest.to_str().unwrap()]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["files"][0]["kind"], "directory");
    assert_eq!(v["files"][0]["h1"], answers[1].as_str());
}

#[test]
fn bad_input_exits_1_naming_the_file() {
    let work = tempfile::tempdir().unwrap();
    let bogus = work.path().join("bogus.zip");
    std::fs::write(&bogus, b"not a zip").unwrap();
    let out = tflock(&["hash", bogus.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("bogus.zip") && err.contains("zip: not a valid zip file"),
        "{err}"
    );

    let missing = work.path().join("missing.zip");
    let out = tflock(&["hash", missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("missing.zip"));
}

#[test]
fn zips_the_stream_cannot_settle_are_hashed_by_random_access() {
    let mut e = crate::hash_common::Entry::file("stored", b"stored with a data descriptor");
    e.method = crate::hash_common::Method::Stored;
    e.descriptor = true;
    let zip = crate::hash_common::hand_zip(&[e]);
    let work = tempfile::tempdir().unwrap();
    let path = work.path().join("dd.zip");
    std::fs::write(&path, &zip).unwrap();
    let go = ask_go(&[format!("zip\t{}", path.to_str().unwrap())]);
    let out = tflock(&["hash", path.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(stdout.lines().next(), Some(go[0].as_str()));
    assert!(Path::new(&path).exists());
}
