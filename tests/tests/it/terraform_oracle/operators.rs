//! HCL's operators on constants against Terraform itself: generated expressions (every
//! arithmetic, comparison and logical operator, `-` and `!`, nested and parenthesised) over
//! every kind of operand a decoder evaluates without a context (numbers, numeric and other
//! strings, bools, `null`, tuples, objects, references, function calls) in variables'
//! `default`s (with and without a `type`), `sensitive`, `nullable` and `description`, and
//! outputs' `description`. `terraform init -backend=false -json` and tflock must report the
//! same diagnostics: `Invalid operand`, `Operation failed`, what `&&` and `||` drop when they
//! short-circuit, and the conversions of the results. Numbers are exact in binary: where
//! cty's 512-bit rounding decides (`0.5 % 0.1`, `0.1 + 0.2 == 0.3`) tflock says nothing
//! (`config::load::cty_number`).

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::Rng;

use super::harness::{init_diagnostics_failures, rng};

const CASES: usize = 24;
/// Expressions per generated module.
const PER_CASE: usize = 8;

const OPERATORS: &[&str] = &[
    "+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "&&", "||",
];

fn operand(rng: &mut StdRng, depth: u32) -> String {
    if depth < 2 && rng.gen_bool(0.35) {
        let e = expression(rng, depth + 1);
        return if rng.gen_bool(0.5) {
            format!("({e})")
        } else {
            e
        };
    }
    let leaves: &[&str] = &[
        "0",
        "1",
        "2",
        "-3",
        "0.5",
        "0.25",
        "1.5e2",
        "10",
        "\"4\"",
        "\"x\"",
        "\"\"",
        "\"true\"",
        "\"1\"",
        "\"0\"",
        "true",
        "false",
        "null",
        "[]",
        "[1, 2]",
        "[null]",
        "{}",
        "{ a = 1 }",
        "{ \"a\" = \"a\" }",
        "var.x",
        "local.y",
        "upper(\"a\")",
        "\"${var.x}\"",
    ];
    (*leaves.choose(rng).expect("leaves")).to_string()
}

fn expression(rng: &mut StdRng, depth: u32) -> String {
    if rng.gen_bool(0.15) {
        let op = if rng.gen_bool(0.5) { "-" } else { "!" };
        return format!("{op}{}", operand(rng, depth));
    }
    let op = *OPERATORS.choose(rng).expect("operators");
    let lhs = operand(rng, depth);
    let mut rhs = operand(rng, depth);
    // Without spaces a name followed by `-` is one identifier in HCL: `false-1` is the
    // variable `false-1`, `true-[null]` the variable `true-` indexed by null. Before a
    // string, an object or a tuple that is no single index it makes a syntax error inside
    // the value (`null-"x"`, `x-!true`), whose recovery is the syntax suites' matter:
    // spaced there. So is `x-1.5e2` (`x-1` indexed by `5e2`), a legacy index hcl-edit
    // refuses (not modelled).
    let joins = op == "-" && lhs.ends_with(|c: char| c.is_alphanumeric() || c == '_');
    let breaks = rhs.starts_with(['"', '{', '!'])
        || (rhs.starts_with('[') && rhs != "[null]")
        || rhs.contains('e');
    let space = if (joins && breaks) || rng.gen_bool(0.7) {
        " "
    } else {
        ""
    };
    // An infinity as `%`'s left operand makes Terraform's cty panic (a Go stack trace in
    // the detail): keep divisions finite.
    if op == "/" && rhs == "0" {
        rhs = "4".to_string();
    }
    // A quotient (`1 / 10`) may be rounded, and `%` on one is not modelled.
    let op = if op == "%" && (lhs.contains('/') || rhs.contains('/')) {
        "*"
    } else {
        op
    };
    format!("{lhs}{space}{op}{space}{rhs}")
}

/// One module: variables and outputs whose constant arguments are generated expressions.
fn case(rng: &mut StdRng) -> Vec<(String, String)> {
    let mut text = String::new();
    for i in 0..PER_CASE {
        let e = expression(rng, 0);
        match rng.gen_range(0..6) {
            0 | 1 => text.push_str(&format!("variable \"v{i}\" {{\n  default = {e}\n}}\n\n")),
            2 => {
                let ty = ["number", "string", "bool", "any", "list(number)"]
                    .choose(rng)
                    .expect("types");
                text.push_str(&format!(
                    "variable \"v{i}\" {{\n  type    = {ty}\n  default = {e}\n}}\n\n"
                ));
            }
            3 => text.push_str(&format!("variable \"v{i}\" {{\n  sensitive = {e}\n}}\n\n")),
            4 => text.push_str(&format!(
                "variable \"v{i}\" {{\n  nullable = {e}\n  default  = null\n}}\n\n"
            )),
            _ => text.push_str(&format!(
                "output \"o{i}\" {{\n  value       = 1\n  description = {e}\n}}\n\n"
            )),
        }
    }
    vec![("main.tf".to_string(), text)]
}

#[test]
fn operators_on_constants_are_evaluated_as_terraform_does() {
    let (mut rng, seed) = rng("operators", 28_021);
    let cases: Vec<_> = (0..super::harness::cases(CASES))
        .map(|_| case(&mut rng))
        .collect();
    let (failures, with_diagnostics) = init_diagnostics_failures(&cases, &|_| true, seed);
    assert!(
        with_diagnostics > cases.len() / 2 || !failures.is_empty(),
        "only {with_diagnostics} of {} modules had diagnostics",
        cases.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} modules are judged differently from Terraform:\n\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
}
