//! A generator of Terraform modules with primary and override files, in native and JSON
//! syntax, whose values Terraform can plan with only the builtin `terraform_data`
//! resource: variables, locals, outputs, resources and module calls, with overrides that
//! replace attributes, merge `lifecycle` per argument and compound in lexical order; with
//! builtin-provider functions (`provider::terraform::encode_expr`), `for` expressions broken
//! before an operator, repeated object keys and check-scoped data sources.
//!
//! Expressions are a small typed tree rendered to both syntaxes, so a JSON file means
//! exactly what the native one would (strings with quotes inside `${ }`, escapes, heredocs).

use std::fmt::Write as _;

/// Constructs added for issue 28 that can be switched off to see a run's other failures.
pub mod switches {
    /// `data` blocks inside `check` blocks (their providers are requirements).
    pub const CHECK_DATA_SOURCES: bool = true;
}

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::Rng;

/// The shape of a value, so generated expressions type-check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Str,
    Num,
    Bool,
    StrList,
    StrMap,
}

/// An expression.
#[derive(Debug, Clone)]
pub enum Expr {
    Str(String),
    Num(String),
    Bool(bool),
    List(Vec<Expr>),
    Map(Vec<(String, Expr)>),
    /// A reference (`var.v0`, `local.l1`, `terraform_data.r0`, `count.index`).
    Ref(String),
    Call(&'static str, Vec<Expr>),
    /// A template: literal parts and interpolations.
    Template(Vec<Part>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// A native heredoc (rendered as an equal quoted template in JSON).
    Heredoc(Vec<Part>),
    /// A `for` expression with a line break before an operator (a conditional, a binary
    /// operator or an `if` clause): `native` as written, `one_line` the same expression on
    /// one line for JSON templates, whose interpolations are kept free of newlines.
    For {
        native: String,
        one_line: String,
    },
    /// An object constructor that may repeat a key (the last value wins); JSON renders it
    /// as a template, since a JSON object cannot carry the repetition.
    Object(Vec<(String, Expr)>),
}

/// A template part.
#[derive(Debug, Clone)]
pub enum Part {
    Lit(String),
    Interp(Expr),
}

const LITERALS: &[&str] = &[
    "a",
    "hello world",
    "",
    "quo\"te",
    "back\\slash",
    "dollar ${x} and %{y}",
    "$$ and %% and $ alone",
    "unicodé ✓ 日本",
    "tab\tnew\nline",
    "trailing space ",
    "}{",
];

/// Escapes literal text for a native quoted template.
pub(super) fn native_lit(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '$' | '%' if chars.peek() == Some(&'{') => {
                out.push(c);
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// Escapes literal text for a heredoc line (no quotes to escape, templates still apply).
fn heredoc_lit(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '$' | '%' if chars.peek() == Some(&'{') => {
                out.push(c);
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

impl Expr {
    /// Native syntax.
    pub fn native(&self) -> String {
        match self {
            Expr::Str(s) => format!("\"{}\"", native_lit(s)),
            Expr::Num(n) => n.clone(),
            Expr::Bool(b) => b.to_string(),
            Expr::List(items) => {
                let parts: Vec<String> = items.iter().map(Expr::native).collect();
                format!("[{}]", parts.join(", "))
            }
            Expr::Map(entries) => {
                let parts: Vec<String> = entries
                    .iter()
                    .map(|(k, v)| format!("\"{}\" = {}", native_lit(k), v.native()))
                    .collect();
                format!("{{ {} }}", parts.join(", "))
            }
            Expr::Ref(r) => r.clone(),
            Expr::Call(f, args) => {
                let parts: Vec<String> = args.iter().map(Expr::native).collect();
                format!("{f}({})", parts.join(", "))
            }
            Expr::Template(parts) => {
                let mut out = String::from("\"");
                for p in parts {
                    match p {
                        Part::Lit(s) => out.push_str(&native_lit(s)),
                        Part::Interp(e) => {
                            let _ = write!(out, "${{{}}}", e.native());
                        }
                    }
                }
                out.push('"');
                out
            }
            Expr::Cond(c, a, b) => format!("({} ? {} : {})", c.native(), a.native(), b.native()),
            Expr::For { native, .. } => native.clone(),
            Expr::Object(entries) => {
                let parts: Vec<String> = entries
                    .iter()
                    .map(|(k, v)| format!("\"{}\" = {}", native_lit(k), v.native()))
                    .collect();
                format!("{{ {} }}", parts.join(", "))
            }
            Expr::Heredoc(parts) => {
                let mut out = String::from("<<EOT\n");
                for p in parts {
                    match p {
                        Part::Lit(s) => out.push_str(&heredoc_lit(s)),
                        Part::Interp(e) => {
                            let _ = write!(out, "${{{}}}", e.native());
                        }
                    }
                }
                out.push_str("\nEOT\n");
                out
            }
        }
    }

    /// JSON syntax: literals as JSON values, everything else as a JSON string template.
    pub fn json(&self) -> serde_json::Value {
        use serde_json::Value;
        let template_lit = |s: &str| {
            let mut out = String::new();
            let mut chars = s.chars().peekable();
            while let Some(c) = chars.next() {
                if (c == '$' || c == '%') && chars.peek() == Some(&'{') {
                    out.push(c);
                }
                out.push(c);
            }
            out
        };
        match self {
            Expr::Str(s) => Value::String(template_lit(s)),
            Expr::Num(n) => serde_json::from_str(n).expect("number"),
            Expr::Bool(b) => Value::Bool(*b),
            Expr::List(items) => Value::Array(items.iter().map(Expr::json).collect()),
            Expr::Map(entries) => {
                Value::Object(entries.iter().map(|(k, v)| (k.clone(), v.json())).collect())
            }
            Expr::Template(parts) | Expr::Heredoc(parts) => {
                let mut out = String::new();
                for p in parts {
                    match p {
                        Part::Lit(s) => out.push_str(&template_lit(s)),
                        Part::Interp(e) => {
                            let _ = write!(out, "${{{}}}", e.native());
                        }
                    }
                }
                if matches!(self, Expr::Heredoc(_)) {
                    out.push('\n');
                }
                Value::String(out)
            }
            Expr::For { one_line, .. } => Value::String(format!("${{{one_line}}}")),
            other => Value::String(format!("${{{}}}", other.native())),
        }
    }
}

/// What expressions may refer to at one place.
#[derive(Debug, Clone, Default)]
pub struct Scope {
    /// `(reference, kind)` pairs.
    pub refs: Vec<(String, Kind)>,
}

fn literal(rng: &mut StdRng, kind: Kind) -> Expr {
    match kind {
        Kind::Str => Expr::Str(LITERALS.choose(rng).expect("lits").to_string()),
        Kind::Num => Expr::Num(
            ["0", "1", "42", "-7", "3.5", "1e3", "100000000000"]
                .choose(rng)
                .expect("nums")
                .to_string(),
        ),
        Kind::Bool => Expr::Bool(rng.gen_bool(0.5)),
        Kind::StrList => {
            let n = rng.gen_range(0..3);
            Expr::List((0..n).map(|_| literal(rng, Kind::Str)).collect())
        }
        Kind::StrMap => {
            let n = rng.gen_range(0..3);
            let mut keys: Vec<&str> = vec!["a", "b", "key with space", "ü", "//", "${x}"];
            keys.shuffle(rng);
            Expr::Map(
                keys.into_iter()
                    .take(n)
                    .map(|k| (k.to_string(), literal(rng, Kind::Str)))
                    .collect(),
            )
        }
    }
}

/// A scalar expression convertible to a string.
fn scalar(rng: &mut StdRng, scope: &Scope, depth: u32) -> Expr {
    let scalars: Vec<&(String, Kind)> = scope
        .refs
        .iter()
        .filter(|(_, k)| matches!(k, Kind::Str | Kind::Num | Kind::Bool))
        .collect();
    let choice = if depth > 2 { 0 } else { rng.gen_range(0..10) };
    match choice {
        1 | 2 if !scalars.is_empty() => Expr::Ref(scalars.choose(rng).expect("ref").0.clone()),
        3 => Expr::Call("upper", vec![scalar(rng, scope, depth + 1)]),
        4 => Expr::Template(template_parts(rng, scope, depth)),
        5 => Expr::Call(
            "format",
            vec![Expr::Str("%s-%s".into()), scalar(rng, scope, depth + 1), {
                scalar(rng, scope, depth + 1)
            }],
        ),
        6 => Expr::Call("jsonencode", vec![any(rng, scope, depth + 1)]),
        // Both results strings: a bool and a number have no common type.
        7 => Expr::Cond(
            Box::new(Expr::Bool(rng.gen_bool(0.5))),
            Box::new(Expr::Call("tostring", vec![scalar(rng, scope, depth + 1)])),
            Box::new(Expr::Call("tostring", vec![scalar(rng, scope, depth + 1)])),
        ),
        8 => Expr::Call("tostring", vec![literal(rng, Kind::Num)]),
        // A provider-defined function (HCL 2.24's `::`), of the builtin provider so plans
        // need no download; `module` declares it in required_providers.
        9 => Expr::Call(
            "provider::terraform::encode_expr",
            vec![scalar(rng, scope, depth + 1)],
        ),
        _ => {
            let kind = *[Kind::Str, Kind::Num, Kind::Bool].choose(rng).expect("k");
            literal(rng, kind)
        }
    }
}

fn template_parts(rng: &mut StdRng, scope: &Scope, depth: u32) -> Vec<Part> {
    let n = rng.gen_range(1..4);
    (0..n)
        .map(|_| {
            if rng.gen_bool(0.5) {
                Part::Lit(LITERALS.choose(rng).expect("lits").to_string())
            } else {
                Part::Interp(scalar(rng, scope, depth + 1))
            }
        })
        .collect()
}

/// Any expression (scalars, collections, heredocs).
pub fn any(rng: &mut StdRng, scope: &Scope, depth: u32) -> Expr {
    let collections: Vec<&(String, Kind)> = scope
        .refs
        .iter()
        .filter(|(_, k)| matches!(k, Kind::StrList | Kind::StrMap))
        .collect();
    match if depth > 2 { 0 } else { rng.gen_range(0..8) } {
        1 => Expr::List(
            (0..rng.gen_range(0..3))
                .map(|_| scalar(rng, scope, depth + 1))
                .collect(),
        ),
        2 if rng.gen_bool(0.3) => Expr::Object(vec![
            ("k".into(), scalar(rng, scope, depth + 1)),
            ("quoted \"key\"".into(), any(rng, scope, depth + 1)),
            ("k".into(), scalar(rng, scope, depth + 1)),
        ]),
        2 => Expr::Map(vec![
            ("k".into(), scalar(rng, scope, depth + 1)),
            ("quoted \"key\"".into(), any(rng, scope, depth + 1)),
        ]),
        // Line breaks only at the top: inside a quoted template they would end the string.
        6 if depth == 0 => for_expr(rng, scope),
        3 if !collections.is_empty() => Expr::Ref(collections.choose(rng).expect("ref").0.clone()),
        // Heredocs only at the top: inside a JSON string template they would need newlines.
        4 if depth == 0 => Expr::Heredoc(template_parts(rng, scope, depth)),
        5 => {
            let kind = *[Kind::StrList, Kind::StrMap].choose(rng).expect("k");
            Expr::Call("length", vec![literal(rng, kind)])
        }
        _ => scalar(rng, scope, depth),
    }
}

/// A `for` expression over a list or map (a reference or a literal) with a line break
/// before a conditional, a binary operator or its `if` clause.
fn for_expr(rng: &mut StdRng, scope: &Scope) -> Expr {
    let pick = |rng: &mut StdRng, kind: Kind| -> String {
        let refs: Vec<&(String, Kind)> = scope.refs.iter().filter(|(_, k)| *k == kind).collect();
        match refs.choose(rng) {
            Some((r, _)) if rng.gen_bool(0.5) => r.clone(),
            _ => literal(rng, kind).native(),
        }
    };
    let (native, one_line) = match rng.gen_range(0..3) {
        0 => {
            let m = pick(rng, Kind::StrMap);
            (
                format!("{{ for k, v in {m} : k => v\n    if v != \"\" }}"),
                format!("{{ for k, v in {m} : k => v if v != \"\" }}"),
            )
        }
        1 => {
            let l = pick(rng, Kind::StrList);
            (
                format!("[for x in {l} : x\n    == \"a\" ? \"yes\"\n    : \"no\"]"),
                format!("[for x in {l} : x == \"a\" ? \"yes\" : \"no\"]"),
            )
        }
        _ => {
            let m = pick(rng, Kind::StrMap);
            (
                format!("{{ for k, v in {m} : k => (v\n    != \"a\") }}"),
                format!("{{ for k, v in {m} : k => (v != \"a\") }}"),
            )
        }
    };
    Expr::For { native, one_line }
}

/// Syntax of one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    Native,
    Json,
}

/// One generated block, ready to render in either syntax.
#[derive(Debug, Clone)]
pub struct Block {
    /// `variable`, `locals`, `output`, `resource`, `module`.
    pub kind: &'static str,
    pub labels: Vec<String>,
    /// Attributes in order.
    pub attrs: Vec<(String, Attr)>,
    /// Nested blocks (`lifecycle`).
    pub blocks: Vec<Block>,
}

/// An attribute value: an expression, or expression text the argument reads specially
/// (`type`, `depends_on`, `ignore_changes`), given in native form and in JSON form.
#[derive(Debug, Clone)]
pub enum Attr {
    Expr(Expr),
    Special {
        native: String,
        json: serde_json::Value,
    },
}

impl Block {
    fn native(&self, out: &mut String, indent: &str) {
        if self.kind == "locals" {
            out.push_str("locals {\n");
        } else {
            out.push_str(indent);
            out.push_str(self.kind);
            for l in &self.labels {
                let _ = write!(out, " \"{l}\"");
            }
            out.push_str(" {\n");
        }
        for (name, value) in &self.attrs {
            let text = match value {
                Attr::Expr(e) => e.native(),
                Attr::Special { native, .. } => native.clone(),
            };
            let _ = writeln!(out, "{indent}  {name} = {}", text.trim_end_matches('\n'));
        }
        for b in &self.blocks {
            b.native(out, &format!("{indent}  "));
        }
        out.push_str(indent);
        out.push_str("}\n");
    }

    fn json_body(&self) -> serde_json::Map<String, serde_json::Value> {
        let mut body = serde_json::Map::new();
        for (name, value) in &self.attrs {
            let v = match value {
                Attr::Expr(e) => e.json(),
                Attr::Special { json, .. } => json.clone(),
            };
            body.insert(name.clone(), v);
        }
        for b in &self.blocks {
            body.insert(b.kind.to_string(), serde_json::Value::Object(b.json_body()));
        }
        body
    }
}

/// Renders blocks as one file of `syntax`.
pub fn render(blocks: &[Block], syntax: Syntax, comment: &str) -> String {
    match syntax {
        Syntax::Native => {
            let mut out = format!("# {comment}\n");
            for b in blocks {
                b.native(&mut out, "");
                out.push('\n');
            }
            out
        }
        Syntax::Json => {
            // Repeated kinds become arrays of objects, as the JSON syntax allows.
            let mut root = serde_json::Map::new();
            root.insert("//".into(), serde_json::Value::String(comment.into()));
            let mut kinds: Vec<(&str, Vec<serde_json::Value>)> = Vec::new();
            for b in blocks {
                let mut v = serde_json::Value::Object(b.json_body());
                for l in b.labels.iter().rev() {
                    let mut m = serde_json::Map::new();
                    m.insert(l.clone(), v);
                    v = serde_json::Value::Object(m);
                }
                match kinds.iter_mut().find(|(k, _)| *k == b.kind) {
                    Some((_, list)) => list.push(v),
                    None => kinds.push((b.kind, vec![v])),
                }
            }
            for (k, list) in kinds {
                let v = if list.len() == 1 {
                    list.into_iter().next().expect("one")
                } else {
                    serde_json::Value::Array(list)
                };
                root.insert(k.to_string(), v);
            }
            serde_json::to_string_pretty(&serde_json::Value::Object(root)).expect("json") + "\n"
        }
    }
}

/// A generated module: file name → text.
pub struct Module {
    pub files: Vec<(String, String)>,
}

/// The leaf module every generated module call uses.
pub const LEAF: &str =
    "variable \"x\" {\n  default = null\n}\n\noutput \"y\" {\n  value = var.x\n}\n";

struct Var {
    name: String,
    kind: Kind,
}

/// A variable's type for a primary file (`in_override` false) or an override file. An
/// override's `type = any` over a collection default the base typed is left out: Terraform
/// keeps that default converted to the base type (an empty `map(string)` stays a map), which
/// no merged text can write (README "Known differences").
fn var_type(rng: &mut StdRng, kind: Kind, in_override: bool) -> Option<&'static str> {
    let options: &[Option<&str>] = match kind {
        Kind::Str => &[None, Some("string"), Some("any")],
        Kind::Num => &[None, Some("number"), Some("string"), Some("any")],
        Kind::Bool => &[None, Some("bool"), Some("string")],
        Kind::StrList if in_override => &[None, Some("list(string)"), Some("set(string)")],
        Kind::StrList => &[None, Some("list(string)"), Some("set(string)"), Some("any")],
        Kind::StrMap if in_override => &[None, Some("map(string)")],
        Kind::StrMap => &[None, Some("map(string)"), Some("any")],
    };
    *options.choose(rng).expect("types")
}

fn type_attr(t: &str) -> Attr {
    Attr::Special {
        native: t.to_string(),
        json: serde_json::Value::String(t.to_string()),
    }
}

fn var_block(rng: &mut StdRng, v: &Var, full: bool) -> Block {
    let mut attrs = Vec::new();
    if full || rng.gen_bool(0.6) {
        attrs.push(("default".to_string(), Attr::Expr(literal(rng, v.kind))));
    }
    if let Some(t) = var_type(rng, v.kind, !full) {
        attrs.push(("type".to_string(), type_attr(t)));
    }
    if rng.gen_bool(0.3) {
        attrs.push((
            "description".to_string(),
            Attr::Expr(literal(rng, Kind::Str)),
        ));
    }
    if rng.gen_bool(0.2) {
        attrs.push(("nullable".to_string(), Attr::Expr(Expr::Bool(true))));
    }
    Block {
        kind: "variable",
        labels: vec![v.name.clone()],
        attrs,
        blocks: Vec::new(),
    }
}

/// A resource's repetition: none, `count` or `for_each`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Repeat {
    Single,
    Count,
    ForEach,
}

fn repeat_attr(rng: &mut StdRng, r: Repeat) -> Option<(String, Attr)> {
    match r {
        Repeat::Single => None,
        Repeat::Count => Some((
            "count".into(),
            Attr::Expr(Expr::Num(rng.gen_range(0..3).to_string())),
        )),
        Repeat::ForEach => Some((
            "for_each".into(),
            Attr::Expr(if rng.gen_bool(0.5) {
                Expr::Call(
                    "toset",
                    vec![Expr::List(vec![
                        Expr::Str("a".into()),
                        Expr::Str("b".into()),
                    ])],
                )
            } else {
                Expr::Map(vec![("k1".into(), Expr::Str("v1".into()))])
            }),
        )),
    }
}

fn resource_block(rng: &mut StdRng, name: &str, r: Repeat, scope: &Scope, base: bool) -> Block {
    let mut scope = scope.clone();
    match r {
        Repeat::Count => scope.refs.push(("count.index".into(), Kind::Num)),
        Repeat::ForEach => {
            scope.refs.push(("each.key".into(), Kind::Str));
            scope.refs.push(("each.value".into(), Kind::Str));
        }
        Repeat::Single => {}
    }
    let mut attrs = Vec::new();
    if base || rng.gen_bool(0.3) {
        attrs.extend(repeat_attr(rng, r));
    }
    if base || rng.gen_bool(0.6) {
        attrs.push(("input".into(), Attr::Expr(any(rng, &scope, 0))));
    }
    if rng.gen_bool(0.3) {
        attrs.push(("triggers_replace".into(), Attr::Expr(any(rng, &scope, 0))));
    }
    // Overrides may not set depends_on (an invalid-override case of its own).
    if base && rng.gen_bool(0.2) {
        attrs.push((
            "depends_on".into(),
            Attr::Special {
                native: "[terraform_data.base]".into(),
                json: serde_json::json!(["terraform_data.base"]),
            },
        ));
    }
    let mut blocks = Vec::new();
    if rng.gen_bool(0.4) {
        let mut la = Vec::new();
        if rng.gen_bool(0.5) {
            la.push((
                "create_before_destroy".to_string(),
                Attr::Expr(Expr::Bool(rng.gen_bool(0.5))),
            ));
        }
        if rng.gen_bool(0.5) {
            la.push((
                "ignore_changes".to_string(),
                if rng.gen_bool(0.5) {
                    Attr::Special {
                        native: "[input]".into(),
                        json: serde_json::json!(["input"]),
                    }
                } else {
                    Attr::Special {
                        native: "all".into(),
                        json: serde_json::json!("all"),
                    }
                },
            ));
        }
        blocks.push(Block {
            kind: "lifecycle",
            labels: Vec::new(),
            attrs: la,
            blocks: Vec::new(),
        });
    }
    Block {
        kind: "resource",
        labels: vec!["terraform_data".into(), name.into()],
        attrs,
        blocks,
    }
}

/// Generates one module: primary files and one to three override files.
pub fn module(rng: &mut StdRng) -> Module {
    let vars: Vec<Var> = (0..rng.gen_range(1..4))
        .map(|i| Var {
            name: format!("v{i}"),
            kind: *[
                Kind::Str,
                Kind::Num,
                Kind::Bool,
                Kind::StrList,
                Kind::StrMap,
            ]
            .choose(rng)
            .expect("kinds"),
        })
        .collect();
    let mut scope = Scope::default();
    for v in &vars {
        scope.refs.push((format!("var.{}", v.name), v.kind));
    }
    let mut primary: Vec<Block> = vars.iter().map(|v| var_block(rng, v, true)).collect();

    let locals_n = rng.gen_range(0..3);
    let mut local_attrs = Vec::new();
    for i in 0..locals_n {
        local_attrs.push((format!("l{i}"), Attr::Expr(scalar(rng, &scope, 0))));
    }
    if locals_n > 0 {
        primary.push(Block {
            kind: "locals",
            labels: Vec::new(),
            attrs: local_attrs,
            blocks: Vec::new(),
        });
    }
    for i in 0..locals_n {
        scope.refs.push((format!("local.l{i}"), Kind::Str));
    }

    primary.push(Block {
        kind: "resource",
        labels: vec!["terraform_data".into(), "base".into()],
        attrs: vec![("input".into(), Attr::Expr(Expr::Str("base".into())))],
        blocks: Vec::new(),
    });
    let resources: Vec<(String, Repeat)> = (0..rng.gen_range(0..3))
        .map(|i| {
            (
                format!("r{i}"),
                *[Repeat::Single, Repeat::Count, Repeat::ForEach]
                    .choose(rng)
                    .expect("repeat"),
            )
        })
        .collect();
    for (name, r) in &resources {
        primary.push(resource_block(rng, name, *r, &scope, true));
    }
    let calls = rng.gen_range(0..2);
    for i in 0..calls {
        primary.push(Block {
            kind: "module",
            labels: vec![format!("m{i}")],
            attrs: vec![
                ("source".into(), Attr::Expr(Expr::Str("./leaf".into()))),
                ("x".into(), Attr::Expr(any(rng, &scope, 0))),
            ],
            blocks: Vec::new(),
        });
    }
    let outputs = rng.gen_range(1..4);
    let mut out_scope = scope.clone();
    for (name, _) in &resources {
        out_scope
            .refs
            .push((format!("terraform_data.{name}"), Kind::StrMap));
    }
    for i in 0..calls {
        out_scope.refs.push((format!("module.m{i}"), Kind::StrMap));
    }
    for i in 0..outputs {
        primary.push(Block {
            kind: "output",
            labels: vec![format!("o{i}")],
            attrs: vec![("value".into(), Attr::Expr(any(rng, &out_scope, 0)))],
            blocks: Vec::new(),
        });
    }

    // Overrides: each touches a random subset of what the primary declared.
    let mut override_names = vec![
        "override.tf",
        "a_override.tf",
        "override.tf.json",
        "b_override.tf.json",
        "z_override.tf",
    ];
    override_names.shuffle(rng);
    override_names.truncate(rng.gen_range(1..4));
    override_names.sort();
    let mut files = Vec::new();
    for name in override_names {
        let mut blocks = Vec::new();
        for v in &vars {
            if rng.gen_bool(0.4) {
                blocks.push(var_block(rng, v, false));
            }
        }
        if locals_n > 0 && rng.gen_bool(0.4) {
            let i = rng.gen_range(0..locals_n);
            // A local may only use what comes before it, to stay acyclic.
            let mut s = scope.clone();
            s.refs.retain(|(r, _)| {
                !r.starts_with("local.")
                    || r[6..]
                        .trim_start_matches('l')
                        .parse::<usize>()
                        .is_ok_and(|n| n < i)
            });
            blocks.push(Block {
                kind: "locals",
                labels: Vec::new(),
                attrs: vec![(format!("l{i}"), Attr::Expr(scalar(rng, &s, 0)))],
                blocks: Vec::new(),
            });
        }
        for (rname, r) in &resources {
            if rng.gen_bool(0.4) {
                blocks.push(resource_block(rng, rname, *r, &scope, false));
            }
        }
        for i in 0..calls {
            if rng.gen_bool(0.4) {
                blocks.push(Block {
                    kind: "module",
                    labels: vec![format!("m{i}")],
                    attrs: vec![("x".into(), Attr::Expr(any(rng, &scope, 0)))],
                    blocks: Vec::new(),
                });
            }
        }
        for i in 0..outputs {
            if rng.gen_bool(0.4) {
                let mut attrs = Vec::new();
                if rng.gen_bool(0.7) {
                    attrs.push(("value".into(), Attr::Expr(any(rng, &out_scope, 0))));
                }
                if rng.gen_bool(0.3) {
                    attrs.push(("description".into(), Attr::Expr(literal(rng, Kind::Str))));
                }
                if rng.gen_bool(0.3) {
                    attrs.push((
                        "sensitive".into(),
                        Attr::Expr(Expr::Bool(rng.gen_bool(0.5))),
                    ));
                }
                blocks.push(Block {
                    kind: "output",
                    labels: vec![format!("o{i}")],
                    attrs,
                    blocks: Vec::new(),
                });
            }
        }
        let syntax = if name.ends_with(".json") {
            Syntax::Json
        } else {
            Syntax::Native
        };
        files.push((name.to_string(), render(&blocks, syntax, "override")));
    }
    // Split the primary blocks over one or two files, native or JSON.
    let split = rng.gen_range(0..=primary.len());
    let (first, second) = primary.split_at(split);
    for (name, part) in [("main", first), ("more", second)] {
        if part.is_empty() {
            continue;
        }
        let (file, syntax) = if rng.gen_bool(0.3) {
            (format!("{name}.tf.json"), Syntax::Json)
        } else {
            (format!("{name}.tf"), Syntax::Native)
        };
        files.push((file, render(part, syntax, "primary")));
    }
    if switches::CHECK_DATA_SOURCES && rng.gen_bool(0.3) {
        // A check-scoped data source of the builtin provider: a missing state file is only
        // a warning, so the module still plans.
        files.push((
            "checks.tf".into(),
            "check \"c0\" {\n  data \"terraform_remote_state\" \"s\" {\n    backend = \"local\"\n    config = {\n      path = \"none.tfstate\"\n    }\n  }\n\n  assert {\n    condition     = data.terraform_remote_state.s.outputs == {}\n    error_message = \"no state\"\n  }\n}\n".into(),
        ));
    }
    // Terraform resolves `provider::terraform::` only through required_providers.
    if files
        .iter()
        .any(|(_, text)| text.contains("provider::terraform::"))
    {
        files.push((
            "providers.tf".into(),
            "terraform {\n  required_providers {\n    terraform = {\n      source = \"terraform.io/builtin/terraform\"\n    }\n  }\n}\n".into(),
        ));
    }
    Module { files }
}
