//! Block bodies against Terraform's decoder schemas: generated modules whose blocks carry the
//! arguments and nested blocks Terraform knows, near misses of them ("Did you mean"), names
//! of the other kind (a block written as an argument), unknown names, missing required
//! arguments and wrong label counts, constant conditions, conditions referring to their own
//! resource, destroy-time and removed provisioners, `experiments` and `language`, a top-level
//! `required_providers`, in native and JSON syntax and in override files. Every
//! schema diagnostic `terraform init` gives must be tflock's, text and position alike.

use super::harness::{init_diagnostics_failures, rng};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::Rng;
use std::fmt::Write as _;

const CASES: usize = 40;

/// A block to write: type, labels, arguments and nested blocks.
struct Node {
    kind: String,
    labels: Vec<String>,
    attrs: Vec<String>,
    blocks: Vec<Node>,
    /// Its `condition` refers to nothing (`true`).
    constant: bool,
}

/// Names worth trying inside a block of type `kind` (under `parent`): what Terraform's schema
/// has there (written independently of tflock's table, so the suite checks it).
fn names(parent: &str, kind: &str) -> (&'static [&'static str], &'static [&'static str]) {
    match (parent, kind) {
        (_, "terraform") => (
            &["required_version", "experiments", "language"],
            &["backend", "cloud", "required_providers", "provider_meta"],
        ),
        (_, "variable") => (
            &[
                "description",
                "default",
                "type",
                "sensitive",
                "ephemeral",
                "nullable",
                "deprecated",
                "const",
            ],
            &["validation"],
        ),
        (_, "output") => (
            &[
                "description",
                "value",
                "depends_on",
                "sensitive",
                "ephemeral",
                "deprecated",
                "type",
            ],
            &["precondition", "postcondition"],
        ),
        (_, "validation" | "precondition" | "postcondition" | "assert") => {
            (&["condition", "error_message"], &[])
        }
        // No `version`: on a local source the installer fails first, and `init` then shows
        // only the installer's errors.
        (_, "module") => (&["source", "count", "providers"], &[]),
        ("", "resource") => (
            &["count", "for_each", "provider", "ami"],
            &["lifecycle", "connection", "provisioner", "locals", "_"],
        ),
        ("resource", "provisioner") => (&["when", "on_failure", "command"], &["connection"]),
        ("", "data") => (&["count", "for_each", "filter"], &["lifecycle", "locals"]),
        ("", "provider") => (
            &["alias", "region", "count", "source", "depends_on"],
            &["lifecycle", "locals", "_"],
        ),
        (_, "lifecycle") => (
            &[
                "create_before_destroy",
                "prevent_destroy",
                "ignore_changes",
                "destroy",
            ],
            &["precondition", "postcondition"],
        ),
        (_, "moved") => (&["from", "to"], &[]),
        (_, "import") => (&["to", "id", "provider", "for_each", "identity"], &[]),
        (_, "removed") => (&["from"], &["lifecycle"]),
        (_, "check") => (&[], &["assert", "data"]),
        (_, "required_providers") => (&["aws"], &[]),
        (_, "locals") => (&["a", "b"], &[]),
        _ => (&["x"], &[]),
    }
}

/// Labels a block type takes (nested ones included).
fn label_count(kind: &str) -> usize {
    match kind {
        "variable" | "output" | "module" | "check" | "backend" | "provider_meta"
        | "provisioner" => 1,
        "resource" | "data" => 2,
        _ => 0,
    }
}

/// A near miss of `name`: one letter dropped or doubled (HCL suggests within distance 2).
fn typo(rng: &mut StdRng, name: &str) -> String {
    let mut chars: Vec<char> = name.chars().collect();
    let i = rng.gen_range(0..chars.len());
    if rng.gen_bool(0.5) && chars.len() > 2 {
        chars.remove(i);
    } else {
        chars.insert(i, chars[i]);
    }
    chars.into_iter().collect()
}

