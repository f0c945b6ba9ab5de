//! The local values Terraform 1.15's `init` evaluates: its init graph keeps every node a
//! module call depends on (`TransformFilter` keeps the ancestors of each `nodeInstallModule`,
//! whose references are those of its `source`, `version` and every argument), so each local
//! a call reaches, directly or through other locals, is evaluated before the call is
//! installed. A reference to a local or an input variable the module does not declare is
//! then an error (`GetLocalValue`, `GetInputVariable`), and the graph walk skips whatever
//! depends on a local that failed: the local values after it and the module calls.
//!
//! Only those two errors are modelled; a local failing otherwise is taken as evaluated.

use crate::collections::{SortedMap, SortedSet};
use crate::config::model::{Attribute, Block, Value};
use crate::config::variables::expression_reference_spans;
use crate::config::Module;
use crate::diag::{Diagnostic, Diagnostics, Pos, Range};
use crate::gotext::suggest::name_suggestion;

/// Whether a local value evaluated, or failed (itself, or one it reads, so it was skipped).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Evaluated,
    Failed,
}

/// A module's locals as `init` evaluates them for its module calls.
pub(super) struct InitLocals {
    /// The locals some call reaches that failed or were skipped.
    failed: SortedSet<String>,
}

impl InitLocals {
    /// Evaluates the locals `module`'s calls reach, reporting their errors to `diags` in
    /// declaration order. `incomplete` holds the texts of files Terraform decodes more of
    /// than `module` has: a name written there may be declared for Terraform, so a
    /// reference to it is taken as evaluated.
    pub(super) fn evaluate(
        module: &Module,
        incomplete: &[String],
        diags: &mut Diagnostics,
    ) -> InitLocals {
        let locals = declared_locals(module);
        let vars: Vec<&str> = module
            .blocks_of("variable")
            .filter_map(|b| b.labels.first().map(String::as_str))
            .collect();
        let mut reached = SortedSet::new();
        let mut todo: Vec<String> = module.blocks_of("module").flat_map(call_locals).collect();
        while let Some(name) = todo.pop() {
            let Some(attr) = locals.get(&name) else {
                continue;
            };
            if reached.insert(name) {
                todo.extend(local_refs(attr));
            }
        }
        let mut outcomes: SortedMap<String, Outcome> = SortedMap::new();
        let mut found = Vec::new();
        let known = Known {
            locals: &locals,
            vars: &vars,
            incomplete,
        };
        for name in locals.keys().filter(|n| reached.contains(*n)) {
            outcome(name, &known, &mut outcomes, &mut found, 0);
        }
        // Declaration order, as the locals were written.
        found.sort_by_key(|(at, _): &(usize, Vec<Diagnostic>)| *at);
        for (_, d) in found {
            diags.extend(d);
        }
        InitLocals {
            failed: outcomes
                .iter()
                .filter(|(_, o)| **o == Outcome::Failed)
                .map(|(n, _)| n.clone())
                .collect(),
        }
    }

    /// Whether the walk skips `call`: a local it reads failed.
    pub(super) fn skips(&self, call: &Block) -> bool {
        call_locals(call).any(|n| self.failed.contains(&n))
    }
}

/// Locals by name, the first definition of each (a second is a loading error already), with
/// the order they were written in.
fn declared_locals(module: &Module) -> SortedMap<String, (usize, &Attribute)> {
    let mut out = SortedMap::new();
    let attrs = module.blocks_of("locals").flat_map(|b| b.body.attributes());
    for (i, a) in attrs.enumerate() {
        if out.get(&a.name).is_none() {
            out.insert(a.name.clone(), (i, a));
        }
    }
    out
}

/// The locals a module call's arguments read (HCL's `JustAttributes`: nested blocks aside).
fn call_locals(call: &Block) -> impl Iterator<Item = String> + '_ {
    call.body
        .attributes()
        .flat_map(|a| refs(a).into_iter())
        .filter(|(path, _)| path[0] == "local")
        .filter_map(|(mut path, _)| (path.len() > 1).then(|| path.swap_remove(1)))
}

fn local_refs(attr: &(usize, &Attribute)) -> Vec<String> {
    refs(attr.1)
        .into_iter()
        .filter(|(path, _)| path[0] == "local")
        .filter_map(|(mut path, _)| (path.len() > 1).then(|| path.swap_remove(1)))
        .collect()
}

