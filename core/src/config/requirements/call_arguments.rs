//! A module call's arguments against the variables its module declares, as `terraform init`
//! decodes them (Terraform 1.15's init graph, `ModuleVariableTransformer`): a variable
//! without a default must be given, every other argument must name a variable, and an
//! argument for a `const = true` variable must be known while `init` walks its graph
//! (`nodeModuleVariable.Execute`: "Const variables must be known").

use super::tree::ModuleTree;
use crate::config::input_values::is_const;
use crate::config::model::{Block, Item, Value};
use crate::config::schema::{module_schema, BodySchema};
use crate::diag::{Diagnostic, Diagnostics};
use crate::flavor::Flavor;
use crate::gotext::suggest::name_suggestion;

/// The argument errors of every module call in `tree` whose module loaded without an
/// error (Terraform's installer attaches no other), and the paths of the modules whose
/// calls had errors: Terraform goes no deeper below those.
pub fn check_call_arguments(tree: &ModuleTree, flavor: Flavor) -> (Diagnostics, Vec<String>) {
    let mut diags = Diagnostics::new();
    let mut stopped = Vec::new();
    walk(
        tree,
        module_schema(flavor),
        flavor,
        &mut diags,
        &mut stopped,
    );
    (diags, stopped)
}

/// `reserved`: what the module block itself takes (hidden from the variables' schema:
/// arguments by name, block types by type).
fn walk(
    tree: &ModuleTree,
    reserved: &BodySchema,
    flavor: Flavor,
    diags: &mut Diagnostics,
    stopped: &mut Vec<String>,
) {
    for child in tree.children.iter().filter(|c| c.installed()) {
        let name = child.path.rsplit("module.").next().unwrap_or_default();
        let call = tree
            .loaded
            .module
            .blocks_of("module")
            .find(|b| b.labels.first().map(String::as_str) == Some(name));
        let mut found = Diagnostics::new();
        if let Some(call) = call {
            check_call(call, &child.loaded.module, reserved, &mut found);
        }
        let failed = found.has_errors();
        diags.extend(found);
        // `const` variables are Terraform's; OpenTofu evaluates its module sources otherwise.
        if let Some(call) = call.filter(|_| flavor == Flavor::Terraform) {
            diags.extend(unknown_const_arguments(
                call,
                &tree.loaded.module,
                &child.loaded.module,
            ));
        }
        if failed {
            stopped.push(child.path.clone());
        } else {
            walk(child, reserved, flavor, diags, stopped);
        }
    }
}

fn check_call(
    call: &Block,
    child: &crate::config::Module,
    reserved: &BodySchema,
    diags: &mut Diagnostics,
) {
    let json = call.origin.file.ends_with(".json");
    let variables: Vec<(&str, bool)> = child
        .blocks_of("variable")
        .filter_map(|v| {
            let name = v.labels.first()?;
            Some((name.as_str(), v.body.attribute("default").is_none()))
        })
        .collect();
    let given = |n: &str| call.body.attribute(n).is_some();
    // A call an override merged into: only the base's arguments fill required variables,
    // and nothing is unexpected (Terraform reads the merged body with `PartialContent`).
    let base_given = |n: &str| match &call.base_arguments {
        Some(names) => names.iter().any(|m| m == n),
        None => given(n),
    };
    for (name, required) in &variables {
        if *required && !base_given(name) {
            diags.push(
                Diagnostic::error(
                    "Missing required argument",
                    format!("The argument {name:?} is required, but no definition was found."),
                )
                .with_range(call.missing_item_range()),
            );
        }
    }
    let unset: Vec<&str> = variables
        .iter()
        .map(|(n, _)| *n)
        .filter(|n| !given(n))
        .collect();
    if call.base_arguments.is_some() {
        return;
    }
    for item in &call.body.items {
        match item {
            Item::Attribute(a) => {
                if reserved.attrs.iter().any(|(n, _)| *n == a.name)
                    || variables.iter().any(|(n, _)| *n == a.name)
                {
                    continue;
                }
                let hint = name_suggestion(&a.name, &unset)
                    .map(|s| format!(" Did you mean {s:?}?"))
                    .unwrap_or_default();
                let (summary, detail) = if json {
                    let detail = format!("No argument or block type is named {:?}.{hint}", a.name);
                    ("Extraneous JSON object property", detail)
                } else {
                    let detail =
                        format!("An argument named {:?} is not expected here.{hint}", a.name);
                    ("Unsupported argument", detail)
                };
                diags.push(Diagnostic::error(summary, detail).with_range(a.name_range()));
            }
            Item::Block(b) => {
                if reserved.blocks.iter().any(|(t, _)| *t == b.kind) {
                    continue;
                }
                let hint = if variables.iter().any(|(n, _)| *n == b.kind) {
                    format!(" Did you mean to define argument {:?}? If so, use the equals sign to assign it a value.", b.kind)
                } else {
                    String::new()
                };
                let range = b.kind_range();
                diags.push(
                    Diagnostic::error(
                        "Unsupported block type",
                        format!("Blocks of type {:?} are not expected here.{hint}", b.kind),
                    )
                    .with_range(range),
                );
            }
        }
    }
}

