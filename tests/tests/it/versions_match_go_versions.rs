//! Differential test: tflock's constraint parser, constraint semantics, version selection
//! and exact-version parser against the real apparentlymart/go-versions.
//!
//! The oracle links the Debian package, go-versions **v1.0.1**. Terraform pins v1.0.2 and
//! OpenTofu v1.0.3; the deltas (read from the go-versions history) are handled explicitly:
//! - v1.0.1 → v1.0.2 changed one line of `MeetingConstraints`: requested prereleases must
//!   also be members of the exact set. The oracle computes the v1.0.2 result with the
//!   library's public API, and we compare against that; it also reports the v1.0.1
//!   library result, and this test checks the two really differ on some generated cases
//!   (so the delta is exercised) without comparing against the old behaviour.
//! - v1.0.2 → v1.0.3 changed only the handling of `v` in the separator position (the
//!   scanner's separator became `(space | 'v')*`, plus longer `v`-prefix messages). Parsing
//!   is identical for strings without a `v`, so the OpenTofu flavour is compared on every
//!   `v`-free case and the `v` cases are covered by the reference's table vectors in
//!   `versions_tables.rs`.
//! - To check the deltas themselves, build the same oracle against an upstream release and
//!   point the test at it: `GO_VERSIONS_ORACLE=<binary> GO_VERSIONS_RELEASE=1.0.3` (or
//!   `1.0.2`) compares that release's flavour (OpenTofu / Terraform) on every case,
//!   `v` strings included (see `tests/oracles/goversions/README.md`).
//! - Numbers that overflow a uint64 make go-versions panic; we return an error instead
//!   (Terraform's first parse stage rejects such strings anyway). Cases where the oracle
//!   panicked only require an error from us.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use tflock_core::version::{select_newest, Constraints, Operator, Selection, Version};
use tflock_core::Flavor;

const GENERATED_CONSTRAINT_CASES: usize = 120_000;
const GENERATED_VERSION_CASES: usize = 20_000;

fn pick<T: Clone>(rng: &mut StdRng, items: &[T]) -> T {
    items[rng.gen_range(0..items.len())].clone()
}

fn gen_op(rng: &mut StdRng) -> &'static str {
    if rng.gen_bool(0.8) {
        pick(
            rng,
            &["", "=", "!=", ">", ">=", "<", "<=", "~>", "~>", ">=", ""],
        )
    } else {
        pick(
            rng,
            &[
                "=<", "=>", "^", "~", "!", "==", "&", "-", "+", "\u{2265}", "~>~", ",", "<>", "|",
                "é",
            ],
        )
    }
}

fn gen_sep(rng: &mut StdRng) -> &'static str {
    if rng.gen_bool(0.85) {
        pick(rng, &["", " "])
    } else {
        pick(
            rng,
            &["  ", "\t", " \t", "v", " v", "\u{a0}", "\n", "\u{b}", " v "],
        )
    }
}

fn gen_num(rng: &mut StdRng) -> String {
    match rng.gen_range(0..120) {
        0..=2 => pick(rng, &["*", "x", "X"]).to_string(),
        3 => pick(
            rng,
            &["18446744073709551615", "99999999999999999999", "007"],
        )
        .to_string(),
        _ => pick(rng, &["0", "1", "1", "2", "2", "3", "10", "0", "1", "2"]).to_string(),
    }
}

fn gen_ident(rng: &mut StdRng) -> String {
    pick(
        rng,
        &[
            "beta", "alpha", "alpha.1", "rc.1", "rc.10", "rc.9", "1", "01", "beta.2", "a-b",
            "a..b", "x",
        ],
    )
    .to_string()
}

fn gen_version_text(rng: &mut StdRng) -> String {
    let mut s = String::new();
    if rng.gen_ratio(1, 30) {
        s.push('v');
    }
    let parts = pick(rng, &[1, 2, 3, 3, 3, 2, 4, 3, 1, 5]);
    for i in 0..parts {
        if i > 0 {
            s.push('.');
        }
        s.push_str(&gen_num(rng));
    }
    if rng.gen_ratio(1, 40) {
        s.push('.');
    }
    if rng.gen_ratio(1, 5) {
        s.push('-');
        if !rng.gen_ratio(1, 15) {
            s.push_str(&gen_ident(rng));
        }
    }
    if rng.gen_ratio(1, 8) {
        s.push('+');
        if !rng.gen_ratio(1, 10) {
            s.push_str(pick(rng, &["abc", "local.1", "local.2", "x-y"]));
        }
    }
    s
}