/// An argument's references, each with its range when known: a native value's, or the
/// one hclsyntax kept around a placeholder (which Terraform evaluates all the same); none
/// for JSON.
fn refs(a: &Attribute) -> Vec<(Vec<String>, Option<Range>)> {
    match &a.value {
        Value::Native { expr, .. } => expression_reference_spans(expr)
            .into_iter()
            .map(|(path, span)| (path, a.sub_range(span)))
            .collect(),
        Value::Unknown(p) => {
            let Some(k) = p.kept.as_deref() else {
                return Vec::new();
            };
            // hcl-edit refuses the trailing spaces a blanked end leaves.
            let Ok(expr) = hcl_edit::parser::parse_expr(k.shown.trim_end()) else {
                return Vec::new();
            };
            let at = |shown: usize| {
                let written = k.written_at(shown);
                pos_in(&a.expr_range.start, &k.text, written)
            };
            expression_reference_spans(&expr)
                .into_iter()
                .map(|(path, span)| {
                    let range = Range {
                        filename: a.expr_range.filename.clone(),
                        start: at(span.start),
                        end: at(span.end),
                    };
                    (path, Some(range))
                })
                .collect()
        }
        Value::Json(_) => Vec::new(),
    }
}

/// The position `rel` bytes into `text`, which starts at `base`.
fn pos_in(base: &Pos, text: &str, rel: usize) -> Pos {
    let rel = rel.min(text.len());
    let before = text.get(..rel).unwrap_or(text);
    let lines = before.matches('\n').count();
    let column = match before.rfind('\n') {
        Some(i) => before[i + 1..].chars().count() + 1,
        None => base.column + before.chars().count(),
    };
    Pos {
        line: base.line + lines,
        column,
        byte: base.byte + rel,
    }
}

/// What a module declares, as far as tflock holds it.
struct Known<'k, 'm> {
    locals: &'k SortedMap<String, (usize, &'m Attribute)>,
    vars: &'k [&'m str],
    incomplete: &'k [String],
}

impl Known<'_, '_> {
    /// Whether `name` is surely not declared: not here, nor written in a file Terraform
    /// decodes more of.
    fn surely_undeclared(&self, declared: bool, name: &str) -> bool {
        !declared && !self.incomplete.iter().any(|text| text.contains(name))
    }
}

/// How local `name` fares, the locals it reads first (a cycle, Terraform's error
/// elsewhere, counts as evaluated).
fn outcome(
    name: &str,
    known: &Known<'_, '_>,
    outcomes: &mut SortedMap<String, Outcome>,
    found: &mut Vec<(usize, Vec<Diagnostic>)>,
    depth: usize,
) -> Outcome {
    if let Some(o) = outcomes.get(name) {
        return *o;
    }
    let Some(&(at, attr)) = known.locals.get(name) else {
        return Outcome::Evaluated;
    };
    if depth > known.locals.len() {
        return Outcome::Evaluated;
    }
    // Marked first, so a cycle ends here.
    outcomes.insert(name.to_string(), Outcome::Evaluated);
    let refs = refs(attr);
    let upstream_failed = refs
        .iter()
        .filter(|(path, _)| path[0] == "local" && path.len() > 1)
        .filter(|(path, _)| known.locals.get(&path[1]).is_some())
        .fold(false, |failed, (path, _)| {
            outcome(&path[1], known, outcomes, found, depth + 1) == Outcome::Failed || failed
        });
    if upstream_failed {
        outcomes.insert(name.to_string(), Outcome::Failed);
        return Outcome::Failed;
    }
    let local_names: Vec<&str> = known.locals.keys().map(String::as_str).collect();
    let mut own = Vec::new();
    for (path, span) in &refs {
        let Some(target) = path.get(1) else {
            continue;
        };
        let d = match path[0].as_str() {
            "local" if known.surely_undeclared(known.locals.get(target).is_some(), target) => {
                undeclared_local(target, &local_names)
            }
            "var" if known.surely_undeclared(known.vars.contains(&target.as_str()), target) => {
                undeclared_variable(target, known.vars)
            }
            _ => continue,
        };
        own.push(match span {
            Some(r) => d.with_range(r.clone()),
            None => d,
        });
    }
    if own.is_empty() {
        return Outcome::Evaluated;
    }
    found.push((at, own));
    outcomes.insert(name.to_string(), Outcome::Failed);
    Outcome::Failed
}

fn undeclared_local(name: &str, declared: &[&str]) -> Diagnostic {
    let hint = name_suggestion(name, declared)
        .map(|s| format!(" Did you mean {s:?}?"))
        .unwrap_or_default();
    Diagnostic::error(
        "Reference to undeclared local value",
        format!("A local value with the name {name:?} has not been declared.{hint}"),
    )
}

fn undeclared_variable(name: &str, declared: &[&str]) -> Diagnostic {
    let hint = match name_suggestion(name, declared) {
        Some(s) => format!(" Did you mean {s:?}?"),
        None => format!(" This variable can be declared with a variable {name:?} {{}} block."),
    };
    Diagnostic::error(
        "Reference to undeclared input variable",
        format!("An input variable with the name {name:?} has not been declared.{hint}"),
    )
}
