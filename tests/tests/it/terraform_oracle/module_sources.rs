//! Module `source` addresses against Terraform's parser (`moduleaddrs.ParseModuleSource`,
//! go-getter's shorthand detectors, `tfaddr.ParseModuleSource`): random sources built from
//! forced getters, schemes, detector hosts, SSH forms, registry hosts and names, `//subdir`,
//! query arguments and hostile bytes, many module calls per directory, some with a
//! `version`. `terraform init -backend=false -json` refuses a source at parse time with a
//! diagnostic, or goes on with it: a remote package prints `Downloading <address> for
//! <call>...` (and fails for want of a network), a registry address fails at the registry,
//! a local path at its directory. tflock must refuse the same sources with the same
//! diagnostics (`tflock_core::config::load_tree`), and classify and normalise the others
//! alike (`tflock_core::config::source_addr`); `terraform providers` must refuse the same
//! calls. Local sources are left out (a `./..` would have Terraform load a real directory,
//! or the root itself in a loop): they are decided by their prefix alone.

use std::collections::BTreeMap;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::Rng;

use tflock_core::config::source_addr::{parse_source_addr, SourceAddr};

const PREFIXES: &[&str] = &[
    "",
    "",
    "",
    "git::",
    "hg::",
    "s3::",
    "gcs::",
    "http::",
    "x::",
    "GIT::",
    "https://",
    "http://",
    "git::https://",
    "git::ssh://git@",
    "ssh://",
    "file://",
    "git@github.com:",
    "git@",
    "user@host:",
    "@host:",
    "github.com/",
    "github.com/",
    "bitbucket.org/",
    "storage.googleapis.com/",
    "www.googleapis.com/storage/",
    "s3.amazonaws.com/",
    "bucket.s3.amazonaws.com/",
    "bucket.s3.eu-west-1.amazonaws.com/",
    "a.b.c.amazonaws.com/",
    "/nonexistent-s20/",
    "example.com/",
    "app.terraform.io/",
    "Example.COM/",
    "localhost:8080/",
    "127.0.0.1/",
    "github.com:443/",
    "xn--bcher-kva.example/",
    "bücher.example/",
    "a--b.example/",
    "h_st.example/",
    ":x/",
    "1a:",
    "c:/",
];

const SEGMENTS: &[&str] = &[
    "ns",
    "name",
    "aws",
    "aws",
    "AWS",
    "a-b",
    "a_b",
    "-a",
    "a-",
    "x.y",
    "repo.git",
    "..",
    ".",
    "",
    " ",
    "%",
    "%20",
    "%zz",
    "%41",
    "%C3",
    "%e2%82",
    "é",
    "a b",
    "@",
    ":",
    "::",
    "~",
    "*",
    "a:b",
    "v1.2.3",
    "0123456789012345678901234567890123456789012345678901234567890123x",
    "a\tb",
    "a\nb",
    "\u{200b}",
    "ß",
    "a;b",
    "[::1]",
    "#f",
];

const TAILS: &[&str] = &[
    "",
    "",
    "",
    "",
    "/",
    "//",
    "//sub",
    "//sub/dir",
    "//../x",
    "//a/../..",
    "?ref=v1",
    "?ref=v1&depth=1",
    "//sub?ref=v1",
    "?depth=x;y",
    "?a=%zz",
    "?",
    "#frag",
];

const REGISTRY_HOSTS: &[&str] = &[
    "",
    "",
    "",
    "app.terraform.io/",
    "Example.COM/",
    "example.com:8443/",
    "localhost/",
    "github.com/",
    "bitbucket.org/",
    "xn--bcher-kva.example/",
    "bücher.example/",
    "a..b/",
    "h_st.example/",
    "ns/",
];

const REGISTRY_NAMES: &[&str] = &[
    "hashicorp",
    "consul",
    "aws",
    "a-b",
    "a_b",
    "A1",
    "-a",
    "a_",
    "x.y",
    "",
    "é",
    "0123456789012345678901234567890123456789012345678901234567890123x",
];

const REGISTRY_SYSTEMS: &[&str] = &["aws", "google", "azurerm", "AWS", "a-b", "", "aws?ref=1"];

/// One random source string: registry-shaped a third of the time.
fn source(rng: &mut StdRng) -> String {
    if rng.gen_bool(0.35) {
        let mut s = REGISTRY_HOSTS.choose(rng).expect("hosts").to_string();
        // Mostly valid parts, so that every refusal stays one refusal among valid ones.
        let mut part = |pool: &[&str]| {
            let valid = rng.gen_bool(0.75);
            let p = if valid {
                pool[..3].choose(rng)
            } else {
                pool.choose(rng)
            };
            p.expect("pool").to_string()
        };
        let (ns, name, system) = (
            part(REGISTRY_NAMES),
            part(REGISTRY_NAMES),
            part(REGISTRY_SYSTEMS),
        );
        s.push_str(&format!("{ns}/{name}/{system}"));
        if rng.gen_bool(0.4) {
            s.push_str(TAILS.choose(rng).expect("tails"));
        }
        return s;
    }
    let mut s = PREFIXES.choose(rng).expect("prefixes").to_string();
    let n = rng.gen_range(0..=4);
    for i in 0..n {
        if i > 0 {
            s.push_str(if rng.gen_bool(0.1) { "//" } else { "/" });
        }
        s.push_str(SEGMENTS.choose(rng).expect("segments"));
    }
    s.push_str(TAILS.choose(rng).expect("tails"));
    s
}

