//! Go `fmt` templates read as configuration, against Terraform itself: provider test suites
//! keep their configurations as Go format strings (cloudflare's `testdata`: `"%[1]s"`
//! labels, `zone_id = %[2]s`, `data.x.%[1]s.id`, heredocs around `%[3]s`, `depends_on` lists
//! and objects, calls and `for` expressions around them), and real-world
//! runs read them as modules. Each case is a few files of such blocks, the placeholders
//! (`%s`, `%[n]s`, `%d`, `%t`, `%q`) in labels, values, traversal steps, heredoc bodies and
//! closing markers, tuple, object and call items, and `import` addresses; `terraform init -backend=false -json` and tflock must report the same
//! diagnostics where tflock follows hclsyntax's recovery, and only Terraform's where not
//! (see `broken_syntax::compare`). Only the built-in provider's types are used, so `init`
//! installs nothing.

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::Rng;

use crate::terraform_oracle::broken_syntax::{assert_judged_as_terraform_does, compare};
use crate::terraform_oracle::harness::{cases, rng};

const PLACEHOLDERS: &[&str] = &["%s", "%[1]s", "%[2]s", "%[3]s", "%d", "%t", "%q"];

fn placeholder(rng: &mut StdRng) -> &'static str {
    PLACEHOLDERS.choose(rng).expect("placeholders")
}

/// A block label: a placeholder (quoted, as the test data has it), or a plain name.
fn label(rng: &mut StdRng) -> String {
    match rng.gen_range(0..6) {
        0 => "\"test\"".to_string(),
        1 => format!("\"{}_{}\"", "r", placeholder(rng)),
        _ => format!("\"{}\"", placeholder(rng)),
    }
}

/// A reference with a placeholder as one of its steps (or none).
fn reference(rng: &mut StdRng) -> String {
    let head = if rng.gen_bool(0.5) {
        "data.terraform_remote_state"
    } else {
        "terraform_data"
    };
    let step = if rng.gen_bool(0.8) {
        placeholder(rng).to_string()
    } else {
        "test".to_string()
    };
    let tail = *[".id", ".output", ".result[0].id", "[0].id", "", ".*.id"]
        .choose(rng)
        .expect("tails");
    format!("{head}.{step}{tail}")
}

/// A heredoc whose body holds a placeholder; its closing marker sometimes follows one on
/// the same line (no marker then: the heredoc runs to the end of the file).
fn heredoc(rng: &mut StdRng) -> String {
    let body = format!("  {}\n", placeholder(rng));
    let marker = if rng.gen_bool(0.3) {
        format!("{}EOT", placeholder(rng))
    } else {
        "EOT".to_string()
    };
    format!("<<EOT\n{body}{marker}")
}

/// An argument's value.
fn value(rng: &mut StdRng) -> String {
    match rng.gen_range(0..19) {
        0 => format!("\"{}\"", placeholder(rng)),
        1 | 2 => placeholder(rng).to_string(),
        3 | 4 => reference(rng),
        5 => format!("[{}]", reference(rng)),
        6 => format!("\"${{{}}}\"", reference(rng)),
        7 => heredoc(rng),
        8 => format!("{} + 1", reference(rng)),
        // A placeholder inside an object, a call, a tuple of templates or a `for`
        // expression's collection (`local.l_%[1]s` reads `local.l_ % [1]`, then `s`).
        9 => {
            // An object keeps a failing item only when its value is a nameless dot.
            let item = if rng.gen_bool(0.5) {
                reference(rng)
            } else {
                format!("[\"${{{}}}\"]", reference(rng))
            };
            format!("{{\n    name = {item}\n    n    = 1\n  }}")
        }
        10 => format!("format(\"%s\", {})", reference(rng)),
        11 => format!("[\"${{{}}}\", \"b\"]", reference(rng)),
        12 => format!(
            "[for i in local.l_{} : {{\n    a = i\n  }}]",
            placeholder(rng)
        ),
        // Placeholders as the items themselves: on one line, as the test data has them.
        13 => format!("[{}]", items(rng)),
        14 => format!("{{ k = {}, n = 1 }}", item(rng)),
        15 => format!("max({})", items(rng)),
        // Constructors inside constructors, as cloudflare's test data nests its rules
        // (`include = [{ github_organization = { id = x.%[2]s.id } }]`).
        16 | 17 => {
            let depth = rng.gen_range(1..=3);
            nested(rng, depth)
        }
        _ => "\"plain\"".to_string(),
    }
}

/// One item of a tuple, object or call: a reference, a bare placeholder, a template.
fn item(rng: &mut StdRng) -> String {
    match rng.gen_range(0..6) {
        0 => placeholder(rng).to_string(),
        1 => format!("\"${{{}}}\"", reference(rng)),
        2 => "terraform_data.test".to_string(),
        _ => reference(rng),
    }
}

