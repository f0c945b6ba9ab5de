//! Suite 1, lock behaviour: `init` (fresh, with a lock, `-upgrade`, `-lockfile=readonly`,
//! pinned older versions, foreign and wrong hashes, prereleases) and `providers lock`
//! (several platforms, adding a platform) against the signed loopback registry. Both tools
//! must agree on success, write byte-identical lock files and install identical files.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Output;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::Rng;
use tflock_core::addrs::Provider;
use tflock_tests::fake_registry::FakeRegistry;
use tflock_tests::http_server::StaticServer;
use tflock_tests::terraform::run_terraform;

use crate::e2e_common::{self as common, copy_tree, id, platforms, provider, Env};
use crate::terraform_oracle::harness::{failures_of, rng, tree};

const NAMES: &[&str] = &["alpha", "beta", "gamma"];
const VERSIONS: &[&str] = &["1.0.0", "1.1.0", "1.2.0-beta1", "2.0.0", "2.1.0"];
const CONSTRAINTS: &[&str] = &[
    "",
    "~> 1.0",
    ">= 1.1.0",
    "1.0.0",
    "= 2.0.0",
    "< 2.0.0",
    "1.2.0-beta1",
    ">= 1.0.0, != 2.1.0",
    "~> 2.0",
    "~> 1.1.0",
    "> 1.0, < 2.1",
    "> 3.0",
];

/// What a prior lock entry holds for one provider.
#[derive(Debug, Clone, Copy)]
enum Prior {
    /// No entry.
    Absent,
    /// The version with the hashes Terraform would have recorded for it.
    Complete,
    /// The version with only this machine's `h1:`.
    OnlyH1,
    /// Complete plus a hash of no package at all.
    Foreign,
    /// Only hashes of no package.
    Wrong,
}