fn gen_constraint(rng: &mut StdRng) -> String {
    if rng.gen_ratio(1, 25) {
        // Free-form noise from the alphabet the grammar uses.
        let alphabet: Vec<char> = "0123456789.,-+ <>=!~^*xXv\tab|".chars().collect();
        let len = rng.gen_range(0..12);
        return (0..len).map(|_| pick(rng, &alphabet)).collect();
    }
    let mut s = String::new();
    if rng.gen_ratio(1, 10) {
        s.push_str(pick(rng, &[" ", "\t", "  ", "\n"]));
    }
    let items = pick(rng, &[0, 1, 1, 1, 2, 2, 2, 3, 4]);
    for i in 0..items {
        if i > 0 {
            s.push_str(pick(
                rng,
                &[", ", ", ", ",", " ,", ",,", " ", "", ",\t", " , "],
            ));
        }
        s.push_str(gen_op(rng));
        s.push_str(gen_sep(rng));
        s.push_str(&gen_version_text(rng));
    }
    if rng.gen_ratio(1, 12) {
        s.push_str(pick(rng, &[",", ", ", " ", "\t", " ,"]));
    }
    s
}

/// Candidates near the constraint's boundaries plus a fixed pool, as valid version strings.
fn gen_candidates(rng: &mut StdRng, c: &str) -> Vec<String> {
    let pool = [
        "0.0.0",
        "0.0.0-beta",
        "0.0.1",
        "0.9.0",
        "1.0.0",
        "1.0.0+abc",
        "1.0.0-beta",
        "1.0.0-alpha.1",
        "1.1.0-rc1",
        "1.2.0",
        "1.2.3",
        "1.2.5",
        "1.3.0",
        "2.0.0",
        "2.0.0-rc.1",
        "10.0.0",
    ];
    let mut nums: Vec<u64> = c
        .split(|ch: char| !ch.is_ascii_digit())
        .filter_map(|n| n.parse::<u64>().ok())
        .filter(|n| *n < 100)
        .collect();
    nums.extend([0, 1, 2]);
    // The constraint's own boundaries (metadata and prerelease included) are the versions
    // most likely to expose exact-match and prerelease rules. Parsing here only chooses
    // inputs; every answer still comes from go-versions.
    let boundaries: Vec<String> = Constraints::parse(c, Flavor::Terraform)
        .map(|p| {
            p.selections
                .iter()
                .map(|s| s.boundary.constrain_to_zero().to_string())
                .collect()
        })
        .unwrap_or_default();
    let count = rng.gen_range(0..12);
    (0..count)
        .map(|_| {
            if !boundaries.is_empty() && rng.gen_ratio(1, 4) {
                return pick(rng, &boundaries);
            }
            if rng.gen_ratio(1, 3) {
                return pick(rng, &pool).to_string();
            }
            let mut n = || {
                let base = pick(rng, &nums);
                base.saturating_add_signed(pick(rng, &[0i64, 0, 0, 1, -1]))
            };
            let mut s = format!("{}.{}.{}", n(), n(), n());
            if rng.gen_ratio(1, 4) {
                s.push('-');
                s.push_str(pick(
                    rng,
                    &["beta", "alpha.1", "rc.1", "1", "beta2", "beta1"],
                ));
            }
            if rng.gen_ratio(1, 6) {
                s.push('+');
                s.push_str(pick(rng, &["abc", "local.1", "local.2"]));
            }
            s
        })
        .collect()
}

fn gen_exact_version_input(rng: &mut StdRng) -> String {
    let mut s = String::new();
    if rng.gen_ratio(1, 6) {
        s.push_str(gen_op(rng));
        s.push_str(gen_sep(rng));
    } else if rng.gen_ratio(1, 15) {
        s.push_str(pick(rng, &[" ", "\t"]));
    }
    s.push_str(&gen_version_text(rng));
    if rng.gen_ratio(1, 8) {
        s.push_str(pick(
            rng,
            &[" ", ",1", "|1", "-2", " - 2", "abc", " x", "\t"],
        ));
    }
    s
}

/// go-versions' `SelectionSpec` rendered as the oracle does: operator rune, space,
/// `VersionSpec.String()` (`*` for omitted numbers).
fn spec_dump(sel: &Selection) -> String {
    let op = match sel.op {
        Operator::Eq => '=',
        Operator::Ne => '≠',
        Operator::Gt => '>',
        Operator::Ge => '≥',
        Operator::Lt => '<',
        Operator::Le => '≤',
        Operator::PessimisticPatch => '~',
        Operator::PessimisticMinor => '^',
    };
    let n = |x: Option<u64>| x.map_or("*".to_string(), |v| v.to_string());
    let b = &sel.boundary;
    let mut s = format!("{op} {}.{}.{}", n(b.major), n(b.minor), n(b.patch));
    if !b.prerelease.is_empty() {
        s.push_str(&format!("-{}", b.prerelease));
    }
    if !b.metadata.is_empty() {
        s.push_str(&format!("+{}", b.metadata));
    }
    s
}

