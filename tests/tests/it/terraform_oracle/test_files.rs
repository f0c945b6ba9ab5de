//! Test files against Terraform's test-file decoder: generated `*.tftest.hcl` files built from
//! valid and invalid pieces (`test` blocks, runs with commands, plan options, modules,
//! variables, assertions, backends and `skip_cleanup`, file-level variables, providers, mock
//! providers and override blocks with targets of every kind). Every diagnostic with a source
//! range that `terraform init` gives must be tflock's, text and position alike.

use super::harness::{init_diagnostics_failures, rng};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::Rng;

const CASES: usize = 40;

const RUN_NAMES: &[&str] = &["setup", "check", "setup", "1bad", "with-dash", "x"];
const TARGETS: &[&str] = &[
    "aws_instance.a",
    "aws_instance.a[\"k\"]",
    "data.aws_ami.b",
    "data.aws_ami.b[0]",
    "module.m",
    "module.m[0]",
    "module.m.aws_instance.a",
    "module.m[1].data.aws_ami.b",
];

fn pick<'a>(rng: &mut StdRng, from: &[&'a str]) -> &'a str {
    from.choose(rng).expect("a choice")
}

/// One override block of a random kind and target (sometimes none, sometimes a bad argument).
fn override_block(rng: &mut StdRng, indent: &str) -> String {
    let kind = pick(
        rng,
        &["override_resource", "override_data", "override_module"],
    );
    let mut body = Vec::new();
    if rng.gen_bool(0.85) {
        body.push(format!("target = {}", pick(rng, TARGETS)));
    }
    match rng.gen_range(0..5) {
        0 => body.push("values = {}".into()),
        1 => body.push("outputs = {}".into()),
        2 => body.push(format!(
            "override_during = {}",
            pick(rng, &["plan", "apply", "later"])
        )),
        _ => {}
    }
    block(indent, kind, &body)
}

fn block(indent: &str, header: &str, body: &[String]) -> String {
    let mut out = format!("{indent}{header} {{\n");
    for line in body {
        for l in line.lines() {
            out.push_str(&format!("{indent}  {l}\n"));
        }
    }
    out.push_str(&format!("{indent}}}\n"));
    out
}

fn run_block(rng: &mut StdRng) -> String {
    let name = pick(rng, RUN_NAMES);
    let mut body: Vec<String> = Vec::new();
    for _ in 0..rng.gen_range(0..5) {
        let item = match rng.gen_range(0..14) {
            0 => format!(
                "command = {}",
                pick(rng, &["apply", "plan", "\"plan\"", "destroy"])
            ),
            1 => {
                let mut opts = Vec::new();
                if rng.gen_bool(0.6) {
                    opts.push(format!(
                        "mode = {}",
                        pick(rng, &["normal", "refresh-only", "destroy"])
                    ));
                }
                if rng.gen_bool(0.5) {
                    let refresh = pick(rng, &["true", "false", "true", "\"maybe\"", "[true]"]);
                    opts.push(format!("refresh = {refresh}"));
                }
                if rng.gen_bool(0.3) {
                    let refs = pick(rng, &["[var.v]", "var.v", "[1]", "[\"var.v\"]"]);
                    let name = pick(rng, &["replace", "target"]);
                    opts.push(format!("{name} = {refs}"));
                }
                if rng.gen_bool(0.2) {
                    opts.push("targets = []".into());
                }
                block("", "plan_options", &opts)
            }
            2 => {
                let mut m = Vec::new();
                match rng.gen_range(0..4) {
                    0 => m.push("source = \"./helper\"".to_string()),
                    1 => m.push("source = \"git::https://example.com/m.git\"".to_string()),
                    2 => m.push("version = \"1.0.0\"".to_string()),
                    _ => m.push("source = \"./helper\"\nsauce = 1".to_string()),
                }
                block("", "module", &m)
            }
            3 => {
                if rng.gen_bool(0.3) {
                    block("", "variables", &["nested {}".to_string()])
                } else {
                    block("", "variables", &["v = 2".to_string()])
                }
            }
            4 => {
                let mut a = vec![format!(
                    "condition = {}",
                    pick(rng, &["var.v > 0", "true", "output.o == 1"])
                )];
                if rng.gen_bool(0.8) {
                    a.push("error_message = \"bad\"".into());
                }
                block("", "assert", &a)
            }
            5 => block(
                "",
                &format!("backend {:?}", pick(rng, &["local", "remote", "s3"])),
                &[],
            ),
            6 => format!("skip_cleanup = {}", pick(rng, &["true", "false"])),
            7 => format!("state_key = {:?}", pick(rng, &["a", "b"])),
            8 => format!(
                "expect_failures = {}",
                pick(
                    rng,
                    &["[var.v]", "[var.v]", "var.v", "[1, output.o]", "[var.v[0]]"]
                )
            ),
            9 => "comand = apply".into(),
            10 => block("", "asert", &[]),
            11 => override_block(rng, ""),
            12 => "parallel = true".into(),
            _ => block("", "plan_options", &[]),
        };
        body.push(item);
    }
    let header = if rng.gen_bool(0.05) {
        format!("run {name:?} \"extra\"")
    } else {
        format!("run {name:?}")
    };
    block("", &header, &body)
}