/// A tuple or object `depth` constructors deep around an [`item`] (or a placeholder key):
/// objects on several lines or on one, with a placeholder as a key, with an item after the
/// nested one (missing its separator, sometimes), tuples with items after the nested one.
fn nested(rng: &mut StdRng, depth: usize) -> String {
    if depth == 0 {
        return item(rng);
    }
    let inner = nested(rng, depth - 1);
    match rng.gen_range(0..7) {
        0 => format!("[{inner}]"),
        1 => format!("[{inner}, \"z\"]"),
        2 => format!("{{\n    k = {inner}\n    n = 1\n  }}"),
        3 => format!("{{ k = {inner}, n = 1 }}"),
        4 => {
            let key = if rng.gen_bool(0.5) {
                placeholder(rng).to_string()
            } else {
                format!("\"{}\"", placeholder(rng))
            };
            format!("{{\n    {key} = {inner}\n  }}")
        }
        // No comma or newline after the nested value: hclsyntax's `Missing attribute
        // separator`, or silence after an earlier error.
        5 => format!("{{ k = {inner} n = 1 }}"),
        _ => format!("{{\n    k = {inner} n = 1\n  }}"),
    }
}

/// One to three [`item`]s, comma-separated.
fn items(rng: &mut StdRng) -> String {
    let n = rng.gen_range(1..=3);
    (0..n).map(|_| item(rng)).collect::<Vec<_>>().join(", ")
}

/// A `depends_on` list: references, with a placeholder among them or not.
fn depends_on(rng: &mut StdRng) -> String {
    let items: Vec<String> = (0..rng.gen_range(1..=3))
        .map(|_| match rng.gen_range(0..6) {
            0 => "terraform_data.test".to_string(),
            1 => format!("[{}]", reference(rng)),
            2 => item(rng),
            _ => reference(rng),
        })
        .collect();
    format!("  depends_on = [{}]\n", items.join(", "))
}

fn arguments(rng: &mut StdRng, names: &[&str], indent: &str) -> String {
    let mut out = String::new();
    for name in names {
        if rng.gen_bool(0.6) {
            out.push_str(&format!("{indent}{name} = {}\n", value(rng)));
        }
    }
    out
}

/// A [`value`] Terraform decodes or reads as a reference while loading: no heredoc, as
/// one whose closing marker is missing is a known string in hclsyntax's tree, which
/// tflock does not model (it says nothing about the value). Tuples, objects, calls and
/// `for` expressions around a placeholder are kept: hclsyntax keeps the value built so
/// far, which Terraform evaluates and decodes by its own type, the [`nested`] constructors
/// too (placeholder keys, a missing separator after a nested value).
fn decoded_value(rng: &mut StdRng) -> String {
    let mut v = value(rng);
    while v.starts_with("<<") {
        v = value(rng);
    }
    v
}

/// A `moved` or `removed` block's `from`: a placeholder, a reference with one as its name
/// (the instance keys and attributes [`reference`] adds are refused by address rules not
/// this suite's), or a template around one.
fn address(rng: &mut StdRng) -> String {
    match rng.gen_range(0..4) {
        0 => placeholder(rng).to_string(),
        1 => format!("terraform_data.{}", placeholder(rng)),
        2 => format!("\"${{terraform_data.{}}}\"", placeholder(rng)),
        _ => "terraform_data.test".to_string(),
    }
}

/// [`arguments`] of [`decoded_value`]s.
fn decoded_arguments(rng: &mut StdRng, names: &[&str], indent: &str) -> String {
    let mut out = String::new();
    for name in names {
        if rng.gen_bool(0.6) {
            out.push_str(&format!("{indent}{name} = {}\n", decoded_value(rng)));
        }
    }
    out
}