/// Which go-versions the oracle links: the Debian 1.0.1 by default, or an upstream build
/// named by `GO_VERSIONS_ORACLE` / `GO_VERSIONS_RELEASE`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Release {
    Debian101,
    Upstream(Flavor),
}

fn release() -> Release {
    match std::env::var("GO_VERSIONS_RELEASE").as_deref() {
        Ok("1.0.2") => Release::Upstream(Flavor::Terraform),
        Ok("1.0.3") => Release::Upstream(Flavor::OpenTofu),
        Ok(other) => panic!("GO_VERSIONS_RELEASE={other}: expected 1.0.2 or 1.0.3"),
        Err(_) => Release::Debian101,
    }
}

fn run_oracle(lines: &[String]) -> Vec<Value> {
    let bin = match release() {
        Release::Debian101 => tflock_tests::oracle("goversions"),
        Release::Upstream(_) => std::env::var_os("GO_VERSIONS_ORACLE")
            .map(std::path::PathBuf::from)
            .expect("GO_VERSIONS_ORACLE names the oracle built against that release"),
    };
    let mut child = Command::new(bin)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start goversions oracle");
    let mut stdin = child.stdin.take().expect("oracle stdin");
    let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let writer = std::thread::spawn(move || {
        stdin
            .write_all(input.as_bytes())
            .expect("write oracle input");
    });
    let out = BufReader::new(child.stdout.take().expect("oracle stdout"));
    let answers: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(&l.expect("read oracle output")).expect("oracle JSON"))
        .collect();
    writer.join().expect("writer thread");
    assert!(
        child.wait().expect("oracle exit").success(),
        "oracle failed"
    );
    assert_eq!(answers.len(), lines.len(), "oracle answered every case");
    answers
}

#[derive(Default)]
struct Tally {
    cases: usize,
    accepted: usize,
    rejected: usize,
    oracle_panics: usize,
    v101_differs: usize,
    tofu_compared: usize,
    candidates: usize,
    failures: Vec<String>,
}

impl Tally {
    fn fail(&mut self, msg: String) {
        if self.failures.len() < 40 {
            self.failures.push(msg);
        }
    }
}

fn check_constraint(t: &mut Tally, c: &str, cands: &[String], go: &Value, flavor: Flavor) {
    let ours = Constraints::parse(c, flavor);
    let label = format!("{flavor} {c:?}");
    let primary = match release() {
        Release::Debian101 => flavor == Flavor::Terraform,
        Release::Upstream(_) => true,
    };
    if go.get("panic").is_some() {
        if primary {
            t.oracle_panics += 1;
        }
        if ours.is_ok() {
            t.fail(format!(
                "{label}: go-versions panicked ({}), we accepted",
                go["panic"]
            ));
        }
        return;
    }
    let go_ok = go["ok"].as_bool().unwrap_or(false);
    match (&ours, go_ok) {
        (Err(e), false) => {
            if primary {
                t.rejected += 1;
            }
            let go_err = go["err"].as_str().unwrap_or_default();
            if e.to_string() != go_err {
                t.fail(format!(
                    "{label}: error text\n  ours: {e}\n  go:   {go_err}"
                ));
            }
        }
        (Ok(_), false) => t.fail(format!(
            "{label}: we accepted, go-versions said {}",
            go["err"]
        )),
        (Err(e), true) => t.fail(format!("{label}: we rejected ({e}), go-versions accepted")),
        (Ok(parsed), true) => {
            if primary {
                t.accepted += 1;
            }
            let ours_specs: Vec<String> = parsed.selections.iter().map(spec_dump).collect();
            let go_specs: Vec<String> = go["specs"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .map(|s| s.as_str().unwrap_or_default().to_string())
                        .collect()
                })
                .unwrap_or_default();
            if ours_specs != go_specs {
                t.fail(format!(
                    "{label}: parsed {ours_specs:?}, go-versions {go_specs:?}"
                ));
                return;
            }
            let versions: Vec<Version> = cands
                .iter()
                .map(|s| Version::parse(s).expect("generated candidates are valid"))
                .collect();
            let m = go["m"].as_array().cloned().unwrap_or_default();
            let m101 = go["m101"].as_array().cloned().unwrap_or_default();
            if m != m101 && primary {
                t.v101_differs += 1;
            }
            for (i, v) in versions.iter().enumerate() {
                let want = m.get(i).and_then(Value::as_bool).unwrap_or(false);
                if parsed.allows(v) != want {
                    t.fail(format!(
                        "{label}: allows({v}) = {}, go-versions {want}",
                        !want
                    ));
                }
            }
            if primary {
                t.candidates += versions.len();
            }
            let ours_pick =
                select_newest(parsed, &versions).map_or("none".to_string(), |v| v.to_string());
            let go_pick = go["pick"].as_str().unwrap_or_default();
            if ours_pick != go_pick {
                t.fail(format!(
                    "{label} over {cands:?}: picked {ours_pick}, go-versions {go_pick}"
                ));
            }
        }
    }
}