/// What became of one call: refused (its diagnostic is compared apart), or accepted as
/// a remote package, a registry module (with its host) or a local path.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Fate {
    Refused,
    Remote(String),
    Registry(String),
    Local,
    Unknown,
}

const LINES_PER_CALL: usize = 4;

/// The root module: call `i` on lines `4i+1..=4i+4`.
fn module_text(calls: &[(String, bool)]) -> String {
    let mut text = String::new();
    for (i, (src, versioned)) in calls.iter().enumerate() {
        text.push_str(&format!(
            "module \"m{i}\" {{\n  source = \"{}\"\n",
            super::gen_config::native_lit(src)
        ));
        text.push_str(if *versioned {
            "  version = \"1.0.0\"\n"
        } else {
            "\n"
        });
        text.push_str("}\n");
    }
    text
}

fn is_refusal(summary: &str) -> bool {
    summary == "Invalid module source address"
        || summary == "Invalid registry module source address"
}

/// Terraform's refusals (as `harness::terraform_init_diagnostics` prints them) and each
/// call's fate, from one `init -json`.
fn terraform_batch(
    dir: &std::path::Path,
    home: &std::path::Path,
    n: usize,
) -> (Vec<String>, Vec<Fate>) {
    let out = super::harness::terraform_init_json(dir, home);
    let mut fates = vec![Fate::Unknown; n];
    let mut refusals = Vec::new();
    let call_of_line = |line: u64| (line as usize).saturating_sub(1) / LINES_PER_CALL;
    for v in String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
    {
        let message = v["@message"].as_str().unwrap_or_default();
        if let Some(rest) = message.strip_prefix("Downloading ") {
            if let Some((addr, call)) = rest.rsplit_once(" for m") {
                if let Some(i) = call
                    .strip_suffix("...")
                    .and_then(|c| c.parse::<usize>().ok())
                {
                    if i < n {
                        fates[i] = Fate::Remote(addr.to_string());
                    }
                }
            }
            continue;
        }
        if v["type"] != "diagnostic" {
            continue;
        }
        let d = &v["diagnostic"];
        let summary = d["summary"].as_str().unwrap_or_default();
        let detail = d["detail"].as_str().unwrap_or_default();
        let line = d["range"]["start"]["line"].as_u64();
        if is_refusal(summary) {
            let r = &d["range"];
            let num = |v: &serde_json::Value| v.as_u64().unwrap_or_default();
            refusals.push(crate::terraform_oracle::harness::ranged_line(
                d["severity"].as_str().unwrap_or_default(),
                summary,
                r["filename"].as_str().unwrap_or_default(),
                (
                    num(&r["start"]["line"]),
                    num(&r["start"]["column"]),
                    num(&r["end"]["line"]),
                    num(&r["end"]["column"]),
                ),
                detail,
            ));
            if let Some(l) = line.map(call_of_line).filter(|&i| i < n) {
                fates[l] = Fate::Refused;
            }
        } else if summary == "Unreadable module directory" {
            if let Some(i) = detail
                .split_once("for module \"m")
                .and_then(|(_, r)| r.split_once('"'))
                .and_then(|(k, _)| k.parse::<usize>().ok())
                .filter(|&i| i < n)
            {
                fates[i] = Fate::Local;
            }
        } else if let Some(i) = line.map(call_of_line).filter(|&i| i < n) {
            if detail.contains("remote module registry") || summary.contains("registry") {
                // `... for module "mN" (main.tf:L) from <host>: ...`
                let host = detail
                    .split_once(") from ")
                    .and_then(|(_, r)| r.split_once(':'))
                    .map(|(h, _)| h.to_string())
                    .unwrap_or_default();
                if !matches!(fates[i], Fate::Remote(_)) {
                    fates[i] = Fate::Registry(host);
                }
            }
        }
    }
    refusals.sort();
    (refusals, fates)
}