/// One block of the kinds test data has, placeholders also where Terraform decodes or
/// reads the value while loading (lifecycle flags, `depends_on`, a variable's `type`,
/// `default`, `sensitive`, `nullable` and `ephemeral`, an output's `sensitive`, a
/// provider's `alias`, `moved`/`removed` addresses, `required_version`).
fn block(rng: &mut StdRng) -> String {
    match rng.gen_range(0..8) {
        0 | 1 => {
            let args = arguments(rng, &["input", "triggers_replace"], "  ");
            let nested = if rng.gen_bool(0.3) {
                format!(
                    "  lifecycle {{\n{}}}\n",
                    decoded_arguments(
                        rng,
                        &["create_before_destroy", "prevent_destroy", "ignore_changes"],
                        "    "
                    )
                )
            } else {
                String::new()
            };
            let depends = match rng.gen_range(0..5) {
                0 => depends_on(rng),
                1 => format!("  depends_on = {}\n", decoded_value(rng)),
                _ => String::new(),
            };
            format!(
                "resource \"terraform_data\" {} {{\n{args}{nested}{depends}}}\n",
                label(rng)
            )
        }
        2 => format!(
            "data \"terraform_remote_state\" {} {{\n  backend = \"local\"\n{}}}\n",
            label(rng),
            arguments(rng, &["defaults", "workspace"], "  ")
        ),
        3 if rng.gen_bool(0.3) => format!(
            "provider \"terraform\" {{\n{}}}\n",
            decoded_arguments(rng, &["alias"], "  ")
        ),
        3 => format!(
            "output {} {{\n  value = {}\n{}}}\n",
            label(rng),
            value(rng),
            decoded_arguments(rng, &["sensitive"], "  ")
        ),
        4 => format!(
            "variable {} {{\n{}}}\n",
            label(rng),
            decoded_arguments(
                rng,
                &[
                    "type",
                    "default",
                    "sensitive",
                    "nullable",
                    "ephemeral",
                    "description"
                ],
                "  "
            )
        ),
        5 => {
            let which = rng.gen_range(0..3);
            if which == 0 {
                format!(
                    "moved {{\n  from = {}\n  to   = terraform_data.test\n}}\n",
                    address(rng)
                )
            } else if which == 1 {
                // Always a placeholder: two imports of one resource is an error not modelled.
                format!(
                    "import {{\n  to = terraform_data.{}\n  id = \"x\"\n}}\n",
                    placeholder(rng)
                )
            } else {
                format!(
                    "removed {{\n  from = {}\n  lifecycle {{\n{}  }}\n}}\n",
                    address(rng),
                    decoded_arguments(rng, &["destroy"], "    ")
                )
            }
        }
        6 => format!(
            "terraform {{\n{}}}\n",
            decoded_arguments(rng, &["required_version"], "  ")
        ),
        _ => format!("locals {{\n{}}}\n", arguments(rng, &["a", "b", "c"], "  ")),
    }
}

/// One module: one to three files of one to four blocks each.
fn case(rng: &mut StdRng) -> Vec<(String, String)> {
    (0..rng.gen_range(1..=3))
        .map(|i| {
            let text: Vec<String> = (0..rng.gen_range(1..=4)).map(|_| block(rng)).collect();
            (format!("f{i}.tf"), text.join("\n"))
        })
        .collect()
}

#[test]
fn go_template_placeholders_are_reported_and_recovered_as_terraform_does() {
    let (mut rng, seed) = rng("go templates", 28_028);
    let all: Vec<_> = (0..cases(30)).map(|_| case(&mut rng)).collect();
    assert_judged_as_terraform_does(seed, &all, |files| (files.as_slice(), String::new()));
}

/// `files` give diagnostics, the same as Terraform's.
fn assert_reported_as_terraform_does(files: &[(String, String)]) {
    let home = tempfile::tempdir().expect("tempdir");
    std::fs::write(home.path().join("cli.tfrc"), "").expect("cli config");
    let (failure, some) = compare(home.path(), files);
    assert!(some, "no diagnostics");
    assert_eq!(failure, None);
}

/// A placeholder where Terraform decodes the value while loading (`gohcl` into a bool:
/// `lifecycle`'s flags): hclsyntax's placeholder is unknown, and Terraform refuses it
/// (`Unsuitable value type`, "value must be known").
#[test]
fn a_placeholder_decoded_while_loading_is_refused() {
    let files = vec![(
        "main.tf".to_string(),
        "resource \"terraform_data\" \"a\" {\n  lifecycle {\n    create_before_destroy = %t\n  }\n}\n"
            .to_string(),
    )];
    assert_reported_as_terraform_does(&files);
}

/// Values built around a placeholder where Terraform decodes them while loading: the tuple
/// hclsyntax keeps of `[%s, ...]` is no version constraint string, the one of `[x.%s]` no
/// provider alias (its placeholder's error reported again), and `list(%s)` after the first
/// error is `list` of the placeholder modulo `s`, no type.
#[test]
fn values_built_around_a_placeholder_are_decoded_as_terraform_does() {
    let files = vec![(
        "main.tf".to_string(),
        "terraform {\n  required_version = [%s, terraform_data.test]\n}\n\nprovider \"aws\" {\n  alias = [x.%s]\n}\n\nvariable \"v\" {\n  type = list(%s)\n}\n"
            .to_string(),
    )];
    assert_reported_as_terraform_does(&files);
}

/// A test file's run options built around a placeholder: `expect_failures` and
/// `plan_options`' `target` are static reference lists (the item kept of `x.%s` is no
/// reference), `refresh` is decoded into a bool.
#[test]
fn test_run_options_built_around_a_placeholder_are_decoded_as_terraform_does() {
    let files = vec![
        (
            "main.tf".to_string(),
            "resource \"terraform_data\" \"a\" {\n}\n".to_string(),
        ),
        (
            "a.tftest.hcl".to_string(),
            "run \"x\" {\n  plan_options {\n    target = [terraform_data.%s]\n  }\n}\n\nrun \"y\" {\n  expect_failures = [terraform_data.%s]\n  plan_options {\n    refresh = [x.%d]\n  }\n}\n"
                .to_string(),
        ),
    ];
    assert_reported_as_terraform_does(&files);
}