fn node(rng: &mut StdRng, parent: &str, kind: &str, depth: usize) -> Node {
    let (attrs, blocks) = names(parent, kind);
    let mut n = Node {
        kind: kind.to_string(),
        labels: (0..label_count(kind)).map(|i| format!("l{i}")).collect(),
        attrs: Vec::new(),
        blocks: Vec::new(),
        constant: rng.gen_bool(0.2),
    };
    match kind {
        "resource" | "data" if parent.is_empty() => {
            n.labels = vec!["aws_instance".into(), "web".into()]
        }
        "provider" if parent.is_empty() => n.labels = vec!["aws".into()],
        // Sometimes one of the provisioners Terraform has removed.
        "provisioner" => {
            let ty = if rng.gen_bool(0.2) {
                "habitat"
            } else {
                "local-exec"
            };
            n.labels = vec![ty.into()];
        }
        _ => {}
    }
    if kind == "module" {
        n.attrs.push("source".into());
    }
    if depth > 0 && rng.gen_bool(0.1) {
        // A nested block with one label too many or too few.
        if n.labels.is_empty() {
            n.labels.push("extra".into());
        } else {
            n.labels.pop();
        }
    }
    for a in attrs {
        if n.attrs.contains(&a.to_string()) {
            continue;
        }
        if rng.gen_bool(0.5) {
            n.attrs.push(a.to_string());
        }
    }
    if !attrs.is_empty() && rng.gen_bool(0.3) {
        let pick = attrs.choose(rng).expect("attrs");
        let t = typo(rng, pick);
        if !n.attrs.contains(&t) {
            n.attrs.push(t);
        }
    }
    if rng.gen_bool(0.2) {
        n.attrs.push("widget".into());
    }
    if let Some(b) = blocks.choose(rng).filter(|_| rng.gen_bool(0.2)) {
        // A block type written as an argument.
        if !n.attrs.iter().any(|a| a == b) {
            n.attrs.push(b.to_string());
        }
    }
    if depth < 2 {
        for b in blocks {
            if rng.gen_bool(0.4) {
                n.blocks.push(node(rng, kind, b, depth + 1));
                if rng.gen_bool(0.15) {
                    // A second one, where Terraform allows only one.
                    n.blocks.push(node(rng, kind, b, depth + 1));
                }
            }
        }
        if rng.gen_bool(0.15) {
            n.blocks.push(node(rng, kind, "gadget", depth + 1));
        }
        if let Some(a) = attrs.choose(rng).filter(|_| rng.gen_bool(0.15)) {
            // An argument written as a block.
            n.blocks.push(Node {
                kind: a.to_string(),
                labels: Vec::new(),
                attrs: Vec::new(),
                blocks: Vec::new(),
                constant: false,
            });
        }
    }
    n
}

fn native(n: &Node, indent: usize, out: &mut String) {
    let pad = "  ".repeat(indent);
    let _ = write!(out, "{pad}{}", n.kind);
    for l in &n.labels {
        let _ = write!(out, " {l:?}");
    }
    out.push_str(" {\n");
    for a in &n.attrs {
        let v = if n.constant && a == "condition" {
            "true"
        } else {
            value(a)
        };
        let _ = writeln!(out, "{pad}  {a} = {v}");
    }
    for b in &n.blocks {
        native(b, indent + 1, out);
    }
    let _ = writeln!(out, "{pad}}}");
}

/// A value Terraform reads without complaint where the name is known.
fn value(name: &str) -> &'static str {
    match name {
        "source" => "\"./m\"",
        "from" | "to" => "aws_instance.a",
        "providers" => "{}",
        "depends_on" | "ignore_changes" => "[]",
        "count" => "1",
        "sensitive"
        | "ephemeral"
        | "nullable"
        | "create_before_destroy"
        | "prevent_destroy"
        | "destroy"
        | "const" => "false",
        "type" => "string",
        "condition" => "var.x == \"a\"",
        // A resource's own conditions may not refer to it (`self` is how they do).
        "error_message" => "\"not ${aws_instance.web.id}\"",
        // A destroy-time provisioner may refer only to `self`, `count.index`, `each.key`.
        "when" => "destroy",
        "on_failure" => "continue",
        "command" => "\"echo ${self.id} ${var.x}\"",
        "provider" => "aws",
        "aws" => "{ source = \"hashicorp/aws\" }",
        _ => "\"v\"",
    }
}

fn json_value(name: &str) -> serde_json::Value {
    use serde_json::json;
    match name {
        "source" => json!("./m"),
        "from" | "to" => json!("aws_instance.a"),
        "providers" => json!({}),
        "depends_on" | "ignore_changes" => json!([]),
        "count" => json!(1),
        "sensitive"
        | "ephemeral"
        | "nullable"
        | "create_before_destroy"
        | "prevent_destroy"
        | "destroy"
        | "const" => json!(false),
        "type" => json!("string"),
        "condition" => json!("${var.x == \"a\"}"),
        "error_message" => json!("not ${aws_instance.web.id}"),
        "when" => json!("destroy"),
        "on_failure" => json!("continue"),
        "command" => json!("echo ${self.id} ${var.x}"),
        "provider" => json!("aws"),
        "aws" => json!({ "source": "hashicorp/aws" }),
        _ => json!("v"),
    }
}