#[test]
fn versions_match_go_versions() {
    let mut rng = StdRng::seed_from_u64(0x7f10c4);
    let fixture = tflock_tests::fixtures("versions").join("edge_constraints/constraints.json");
    let edge: Vec<String> =
        serde_json::from_str(&std::fs::read_to_string(fixture).expect("read edge cases"))
            .expect("edge JSON");

    let mut cases: Vec<(String, Vec<String>)> = Vec::new();
    for c in &edge {
        let cands = gen_candidates(&mut rng, c);
        cases.push((c.clone(), cands));
    }
    while cases.len() < edge.len() + GENERATED_CONSTRAINT_CASES {
        let c = gen_constraint(&mut rng);
        let cands = gen_candidates(&mut rng, &c);
        cases.push((c, cands));
    }
    let exact_inputs: Vec<String> = (0..GENERATED_VERSION_CASES)
        .map(|_| gen_exact_version_input(&mut rng))
        .collect();

    let mut lines: Vec<String> = cases
        .iter()
        .map(|(c, v)| json!({"k": "c", "c": c, "v": v}).to_string())
        .collect();
    lines.extend(
        exact_inputs
            .iter()
            .map(|s| json!({"k": "v", "s": s}).to_string()),
    );
    let answers = run_oracle(&lines);

    let mut t = Tally::default();
    for ((c, cands), go) in cases.iter().zip(&answers) {
        t.cases += 1;
        match release() {
            Release::Debian101 => {
                check_constraint(&mut t, c, cands, go, Flavor::Terraform);
                if !c.contains('v') {
                    t.tofu_compared += 1;
                    check_constraint(&mut t, c, cands, go, Flavor::OpenTofu);
                }
            }
            Release::Upstream(flavor) => check_constraint(&mut t, c, cands, go, flavor),
        }
    }

    let (mut v_ok, mut v_err) = (0, 0);
    for (s, go) in exact_inputs.iter().zip(&answers[cases.len()..]) {
        let ours = match release() {
            Release::Upstream(flavor) => Version::parse_flavored(s, flavor),
            Release::Debian101 => Version::parse(s),
        };
        if go.get("panic").is_some() {
            if ours.is_ok() {
                t.fail(format!(
                    "ParseVersion {s:?}: go-versions panicked, we accepted"
                ));
            }
            continue;
        }
        match (ours, go["ok"].as_bool().unwrap_or(false)) {
            (Ok(v), true) => {
                v_ok += 1;
                if v.to_string() != go["v"].as_str().unwrap_or_default() {
                    t.fail(format!("ParseVersion {s:?}: {v} vs {}", go["v"]));
                }
            }
            (Err(e), false) => {
                v_err += 1;
                if e.to_string() != go["err"].as_str().unwrap_or_default() {
                    t.fail(format!("ParseVersion {s:?}: error {e:?} vs {}", go["err"]));
                }
            }
            (ours, _) => t.fail(format!("ParseVersion {s:?}: ours {ours:?}, go {go}")),
        }
    }

    eprintln!(
        "versions_match_go_versions: {} constraint cases ({} accepted, {} rejected with matching \
         text, {} go-versions panics), {} candidate checks, {} cases also compared as OpenTofu, \
         {} cases where go-versions 1.0.1 differs from the 1.0.2 rule; ParseVersion: {} ok, {} errors",
        t.cases, t.accepted, t.rejected, t.oracle_panics, t.candidates, t.tofu_compared,
        t.v101_differs, v_ok, v_err
    );
    assert!(
        t.failures.is_empty(),
        "{} mismatches, first ones:\n{}",
        t.failures.len(),
        t.failures.join("\n")
    );
    assert!(t.cases >= 100_000);
    assert!(
        t.accepted > 20_000 && t.rejected > 20_000,
        "generator covers both outcomes"
    );
    if release() == Release::Debian101 {
        assert!(t.v101_differs > 0, "the 1.0.1/1.0.2 delta is exercised");
    } else {
        assert_eq!(
            t.v101_differs, 0,
            "an upstream >= 1.0.2 library already applies the fix"
        );
    }
}