/// The arguments `call` (a module block of `parent`) gives `const = true` variables of
/// `child` whose value `init`'s graph walk cannot know: it knows literals, `path.*`, `const`
/// variables and locals built from them, and nothing of other variables, resources, data
/// sources, module outputs or `terraform.workspace`. Only what is surely unknown is
/// reported (an expression tflock cannot judge, such as a function that ignores unknown
/// elements, passes).
fn unknown_const_arguments(
    call: &Block,
    parent: &crate::config::Module,
    child: &crate::config::Module,
) -> Diagnostics {
    let mut diags = Diagnostics::new();
    for var in child.blocks_of("variable").filter(|v| is_const(v)) {
        let Some(name) = var.labels.first() else {
            continue;
        };
        let Some(arg) = call.body.attribute(name) else {
            continue;
        };
        let Value::Native { expr, .. } = &arg.value else {
            continue;
        };
        if surely_unknown(expr, parent, 0) {
            diags.push(
                Diagnostic::error(
                    "Const variables must be known",
                    "Only a constant value can be passed into a constant module variable.",
                )
                .with_range(arg.expr_range.clone()),
            );
        }
    }
    diags
}

/// How deeply locals may refer to locals before tflock stops judging (a cycle is an error
/// elsewhere).
const MAX_LOCAL_DEPTH: usize = 32;

/// Whether `e`, written in `module`, is surely not wholly known during `init`'s walk.
pub(crate) fn surely_unknown(
    e: &hcl_edit::expr::Expression,
    module: &crate::config::Module,
    depth: usize,
) -> bool {
    use hcl_edit::expr::{BinaryOperator, Expression, ObjectKey, TraversalOperator};
    use hcl_edit::template::Element;
    if depth >= MAX_LOCAL_DEPTH {
        return false;
    }
    let any = |mut it: Box<dyn Iterator<Item = &hcl_edit::expr::Expression> + '_>| {
        it.any(|x| surely_unknown(x, module, depth))
    };
    match e {
        Expression::Parenthesis(p) => surely_unknown(p.inner(), module, depth),
        Expression::Array(items) => any(Box::new(items.iter())),
        Expression::Object(obj) => obj.iter().any(|(k, v)| {
            let key = match k {
                ObjectKey::Expression(k) => surely_unknown(k, module, depth),
                ObjectKey::Ident(_) => false,
            };
            key || surely_unknown(v.expr(), module, depth)
        }),
        Expression::StringTemplate(t) => t.iter().any(|el| match el {
            Element::Interpolation(i) => surely_unknown(&i.expr, module, depth),
            _ => false,
        }),
        Expression::HeredocTemplate(h) => h.template.iter().any(|el| match el {
            Element::Interpolation(i) => surely_unknown(&i.expr, module, depth),
            _ => false,
        }),
        Expression::UnaryOp(op) => surely_unknown(&op.expr, module, depth),
        Expression::BinaryOp(op) => {
            let (l, r) = (
                surely_unknown(&op.lhs_expr, module, depth),
                surely_unknown(&op.rhs_expr, module, depth),
            );
            // A known `false &&` or `true ||` may decide without the other side.
            match op.operator.value() {
                BinaryOperator::And | BinaryOperator::Or => l && r,
                _ => l || r,
            }
        }
        Expression::Conditional(c) => {
            surely_unknown(&c.cond_expr, module, depth)
                || (surely_unknown(&c.true_expr, module, depth)
                    && surely_unknown(&c.false_expr, module, depth))
        }
        Expression::FuncCall(f) => {
            // Functions that give a known result for unknown (or partly unknown) arguments.
            const TOLERANT: &[&str] = &["length", "try", "can", "type", "keys", "issensitive"];
            f.name.namespace.is_empty()
                && !TOLERANT.contains(&f.name.name.as_str())
                && any(Box::new(f.args.iter()))
        }
        Expression::ForExpr(f) => surely_unknown(&f.intro.collection_expr, module, depth),
        Expression::Traversal(t) => {
            let Expression::Variable(root) = &t.expr else {
                return surely_unknown(&t.expr, module, depth);
            };
            let attr = |i: usize| match t.operators.get(i).map(|o| o.value()) {
                Some(TraversalOperator::GetAttr(n)) => Some(n.as_str()),
                _ => None,
            };
            match root.as_str() {
                "var" => attr(0).is_some_and(|name| {
                    module
                        .blocks_of("variable")
                        .find(|v| v.labels.first().map(String::as_str) == Some(name))
                        .is_some_and(|v| !is_const(v))
                }),
                "local" => attr(0).is_some_and(|name| {
                    module
                        .blocks_of("locals")
                        .find_map(|b| b.body.attribute(name))
                        .is_some_and(|a| match &a.value {
                            Value::Unknown(_) => true,
                            Value::Native { expr, .. } => surely_unknown(expr, module, depth + 1),
                            Value::Json(_) => false,
                        })
                }),
                "module" => attr(0).is_some_and(|name| {
                    module
                        .blocks_of("module")
                        .any(|b| b.labels.first().map(String::as_str) == Some(name))
                }),
                "data" => declared(module, "data", attr(0), attr(1)),
                "terraform" => attr(0) == Some("workspace"),
                other => {
                    declared(module, "resource", Some(other), attr(0))
                        || declared(module, "ephemeral", Some(other), attr(0))
                }
            }
        }
        _ => false,
    }
}

/// Whether `module` declares a `kind` block labelled `ty`, `name`.
fn declared(
    module: &crate::config::Module,
    kind: &str,
    ty: Option<&str>,
    name: Option<&str>,
) -> bool {
    let (Some(ty), Some(name)) = (ty, name) else {
        return false;
    };
    module.blocks_of(kind).any(|b| {
        b.labels.first().map(String::as_str) == Some(ty)
            && b.labels.get(1).map(String::as_str) == Some(name)
    })
}
