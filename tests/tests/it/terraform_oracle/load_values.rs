//! Argument values Terraform's decoders refuse while loading a module, below the block
//! schema: variable `type` expressions (valid, quoted, misspelt, misused `optional`, wrong
//! argument counts), `default`s made from the type with at most one thing wrong (a value
//! of another kind, a missing attribute, an extra element, a string that is not a number
//! or bool), `nullable = false` with a null default, `const` beside `sensitive` or
//! `ephemeral`, output `type`s, the constant bools and strings of variables, outputs and
//! lifecycles (references, calls, nulls, collections, strings that are almost bools), and
//! the static references of `depends_on`, `ignore_changes`, `replace_triggered_by`,
//! `moved` and `removed`. Every such
//! diagnostic `terraform init` gives must be tflock's, text and position alike.
//!
//! Native syntax only: tflock checks none of these values in JSON files but
//! `replace_triggered_by` (a config fixture), nor quoted texts that do not parse as
//! references.

use super::harness::{init_diagnostics_failures, rng};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::Rng;
use std::fmt::Write as _;

const CASES: usize = 40;

/// A type to write and, when it is valid, its shape (for making defaults).
#[derive(Clone)]
enum Shape {
    Any,
    String,
    Number,
    Bool,
    List(Box<Shape>),
    Set(Box<Shape>),
    Map(Box<Shape>),
    Tuple(Vec<Shape>),
    /// name, type, optional
    Object(Vec<(String, Shape, bool)>),
}

/// A type; `in_collection` when it is (within) a collection's element type, where `any`
/// below the element itself is left out: cty then unifies the converted elements' types,
/// which tflock does not model (it says nothing there).
fn shape(rng: &mut StdRng, depth: usize, in_collection: bool) -> Shape {
    let leaf = [Shape::String, Shape::Number, Shape::Bool, Shape::Any];
    if depth >= 2 || rng.gen_bool(0.45) {
        let n = if in_collection { 3 } else { 4 };
        return leaf[rng.gen_range(0..n)].clone();
    }
    let element = |rng: &mut StdRng| {
        if !in_collection && rng.gen_bool(0.2) {
            Shape::Any
        } else {
            shape(rng, depth + 1, true)
        }
    };
    match rng.gen_range(0..5) {
        0 => Shape::List(Box::new(element(rng))),
        1 => Shape::Set(Box::new(element(rng))),
        2 => Shape::Map(Box::new(element(rng))),
        3 => Shape::Tuple(
            (0..rng.gen_range(1..3))
                .map(|_| shape(rng, depth + 1, in_collection))
                .collect(),
        ),
        _ => {
            let mut attrs = Vec::new();
            for name in ["a", "b", "c"] {
                if rng.gen_bool(0.6) {
                    attrs.push((
                        name.to_string(),
                        shape(rng, depth + 1, in_collection),
                        rng.gen_bool(0.3),
                    ));
                }
            }
            Shape::Object(attrs)
        }
    }
}