fn top_item(rng: &mut StdRng) -> String {
    match rng.gen_range(0..12) {
        0 => block(
            "",
            "test",
            &[pick(
                rng,
                &["parallel = true", "skip_cleanup = true", "paralel = true"],
            )
            .to_string()],
        ),
        1..=4 => run_block(rng),
        5 => block(
            "",
            &format!("variable {:?}", pick(rng, &["v", "w", "w"])),
            &["default = 1".to_string()],
        ),
        6 => block(
            "",
            "variables",
            &[format!("{} = 3", pick(rng, &["v", "w", "z"]))],
        ),
        7 => {
            let mut body = Vec::new();
            if rng.gen_bool(0.5) {
                body.push(format!("alias = {:?}", pick(rng, &["west", "east"])));
            }
            let kind = pick(rng, &["provider", "mock_provider"]);
            let name = pick(rng, &["aws", "aws", "google", "AWS"]);
            if kind == "mock_provider" {
                for _ in 0..rng.gen_range(0..3) {
                    body.push(match rng.gen_range(0..4) {
                        0 => "mock_resource \"aws_instance\" {}".into(),
                        1 => "mock_data \"aws_ami\" {}".into(),
                        2 => "mock_data \"aws_ami\" {\n  default = {}\n}".into(),
                        _ => override_block(rng, ""),
                    });
                }
            }
            block("", &format!("{kind} {name:?}"), &body)
        }
        8 => override_block(rng, ""),
        9 => "thing = 1\n".into(),
        10 => block("", "rn \"x\"", &[]),
        _ => run_block(rng),
    }
}

fn case(rng: &mut StdRng) -> Vec<(String, String)> {
    let text: String = (0..rng.gen_range(1..6))
        .map(|_| top_item(rng))
        .collect::<Vec<_>>()
        .join("\n");
    vec![
        (
            "main.tf".into(),
            "variable \"v\" {\n  default = 1\n}\n\noutput \"o\" {\n  value = var.v\n}\n".into(),
        ),
        (
            "helper/main.tf".into(),
            "output \"h\" {\n  value = 1\n}\n".into(),
        ),
        ("tests/main.tftest.hcl".into(), text),
    ]
}

#[test]
fn test_files_are_decoded_as_terraform_decodes_them() {
    let (mut rng, seed) = rng("test files", 4_051);
    let cases: Vec<Vec<(String, String)>> = (0..CASES).map(|_| case(&mut rng)).collect();
    let (real, with_diagnostics) = init_diagnostics_failures(&cases, &|_| true, seed);
    assert!(
        real.is_empty(),
        "{} of {CASES} test files are decoded differently from terraform init:\n\n{}",
        real.len(),
        real.join("\n\n")
    );
    assert!(
        with_diagnostics >= CASES / 4,
        "only {with_diagnostics} of {CASES} cases gave a diagnostic (seed {seed})"
    );
}