/// The calls `terraform providers` refuses (by the line of their diagnostic).
fn terraform_providers_refused(dir: &std::path::Path, home: &std::path::Path) -> Vec<usize> {
    let cli_config = home.join("cli.tfrc");
    let out =
        tflock_tests::terraform::run_terraform(dir, home, &cli_config, &["providers", "-no-color"]);
    let text = String::from_utf8_lossy(&out.stderr).into_owned();
    let mut refused = Vec::new();
    let mut lines = text.lines();
    while let Some(l) = lines.next() {
        let Some(summary) = l.strip_prefix("Error: ") else {
            continue;
        };
        if !is_refusal(summary) {
            continue;
        }
        let at = lines.by_ref().take(3).find_map(|l| {
            l.trim()
                .strip_prefix("on main.tf line ")
                .map(str::to_string)
        });
        if let Some(line) = at.and_then(|a| {
            a.split(|c: char| !c.is_ascii_digit())
                .next()
                .and_then(|d| d.parse::<usize>().ok())
        }) {
            refused.push((line - 1) / LINES_PER_CALL);
        }
    }
    refused.sort();
    refused
}

fn our_fate(src: &str, versioned: bool) -> Fate {
    match parse_source_addr(src, versioned) {
        Err(_) => Fate::Refused,
        // The installer's message names the package, without its sub-directory.
        Ok(SourceAddr::Remote { package, .. }) => Fate::Remote(package),
        Ok(SourceAddr::Registry(a)) => {
            // Terraform's message names the host without its port.
            let host = a.split(['/', ':']).next().unwrap_or_default();
            Fate::Registry(host.to_string())
        }
        Ok(SourceAddr::Local(_)) => Fate::Local,
    }
}

#[test]
fn module_sources_are_refused_and_classified_as_terraform_parses_them() {
    let (mut rng, seed) = crate::terraform_oracle::harness::rng("module_sources", 20);
    const BATCHES: usize = 3;
    const CALLS: usize = 40;
    let home = tempfile::tempdir().expect("tempdir");
    std::fs::write(home.path().join("cli.tfrc"), "").expect("cli config");
    let mut seen = std::collections::BTreeSet::new();
    let batches: Vec<Vec<(String, bool)>> = (0..BATCHES)
        .map(|_| {
            let mut calls = Vec::new();
            while calls.len() < CALLS {
                let src = source(&mut rng);
                // No local paths (see above), even when the parts happen to make one.
                let local = ["./", "../", ".\\", "..\\"]
                    .iter()
                    .any(|p| src.starts_with(p));
                // One call per package: Terraform downloads a package once.
                if !local && seen.insert(src.clone()) {
                    calls.push((src, rng.gen_bool(0.2)));
                }
            }
            calls
        })
        .collect();
    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    let failures = crate::terraform_oracle::harness::failures_of(&batches, |b, calls| {
        let text = module_text(calls);
        let work = tempfile::tempdir().expect("tempdir");
        std::fs::write(work.path().join("main.tf"), &text).expect("write");
        let (want, fates) = terraform_batch(work.path(), home.path(), calls.len());
        let providers_refused = terraform_providers_refused(work.path(), home.path());
        let files = vec![("main.tf".to_string(), text.clone())];
        let got =
            crate::terraform_oracle::harness::tflock_init_diagnostics(&files, &|s| is_refusal(s));
        let mut problems = Vec::new();
        for w in want.iter().filter(|w| !got.contains(w)) {
            problems.push(format!("seed {seed} batch {b}: only terraform: {w}"));
        }
        for g in got.iter().filter(|g| !want.contains(g)) {
            problems.push(format!("seed {seed} batch {b}: only tflock: {g}"));
        }
        let mut ours_refused = Vec::new();
        for (i, ((src, versioned), theirs)) in calls.iter().zip(&fates).enumerate() {
            let ours = our_fate(src, *versioned);
            if ours == Fate::Refused {
                ours_refused.push(i);
            }
            let agree = match (theirs, &ours) {
                // The registry's host is shown for display (Unicode); compare ASCII ones.
                (Fate::Registry(h), Fate::Registry(o)) => h == o || !h.is_ascii(),
                (Fate::Unknown, _) => false,
                (t, o) => t == o,
            };
            if !agree {
                problems.push(format!(
                    "seed {seed} batch {b}: m{i} source {src:?} (version: {versioned}): terraform {theirs:?}, tflock {ours:?}"
                ));
            }
        }
        if providers_refused != ours_refused {
            problems.push(format!(
                "seed {seed} batch {b}: terraform providers refuses calls {providers_refused:?}, tflock {ours_refused:?}"
            ));
        }
        problems
    });
    for calls in &batches {
        for (src, versioned) in calls {
            let k = match our_fate(src, *versioned) {
                Fate::Refused => "refused",
                Fate::Remote(_) => "remote",
                Fate::Registry(_) => "registry",
                Fate::Local => "local",
                Fate::Unknown => "unknown",
            };
            *kinds.entry(k).or_default() += 1;
        }
    }
    eprintln!("module_sources: {kinds:?}");
    assert!(
        kinds.len() >= 3,
        "the generator must reach every kind of source: {kinds:?}"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