fn type_text(s: &Shape) -> String {
    match s {
        Shape::Any => "any".into(),
        Shape::String => "string".into(),
        Shape::Number => "number".into(),
        Shape::Bool => "bool".into(),
        Shape::List(e) => format!("list({})", type_text(e)),
        Shape::Set(e) => format!("set({})", type_text(e)),
        Shape::Map(e) => format!("map({})", type_text(e)),
        Shape::Tuple(es) => format!(
            "tuple([{}])",
            es.iter().map(type_text).collect::<Vec<_>>().join(", ")
        ),
        Shape::Object(attrs) => format!(
            "object({{{}}})",
            attrs
                .iter()
                .map(|(n, t, opt)| if *opt {
                    format!("{n} = optional({})", type_text(t))
                } else {
                    format!("{n} = {}", type_text(t))
                })
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// Type expressions Terraform refuses (or reads in a legacy way).
const ODD_TYPES: &[&str] = &[
    "\"string\"",
    "\"list\"",
    "\"map\"",
    "\"number\"",
    "strin",
    "list",
    "map",
    "set",
    "object",
    "tuple",
    "list()",
    "map(string, number)",
    "set(string, number, bool)",
    "optional(string)",
    "list(optional(number))",
    "object([string])",
    "tuple({ a = string })",
    "string(1)",
    "any()",
    "foo(string)",
    "object({ a = optional() })",
    "object({ a = optional(string, \"x\", \"y\") })",
    "object({ \"a\" = string })",
    "object({ a = optional(number, \"x\") })",
    "object({ a = optional(number, \"12\") })",
    "object({ a = optional(list(string), [1]) })",
    "object({ a = optional(bool, var.x) })",
    "var.x",
    "list(strng)",
    "map(any)",
];

/// A value of shape `s` (primitives under `any`).
fn valid_value(rng: &mut StdRng, s: &Shape) -> String {
    match s {
        Shape::Any => ["\"v\"", "2", "true", "null"]
            .choose(rng)
            .expect("any")
            .to_string(),
        Shape::String => ["\"s\"", "\"12\"", "3", "false"]
            .choose(rng)
            .expect("s")
            .to_string(),
        Shape::Number => ["1", "-2.5", "\"7\"", "1e3"]
            .choose(rng)
            .expect("n")
            .to_string(),
        Shape::Bool => ["true", "false", "\"true\"", "\"0\""]
            .choose(rng)
            .expect("b")
            .to_string(),
        Shape::List(e) | Shape::Set(e) => {
            let n = rng.gen_range(0..3);
            let items: Vec<String> = (0..n).map(|_| valid_value(rng, e)).collect();
            format!("[{}]", items.join(", "))
        }
        Shape::Map(e) => {
            let n = rng.gen_range(0..3);
            let items: Vec<String> = (0..n)
                .map(|i| format!("k{i} = {}", valid_value(rng, e)))
                .collect();
            format!("{{{}}}", items.join(", "))
        }
        Shape::Tuple(es) => format!(
            "[{}]",
            es.iter()
                .map(|e| valid_value(rng, e))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Shape::Object(attrs) => {
            let mut parts = Vec::new();
            for (n, t, opt) in attrs {
                if *opt && rng.gen_bool(0.4) {
                    continue;
                }
                parts.push(format!("{n} = {}", valid_value(rng, t)));
            }
            format!("{{{}}}", parts.join(", "))
        }
    }
}

/// Values of another kind than expected somewhere.
const WRONG: &[&str] = &[
    "\"x\"",
    "\"1\"",
    "\"TRUE\"",
    "\"False\"",
    "1",
    "true",
    "null",
    "[]",
    "[1]",
    "{}",
    "{ a = 1 }",
    "[\"a\", 2]",
    "[1, true]",
];

/// A default for shape `s` with at most one thing wrong.
fn default_value(rng: &mut StdRng, s: &Shape, mutate: &mut bool) -> String {
    if *mutate && rng.gen_bool(0.35) {
        *mutate = false;
        return WRONG.choose(rng).expect("wrong").to_string();
    }
    match s {
        Shape::List(e) | Shape::Set(e) => {
            let n = rng.gen_range(0..3);
            let mut items: Vec<String> = (0..n).map(|_| default_value(rng, e, mutate)).collect();
            if *mutate && rng.gen_bool(0.2) {
                *mutate = false;
                items.push(WRONG.choose(rng).expect("wrong").to_string());
            }
            format!("[{}]", items.join(", "))
        }
        Shape::Map(e) => {
            let n = rng.gen_range(0..3);
            let items: Vec<String> = (0..n)
                .map(|i| format!("k{i} = {}", default_value(rng, e, mutate)))
                .collect();
            format!("{{{}}}", items.join(", "))
        }
        Shape::Tuple(es) => {
            let mut items: Vec<String> = es.iter().map(|e| default_value(rng, e, mutate)).collect();
            if *mutate && rng.gen_bool(0.2) {
                *mutate = false;
                items.push("1".into());
            }
            format!("[{}]", items.join(", "))
        }
        Shape::Object(attrs) => {
            let mut parts = Vec::new();
            for (n, t, opt) in attrs {
                if *opt && rng.gen_bool(0.4) {
                    continue;
                }
                if *mutate && rng.gen_bool(0.15) {
                    // A required attribute left out.
                    *mutate = false;
                    continue;
                }
                parts.push(format!("{n} = {}", default_value(rng, t, mutate)));
            }
            format!("{{{}}}", parts.join(", "))
        }
        _ => valid_value(rng, s),
    }
}

/// Values for a bool argument.
const BOOLS: &[&str] = &[
    "true",
    "false",
    "\"true\"",
    "\"0\"",
    "\"TRUE\"",
    "\"yes\"",
    "1",
    "-1",
    "null",
    "[true]",
    "{}",
    "var.x",
    "var.x[0]",
    "local.y.z",
    "upper(\"a\")",
    "(true)",
    "(\"x\")",
    "!false",
];

/// Values for a string argument.
const STRINGS: &[&str] = &[
    "\"d\"",
    "1",
    "true",
    "null",
    "[1]",
    "{ a = 1 }",
    "var.x",
    "upper(\"a\")",
    "(2)",
];

fn case(rng: &mut StdRng) -> Vec<(String, String)> {
    let mut s = String::new();
    let vars = rng.gen_range(2..6);
    for i in 0..vars {
        let _ = writeln!(s, "variable \"v{i}\" {{");
        let mut shape_of = None;
        if rng.gen_bool(0.8) {
            if rng.gen_bool(0.25) {
                let _ = writeln!(s, "  type = {}", ODD_TYPES.choose(rng).expect("odd"));
            } else {
                let sh = shape(rng, 0, false);
                let _ = writeln!(s, "  type = {}", type_text(&sh));
                shape_of = Some(sh);
            }
        }
        if rng.gen_bool(0.8) {
            let mut mutate = rng.gen_bool(0.6);
            let v = match &shape_of {
                Some(sh) => default_value(rng, sh, &mut mutate),
                None => valid_value(rng, &Shape::Any),
            };
            let v = if rng.gen_bool(0.08) {
                ["null", "var.y", "upper(\"q\")"]
                    .choose(rng)
                    .expect("d")
                    .to_string()
            } else {
                v
            };
            let _ = writeln!(s, "  default = {v}");
        }
        for (name, values) in [
            ("description", STRINGS),
            ("sensitive", BOOLS),
            ("ephemeral", BOOLS),
            ("nullable", BOOLS),
            ("const", BOOLS),
            ("deprecated", STRINGS),
        ] {
            if rng.gen_bool(0.2) {
                let v = if rng.gen_bool(0.5) {
                    values[0]
                } else {
                    values.choose(rng).expect("v")
                };
                let _ = writeln!(s, "  {name} = {v}");
            }
        }
        s.push_str("}\n");
    }
    if rng.gen_bool(0.5) {
        s.push_str("output \"o\" {\n  value = 1\n");
        if rng.gen_bool(0.3) {
            let t = if rng.gen_bool(0.5) {
                ODD_TYPES.choose(rng).expect("odd").to_string()
            } else {
                type_text(&shape(rng, 0, false))
            };
            let _ = writeln!(s, "  type = {t}");
        }
        for (name, values) in [
            ("description", STRINGS),
            ("sensitive", BOOLS),
            ("ephemeral", BOOLS),
        ] {
            if rng.gen_bool(0.4) {
                let _ = writeln!(s, "  {name} = {}", values.choose(rng).expect("v"));
            }
        }
        s.push_str("}\n");
    }
    if rng.gen_bool(0.5) {
        s.push_str("resource \"terraform_data\" \"r\" {\n");
        if rng.gen_bool(0.4) {
            let _ = writeln!(s, "  depends_on = {}", reference_list(rng, false));
        }
        s.push_str("  lifecycle {\n");
        for name in ["create_before_destroy", "prevent_destroy"] {
            if rng.gen_bool(0.6) {
                let _ = writeln!(s, "    {name} = {}", BOOLS.choose(rng).expect("v"));
            }
        }
        if rng.gen_bool(0.5) {
            let _ = writeln!(s, "    ignore_changes = {}", reference_list(rng, true));
        }
        if rng.gen_bool(0.4) {
            let v = if rng.gen_bool(0.1) {
                "terraform_data.a".to_string()
            } else {
                let items: Vec<&str> = (0..rng.gen_range(0..4))
                    .map(|_| *TRIGGERS.choose(rng).expect("t"))
                    .collect();
                format!("[{}]", items.join(", "))
            };
            let _ = writeln!(s, "    replace_triggered_by = {v}");
        }
        s.push_str("  }\n}\n");
    }
    let mut files = Vec::new();
    for (i, (head, body)) in [
        (
            "data \"terraform_remote_state\" \"s\"",
            "  backend = \"local\"\n",
        ),
        ("module \"m\"", "  source = \"./m\"\n"),
        ("output \"deps\"", "  value = 1\n"),
    ]
    .iter()
    .enumerate()
    {
        if rng.gen_bool(0.3) {
            let _ = writeln!(
                s,
                "{head} {{\n{body}  depends_on = {}\n}}",
                reference_list(rng, false)
            );
            if i == 1 {
                files.push(("m/main.tf".to_string(), String::new()));
            }
        }
    }
    if rng.gen_bool(0.3) {
        let _ = writeln!(
            s,
            "moved {{\n  from = {}\n  to = {}\n}}",
            REFERENCES.choose(rng).expect("r"),
            REFERENCES.choose(rng).expect("r")
        );
    }
    if rng.gen_bool(0.2) {
        let _ = writeln!(
            s,
            "removed {{\n  from = {}\n  lifecycle {{\n    destroy = false\n  }}\n}}",
            REFERENCES.choose(rng).expect("r")
        );
    }
    files.push(("main.tf".to_string(), s));
    files
}

/// Elements of reference lists: references (bare, quoted, keywords Terraform reads as
/// names) and what is not one. No quoted text that does not parse as a reference: tflock
/// leaves those to a later release.
const REFERENCES: &[&str] = &[
    "terraform_data.a",
    "terraform_data.a.id",
    "var.x[0]",
    "local.m[\"k\"]",
    "true",
    "null",
    "\"terraform_data.b\"",
    "3",
    "upper(\"a\")",
    "(terraform_data.a)",
    "terraform_data.a.*.id",
    "{}",
    "[input]",
    "var.x[var.y]",
    "action.x.y",
    "input[-1]",
    "input",
];

/// Elements of `replace_triggered_by`: literals, single references, bare names, and
/// expressions holding several references (in indexes, templates, calls, operators).
const TRIGGERS: &[&str] = &[
    "not_a_reference",
    "terraform_data.a[each.val]",
    "terraform_data.a[count.index]",
    "terraform_data.a[each.key].id",
    "\"${terraform_data.a.id}\"",
    "upper(terraform_data.a.id)",
    "terraform_data.a.id == terraform_data.c.id",
    "terraform_data.a.id == var.x",
    "data.terraform_remote_state.s",
    "module.m",
    "self",
    "path.module",
    "terraform_data.a",
    "terraform_data.a.id",
    "terraform_data.a[0]",
    "\"x\"",
    "1",
    "true",
    "null",
    "each.key",
    "each.value",
    "count.index",
    "count.foo",
    "var.x",
    "local.y.z",
];

/// A `depends_on` or `ignore_changes` value: mostly a list of references.
fn reference_list(rng: &mut StdRng, ignore_changes: bool) -> String {
    if rng.gen_bool(0.15) {
        let whole: &[&str] = if ignore_changes {
            &["all", "input", "\"*\"", "\"all\"", "1"]
        } else {
            &["terraform_data.a", "\"x\"", "1", "{}"]
        };
        return whole.choose(rng).expect("w").to_string();
    }
    let n = rng.gen_range(0..4);
    let mut items: Vec<&str> = (0..n)
        .map(|_| *REFERENCES.choose(rng).expect("r"))
        .collect();
    if ignore_changes && rng.gen_bool(0.3) {
        items.insert(rng.gen_range(0..=items.len()), "\"*\"");
    }
    format!("[{}]", items.join(", "))
}

/// Diagnostic summaries this suite is about.
fn value_summary(s: &str) -> bool {
    matches!(
        s,
        "Invalid type specification"
            | "Invalid default value for variable"
            | "Invalid default value for optional attribute"
            | "Unsuitable value type"
            | "Variables not allowed"
            | "Function calls not allowed"
            | "Invalid quoted type constraints"
            | "Invalid legacy variable type hint"
            | "Const variable cannot be sensitive"
            | "Const variable cannot be ephemeral"
            | "Invalid expression"
            | "Invalid ignore_changes wildcard"
            | "Invalid ignore_changes ruleset"
            | "Invalid depends_on Action Reference"
            | "Invalid replace_triggered_by expression"
            | "Invalid each reference in replace_triggered_by expression"
            | "Invalid count reference in replace_triggered_by expression"
            | "Invalid reference in replace_triggered_by expression"
    )
}

#[test]
fn argument_values_are_decoded_as_terraform_loads_them() {
    let (mut rng, seed) = rng("load values", 4_049);
    let cases: Vec<Vec<(String, String)>> = (0..CASES).map(|_| case(&mut rng)).collect();
    let (real, nonempty) = init_diagnostics_failures(&cases, &value_summary, seed);
    assert!(
        real.is_empty(),
        "{} of {CASES} modules are decoded differently from terraform init:\n\n{}",
        real.len(),
        real.join("\n\n")
    );
    assert!(
        nonempty >= CASES / 2,
        "only {nonempty} of {CASES} cases had a value diagnostic"
    );
}