/// A block's body as a JSON object (labels are nested keys around it).
fn json_body(n: &Node) -> serde_json::Value {
    let mut m = serde_json::Map::new();
    for a in &n.attrs {
        let v = if n.constant && a == "condition" {
            serde_json::json!(true)
        } else {
            json_value(a)
        };
        m.insert(a.clone(), v);
    }
    for b in &n.blocks {
        if b.labels.len() != label_count(&b.kind) {
            continue; // JSON has no label count to get wrong
        }
        let mut v = json_body(b);
        for l in b.labels.iter().rev() {
            v = serde_json::json!({ l.clone(): v });
        }
        m.insert(b.kind.clone(), serde_json::Value::Array(vec![v]));
    }
    serde_json::Value::Object(m)
}

const TOP: &[&str] = &[
    "terraform",
    "required_providers",
    "provider",
    "data",
    "variable",
    "output",
    "module",
    "resource",
    "moved",
    "import",
    "removed",
    "check",
    "locals",
];

fn case(rng: &mut StdRng) -> Vec<(String, String)> {
    let json = rng.gen_bool(0.3);
    let mut blocks: Vec<Node> = Vec::new();
    for (i, kind) in TOP.iter().enumerate() {
        if rng.gen_bool(0.35) {
            let mut n = node(rng, "", kind, 0);
            if !n.labels.is_empty() && kind != &"resource" {
                n.labels[0] = format!("n{i}");
            }
            if kind == &"terraform" && rng.gen_bool(0.5) {
                n.blocks
                    .push(node(rng, "terraform", "required_providers", 1));
            }
            blocks.push(n);
        }
    }
    let mut files = vec![(
        "variables.tf".to_string(),
        "variable \"x\" {\n  default = \"a\"\n}\n".to_string(),
    )];
    files.push(("m/main.tf".to_string(), String::new()));
    // Sometimes an override file (its blocks then lack bases: those errors are not this
    // suite's), where some requirements are relaxed and check rules refused.
    let name = match (json, rng.gen_bool(0.25)) {
        (true, false) => "main.tf.json",
        (true, true) => "main_override.tf.json",
        (false, false) => "main.tf",
        (false, true) => "main_override.tf",
    };
    let text = if json {
        let mut top = serde_json::Map::new();
        for n in &blocks {
            let mut v = json_body(n);
            for l in n.labels.iter().rev() {
                v = serde_json::json!({ l.clone(): v });
            }
            top.entry(n.kind.clone())
                .or_insert_with(|| serde_json::Value::Array(Vec::new()))
                .as_array_mut()
                .expect("array")
                .push(v);
        }
        serde_json::to_string_pretty(&serde_json::Value::Object(top)).expect("json")
    } else {
        let mut s = String::new();
        for n in &blocks {
            native(n, 0, &mut s);
        }
        s
    };
    files.push((name.to_string(), text));
    files
}

/// Diagnostic summaries this suite is about (values and references are judged elsewhere).
fn schema_summary(s: &str) -> bool {
    matches!(
        s,
        "Unsupported argument"
            | "Unsupported block type"
            | "Missing required argument"
            | "Extraneous JSON object property"
            | "Postconditions are not allowed"
            | "Multiple data resource blocks"
            | "Zero assert blocks"
            | "Invalid validation expression"
            | "Invalid precondition expression"
            | "Invalid postcondition expression"
            | "Invalid assert expression"
            | "Invalid variable validation condition"
            | "Duplicate lifecycle block"
            | "Duplicate connection block"
            | "Duplicate escaping block"
            | "Invalid combination of \"count\" and \"for_each\""
            | "Reserved argument name in provider block"
            | "Invalid data resource lifecycle argument"
            | "Invalid import block"
            | "Invalid required_providers block"
            | "Module uses experimental features"
            | "Invalid language edition"
            | "Unsupported language edition"
            | "Invalid reference in precondition"
            | "Invalid reference in postcondition"
            | "Invalid reference from destroy provisioner"
            | "The \"habitat\" provisioner has been removed"
    ) || s.starts_with("Unexpected \"")
        || s.starts_with("Reserved block type name in ")
        || s.starts_with("Extraneous label for ")
        || (s.starts_with("Missing ") && s.contains(" for "))
}

#[test]
fn block_bodies_are_checked_against_terraforms_schemas() {
    let (mut rng, seed) = rng("block schemas", 2_311);
    let cases: Vec<Vec<(String, String)>> = (0..CASES).map(|_| case(&mut rng)).collect();
    let (real, nonempty) = init_diagnostics_failures(&cases, &schema_summary, seed);
    assert!(
        real.is_empty(),
        "{} of {CASES} modules are checked differently from terraform init:\n\n{}",
        real.len(),
        real.join("\n\n")
    );
    assert!(
        nonempty >= CASES / 2,
        "only {nonempty} of {CASES} cases had a schema diagnostic"
    );
}