/// One generated case.
#[derive(Debug)]
struct Case {
    /// `(name, constraint, prior entry, prior version)`.
    providers: Vec<(&'static str, &'static str, Prior, &'static str)>,
    /// The recorded constraints differ from the configuration's.
    stale_constraints: bool,
    /// CLI arguments (the same for both tools).
    args: Vec<String>,
}

/// Case `n`: the command cycles through every kind (so each appears in any run of six or
/// more cases); providers, constraints and prior lock entries are random.
fn generate(rng: &mut StdRng, n: usize) -> Case {
    let count = rng.gen_range(1..=NAMES.len());
    let mut names: Vec<&str> = NAMES.to_vec();
    names.truncate(count);
    let providers = names
        .into_iter()
        .map(|name| {
            let constraint = *CONSTRAINTS.choose(rng).expect("constraints");
            let prior = *[
                Prior::Absent,
                Prior::Complete,
                Prior::Complete,
                Prior::OnlyH1,
                Prior::Foreign,
                Prior::Wrong,
            ]
            .choose(rng)
            .expect("priors");
            let version = *VERSIONS.choose(rng).expect("versions");
            (name, constraint, prior, version)
        })
        .collect();
    let plats = platforms();
    let args: Vec<String> = match n % 6 {
        0 | 1 => vec!["init".into()],
        2 => vec!["init".into(), "-upgrade".into()],
        3 => vec!["init".into(), "-lockfile=readonly".into()],
        _ => {
            let mut a = vec!["providers".to_string(), "lock".to_string()];
            let n = rng.gen_range(0..=plats.len());
            for p in plats.choose_multiple(rng, n) {
                a.push(format!("-platform={p}"));
            }
            a
        }
    };
    Case {
        providers,
        stale_constraints: rng.gen_bool(0.2),
        args,
    }
}

fn main_tf(case: &Case) -> String {
    let mut out = String::from("terraform {\n  required_providers {\n");
    for (name, constraint, _, _) in &case.providers {
        let _ = writeln!(
            out,
            "    {name} = {{\n      source = \"{}/acme/{name}\"",
            common::HOST
        );
        if !constraint.is_empty() {
            let _ = writeln!(out, "      version = \"{constraint}\"");
        }
        out.push_str("    }\n");
    }
    out.push_str("  }\n}\n");
    out
}

/// The prior lock file, built from the registry's independently computed hashes.
fn prior_lock(case: &Case, registry: &FakeRegistry) -> Option<String> {
    let here = tflock_core::addrs::Platform::current().to_string();
    let mut entries = Vec::new();
    let provs: Vec<(Provider, &Case, usize)> = case
        .providers
        .iter()
        .enumerate()
        .map(|(i, (name, ..))| (provider(name), case, i))
        .collect();
    for (p, case, i) in &provs {
        let (_, constraint, prior, version) = case.providers[*i];
        let all_zh = || -> Vec<String> {
            platforms()
                .iter()
                .map(|plat| registry.expected_zh(&id(p, version, plat)))
                .collect()
        };
        let h1 = registry.expected_h1(&id(p, version, &here));
        let hashes = match prior {
            Prior::Absent => continue,
            Prior::Complete => [vec![h1], all_zh()].concat(),
            Prior::OnlyH1 => vec![h1],
            Prior::Foreign => [vec![h1, format!("zh:{}", "ab".repeat(32))], all_zh()].concat(),
            Prior::Wrong => vec![
                format!("h1:{}", "A".repeat(43) + "="),
                format!("zh:{}", "cd".repeat(32)),
            ],
        };
        entries.push((p.clone(), version, constraint, hashes));
    }
    if entries.is_empty() {
        return None;
    }
    let entries: Vec<common::LockEntry<'_>> = entries
        .iter()
        .map(|(p, version, constraint, hashes)| common::LockEntry {
            provider: p,
            version,
            constraints: match (constraint.is_empty(), case.stale_constraints) {
                (_, true) => Some(">= 0.1.0"),
                (true, false) => None,
                (false, false) => Some(constraint),
            },
            hashes: hashes.clone(),
        })
        .collect();
    Some(common::lock_text(tflock_core::Flavor::Terraform, &entries))
}

fn describe(case: &Case, seed: u64, n: usize, lock: &Option<String>) -> String {
    format!(
        "seed {seed}, case {n}: args {:?}\n--- main.tf\n{}--- prior lock\n{}",
        case.args,
        main_tf(case),
        lock.as_deref().unwrap_or("(none)\n")
    )
}

fn outputs(label: &str, o: &Output) -> String {
    format!("--- {label}: {}", common::text(o))
}

/// Runs one case with both tools; `Err` describes the disagreement.
fn run_case(
    server: &StaticServer,
    registry: &FakeRegistry,
    case: &Case,
    what: &str,
) -> Result<(), String> {
    let tf = Env::new();
    tf.cli_config(&common::host_block(server));
    std::fs::write(tf.work.join("main.tf"), main_tf(case)).expect("main.tf");
    if let Some(lock) = prior_lock(case, registry) {
        std::fs::write(tf.work.join(".terraform.lock.hcl"), lock).expect("lock");
    }
    let ours = Env::new();
    ours.cli_config(&common::host_block(server));
    copy_tree(&tf.work, &ours.work);

    let args: Vec<&str> = case.args.iter().map(String::as_str).collect();
    let tf_out = run_terraform(
        &tf.work,
        tf.home.path(),
        &tf.home.path().join("cli.tfrc"),
        &args,
    );
    let our_out = ours.run(&args);
    let both = || {
        format!(
            "{what}{}{}",
            outputs("terraform", &tf_out),
            outputs("tflock", &our_out)
        )
    };
    if tf_out.status.success() != our_out.status.success() {
        return Err(format!("exit status differs\n{}", both()));
    }
    if tf.lock() != ours.lock() {
        return Err(format!(
            "lock files differ\n--- terraform lock\n{}--- tflock lock\n{}{}",
            tf.lock(),
            ours.lock(),
            both()
        ));
    }
    let installed = |dir: &Path| tree(&dir.join(".terraform/providers"));
    if installed(&tf.work) != installed(&ours.work) {
        let names = |dir: &Path| installed(dir).into_keys().collect::<Vec<_>>();
        return Err(format!(
            "installed files differ: terraform {:?}, tflock {:?}\n{}",
            names(&tf.work),
            names(&ours.work),
            both()
        ));
    }
    Ok(())
}

fn registry() -> FakeRegistry {
    let provs: Vec<Provider> = NAMES.iter().map(|n| provider(n)).collect();
    let releases: Vec<(&Provider, &str)> = provs
        .iter()
        .flat_map(|p| VERSIONS.iter().map(move |v| (p, *v)))
        .collect();
    common::registry(&releases)
}

#[test]
fn lock_behaviour_matches_terraform_on_generated_cases() {
    let registry = registry();
    let server = StaticServer::start(common::registry_files(&registry, common::HOST));
    let (mut rng, seed) = rng("lock behaviour", 16_001);
    let cases: Vec<Case> = (0..40).map(|n| generate(&mut rng, n)).collect();
    let failures = failures_of(&cases, |n, case| {
        let what = describe(case, seed, n, &prior_lock(case, &registry));
        run_case(&server, &registry, case, &what)
            .err()
            .into_iter()
            .collect()
    });
    assert!(
        failures.is_empty(),
        "{} of {} cases differ from Terraform:\n\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
}

/// `<version>.json` with only what Terraform writes: each archive's `url` and its `h1:`
/// hashes (tflock may add `zh:`).
fn comparable(rel: &str, bytes: &[u8]) -> Vec<u8> {
    if !rel.ends_with(".json") || rel.ends_with("index.json") {
        return bytes.to_vec();
    }
    let mut v: serde_json::Value = serde_json::from_slice(bytes).expect("version JSON");
    if let Some(archives) = v["archives"].as_object_mut() {
        for a in archives.values_mut() {
            if let Some(hashes) = a["hashes"].as_array_mut() {
                hashes.retain(|h| h.as_str().is_some_and(|h| h.starts_with("h1:")));
            }
        }
    }
    serde_json::to_vec_pretty(&v).expect("json")
}

#[test]
fn providers_mirror_writes_what_terraform_writes() {
    let registry = registry();
    let server = StaticServer::start(common::registry_files(&registry, common::HOST));
    let (mut rng, seed) = rng("providers mirror", 16_006);
    let plats = platforms();
    for n in 0..6 {
        let mut case = generate(&mut rng, n);
        case.providers.retain(|p| p.1 != "> 3.0");
        for p in &mut case.providers {
            p.2 = Prior::Absent;
        }
        let k = rng.gen_range(1..=plats.len());
        let chosen: Vec<&String> = plats.choose_multiple(&mut rng, k).collect();
        let mut args = vec!["providers".to_string(), "mirror".to_string()];
        args.extend(chosen.iter().map(|p| format!("-platform={p}")));
        args.push("out".into());
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let tf = Env::new();
        tf.cli_config(&common::host_block(&server));
        std::fs::write(tf.work.join("main.tf"), main_tf(&case)).expect("main.tf");
        let ours = Env::new();
        ours.cli_config(&common::host_block(&server));
        copy_tree(&tf.work, &ours.work);
        let tf_out = run_terraform(
            &tf.work,
            tf.home.path(),
            &tf.home.path().join("cli.tfrc"),
            &args,
        );
        let our_out = ours.run(&args);
        let files = |dir: &Path| -> Vec<(String, Vec<u8>)> {
            tree(&dir.join("out"))
                .into_iter()
                .map(|(rel, bytes)| {
                    let c = comparable(&rel, &bytes);
                    (rel, c)
                })
                .collect()
        };
        let what = format!("seed {seed}, case {n}: {args:?}\n{}", main_tf(&case));
        assert_eq!(
            tf_out.status.success(),
            our_out.status.success(),
            "{what}{}{}",
            outputs("terraform", &tf_out),
            outputs("tflock", &our_out)
        );
        let (a, b) = (files(&tf.work), files(&ours.work));
        let names = |f: &[(String, Vec<u8>)]| f.iter().map(|x| x.0.clone()).collect::<Vec<_>>();
        assert_eq!(names(&a), names(&b), "{what}");
        for ((name, x), (_, y)) in a.iter().zip(&b) {
            assert!(
                x == y,
                "{what}{name} differs:\n--- terraform\n{}\n--- tflock\n{}",
                String::from_utf8_lossy(x),
                String::from_utf8_lossy(y)
            );
        }
    }
}
