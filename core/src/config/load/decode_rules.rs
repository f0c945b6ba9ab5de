//! The structural rules Terraform's block decoders add to their schemas (`decodeResourceBlock`,
//! `decodeOutputBlock`, `decodeCheckBlock`, ...): blocks that may appear once, reserved names,
//! meta-arguments that exclude each other. Each is reported where and as Terraform reports it.

use crate::config::load::cty::{Ty, Val};
use crate::config::load::names::BAD_IDENTIFIER;
use crate::config::load::static_eval::decode;
use crate::config::model::Block;
use crate::config::variables::{reference_paths, references};
use crate::diag::{Diagnostic, Diagnostics};
use crate::flavor::Flavor;
use crate::hcl_syntax::valid_identifier;

/// Checks top-level block `b` of one file.
pub fn check_block(b: &Block, flavor: Flavor, override_file: bool, diags: &mut Diagnostics) {
    if !override_file {
        conditions(b, diags);
    }
    match b.kind.as_str() {
        "resource" | "data" | "ephemeral" => resource(b, flavor, diags),
        "module" => escaping_and_reserved(
            b,
            "module",
            &["lifecycle", "locals", "provider"],
            flavor,
            diags,
        ),
        "provider" => provider(b, flavor, diags),
        "output" => {
            for p in unlabelled(b, "postcondition") {
                diags.push(
                    Diagnostic::error(
                        "Postconditions are not allowed",
                        "Output values can only have preconditions, not postconditions.",
                    )
                    .with_range(p.kind_range()),
                );
            }
        }
        "check" if !override_file => check(b, diags),
        "import" if flavor == Flavor::Terraform => import(b, flavor, override_file, diags),
        _ => {}
    }
}

fn resource(b: &Block, flavor: Flavor, diags: &mut Diagnostics) {
    let kind = b.kind.as_str();
    if flavor == Flavor::Terraform {
        if let (Some(_), Some(for_each)) = (b.body.attribute("count"), b.body.attribute("for_each"))
        {
            diags.push(
                Diagnostic::error(
                    r#"Invalid combination of "count" and "for_each""#,
                    r#"The "count" and "for_each" meta-arguments are mutually-exclusive, only one should be used to be explicit about the number of resources to be created."#,
                )
                .with_range(for_each.name_range()),
            );
        }
    }
    let mut lifecycles = unlabelled(b, "lifecycle");
    if let Some(first) = lifecycles.next() {
        for again in lifecycles {
            diags.push(
                Diagnostic::error(
                    "Duplicate lifecycle block",
                    format!(
                        "This resource already has a lifecycle block at {}.",
                        first.origin.decl
                    ),
                )
                .with_range(again.origin.decl.clone()),
            );
        }
        if kind != "resource" && flavor == Flavor::Terraform {
            unmanaged_lifecycle(first, kind, diags);
        }
    }
    if kind == "resource" && flavor == Flavor::Terraform {
        provisioners(b, diags);
    }
    if kind == "resource" {
        let mut connections = unlabelled(b, "connection");
        if let Some(first) = connections.next() {
            for again in connections {
                diags.push(
                    Diagnostic::error(
                        "Duplicate connection block",
                        format!(
                            "This resource already has a connection block at {}.",
                            first.origin.decl
                        ),
                    )
                    .with_range(again.origin.decl.clone()),
                );
            }
        }
    }
    escaping_and_reserved(b, kind, &["locals"], flavor, diags);
}

/// `decodeProvisionerBlock`: the provisioners Terraform no longer has, and what a
/// destroy-time provisioner (and the resource's connection, when one exists) may refer to.
fn provisioners(b: &Block, diags: &mut Diagnostics) {
    let mut any_destroy = false;
    for p in b.body.blocks_of("provisioner") {
        let ([ty], [ty_range]) = (p.labels.as_slice(), p.label_ranges.as_slice()) else {
            continue;
        };
        if matches!(
            ty.as_str(),
            "chef" | "habitat" | "puppet" | "salt-masterless"
        ) {
            diags.push(
                Diagnostic::error(
                    format!("The {ty:?} provisioner has been removed"),
                    format!("The {ty:?} provisioner was deprecated in Terraform 0.13.4 has been removed from Terraform. Visit https://learn.hashicorp.com/collections/terraform/provision for alternatives to using provisioners that are a better fit for the Terraform workflow."),
                )
                .with_range(ty_range.clone()),
            );
            continue;
        }
        let destroy = p
            .body
            .attribute("when")
            .and_then(|a| keyword_or_quoted(&a.value))
            .is_some_and(|k| k == "destroy");
        if !destroy {
            continue;
        }
        any_destroy = true;
        let own = p
            .body
            .attributes()
            .filter(|a| !matches!(a.name.as_str(), "when" | "on_failure"));
        only_self_refs(own, diags);
        if let Some(c) = unlabelled(p, "connection").next() {
            only_self_refs(c.body.attributes(), diags);
        }
    }
    if any_destroy {
        if let Some(c) = unlabelled(b, "connection").next() {
            only_self_refs(c.body.attributes(), diags);
        }
    }
}

/// `onlySelfRefs`: one error per reference other than `self`, `path`, `terraform`,
/// `count.index` and `each.key`.
fn only_self_refs<'a>(
    attrs: impl Iterator<Item = &'a crate::config::model::Attribute>,
    diags: &mut Diagnostics,
) {
    for a in attrs {
        for path in reference_paths(&a.value) {
            let second = path.get(1).map(String::as_str);
            let valid = match path[0].as_str() {
                "self" | "path" | "terraform" => true,
                "count" => second == Some("index"),
                "each" => second == Some("key"),
                _ => false,
            };
            if !valid {
                diags.push(
                    Diagnostic::error(
                        "Invalid reference from destroy provisioner",
                        "Destroy-time provisioners and their connection configurations may only reference attributes of the related resource, via 'self', 'count.index', or 'each.key'.\n\nReferences to other resources during the destroy phase can cause dependency cycles and interact poorly with create_before_destroy.",
                    )
                    .with_range(a.expr_range.clone()),
                );
            }
        }
    }
}

/// `hcl.ExprAsKeyword` after `shimTraversalInString`: a bare name, or one in quotes (the
/// 0.11 form); in JSON, a string holding one.
fn keyword_or_quoted(v: &crate::config::model::Value) -> Option<String> {
    use crate::config::model::Value;
    match v {
        Value::Unknown(_) => None,
        Value::Native { expr, .. } => match expr.as_ref() {
            hcl_edit::expr::Expression::Variable(v) => Some(v.as_str().to_string()),
            e => crate::config::model::literal_native_str(e),
        },
        Value::Json(n) => n.as_str().map(str::to_string),
    }
}

/// A data or ephemeral resource's lifecycle takes only conditions.
fn unmanaged_lifecycle(lifecycle: &Block, kind: &str, diags: &mut Diagnostics) {
    let (what, blocks) = if kind == "data" {
        ("data", "data resources")
    } else {
        ("ephemeral", "ephemeral resources")
    };
    for a in lifecycle.body.attributes() {
        if is_lifecycle_argument(&a.name) {
            diags.push(
                Diagnostic::error(
                    format!("Invalid {what} resource lifecycle argument"),
                    format!("The lifecycle argument {:?} is defined only for managed resources (\"resource\" blocks), and is not valid for {blocks}.", a.name),
                )
                .with_range(a.name_range()),
            );
        }
    }
    for nb in unlabelled(lifecycle, "action_trigger") {
        diags.push(
            Diagnostic::error(
                format!("Invalid {what} resource lifecycle nested block"),
                format!("The lifecycle nested block {:?} is defined only for managed resources (\"resource\" blocks), and is not valid for {blocks}.", nb.kind),
            )
            .with_range(nb.kind_range()),
        );
    }
}

fn is_lifecycle_argument(name: &str) -> bool {
    matches!(
        name,
        "create_before_destroy" | "prevent_destroy" | "ignore_changes" | "replace_triggered_by"
    )
}

fn provider(b: &Block, flavor: Flavor, diags: &mut Diagnostics) {
    provider_alias(b, diags);
    let reserved: &[&str] = match flavor {
        Flavor::Terraform => &["count", "depends_on", "for_each", "source"],
        Flavor::OpenTofu => &["count", "depends_on", "source"],
    };
    for name in reserved {
        if let Some(a) = b.body.attribute(name) {
            diags.push(
                Diagnostic::error(
                    "Reserved argument name in provider block",
                    format!(
                        "The provider argument name {name:?} is reserved for use by {} in a future version.",
                        product(flavor)
                    ),
                )
                .with_range(a.name_range()),
            );
        }
    }
    escaping_and_reserved(b, "provider", &["lifecycle", "locals"], flavor, diags);
}

/// The alias of a `provider` or `mock_provider` block (`decodeProviderBlock`,
/// `decodeMockProviderBlock`): decoded as a string with no evaluation context, and what
/// that gives (an empty string when decoding fails) must be an identifier.
pub(super) fn provider_alias(b: &Block, diags: &mut Diagnostics) {
    let Some(a) = b.body.attribute("alias") else {
        return;
    };
    let alias = match decode(a, &Ty::String) {
        Some((found, decoded)) => {
            diags.extend(found);
            match decoded {
                Some(Val::String(s) | Val::Number(s)) => s,
                Some(Val::Bool(v)) => v.to_string(),
                _ => String::new(),
            }
        }
        // A JSON file's value, or an expression the static evaluator does not model.
        None => match a.literal_str() {
            Some(s) => s,
            None => return,
        },
    };
    if !valid_identifier(&alias) {
        diags.push(Diagnostic::error(
            "Invalid provider configuration alias",
            format!("An alias must be a valid name. {BAD_IDENTIFIER}"),
        ));
    }
}

/// One `_` escaping block at most, and no block of a type reserved for the future.
fn escaping_and_reserved(
    b: &Block,
    kind: &str,
    reserved: &[&str],
    flavor: Flavor,
    diags: &mut Diagnostics,
) {
    // Terraform's ephemeral decoder words its escaping error as the data decoder does.
    let (meaning, owner) = match kind {
        "module" => ("module input variables", "module"),
        "provider" => ("provider-specific", "provider"),
        "resource" => ("resource-type-specific", "resource"),
        _ => ("resource-type-specific", "data"),
    };
    let mut escapes = unlabelled(b, "_");
    if let Some(first) = escapes.next() {
        for again in escapes {
            diags.push(
                Diagnostic::error(
                    "Duplicate escaping block",
                    format!("The special block type \"_\" can be used to force particular arguments to be interpreted as {meaning} rather than as meta-arguments, but each {owner} block can have only one such block. The first escaping block was at {}.", first.origin.decl),
                )
                .with_range(again.origin.decl.clone()),
            );
        }
    }
    // In OpenTofu a module's lifecycle block is real (`enabled`).
    let real = |t: &str| flavor == Flavor::OpenTofu && kind == "module" && t == "lifecycle";
    for nb in b.body.blocks() {
        // A module's `provider` block takes one label; the others none. A block with
        // other labels was refused by the schema already.
        let labels = usize::from(nb.kind == "provider");
        if reserved.contains(&nb.kind.as_str()) && !real(&nb.kind) && nb.labels.len() == labels {
            diags.push(
                Diagnostic::error(
                    format!("Reserved block type name in {kind} block"),
                    format!(
                        "The block type name {:?} is reserved for use by {} in a future version.",
                        nb.kind,
                        product(flavor)
                    ),
                )
                .with_range(nb.kind_range()),
            );
        }
    }
}

fn check(b: &Block, diags: &mut Diagnostics) {
    // Only a data source that decoded counts as the check's; those after it are too many.
    let kept = crate::config::load::names::kept_check_data(b);
    let mut data = b
        .body
        .blocks_of("data")
        .filter(|d| d.labels.len() == 2)
        .skip(kept.unwrap_or(usize::MAX));
    if let Some(first) = data.next() {
        for again in data {
            diags.push(
                Diagnostic::error(
                    "Multiple data resource blocks",
                    format!(
                        "This check block already has a data resource defined at {}.",
                        first.origin.decl
                    ),
                )
                .with_range(again.origin.decl.clone()),
            );
        }
    }
    // Only asserts that decode cleanly count (an unknown name in one makes it not count, and
    // so does a condition that refers to nothing: `Invalid assert expression`).
    let decodes = |a: &&Block| {
        a.body.blocks().next().is_none()
            && a.body
                .attributes()
                .all(|x| matches!(x.name.as_str(), "condition" | "error_message"))
            && a.body
                .attribute("condition")
                .is_some_and(|c| !references(&c.value).is_empty())
            && a.body.attribute("error_message").is_some()
    };
    if !unlabelled(b, "assert").any(|a| decodes(&a)) {
        diags.push(
            Diagnostic::error(
                "Zero assert blocks",
                "Check blocks must have at least one assert block.",
            )
            .with_range(b.origin.decl.clone()),
        );
    }
}

/// An import names its object by `id` or by `identity`, exactly one of them. Terraform
/// judges that only once `to` has been read, and reads `to` only when the body fit its
/// schema.
fn import(b: &Block, flavor: Flavor, override_file: bool, diags: &mut Diagnostics) {
    if let Some(to) = b.body.attribute("to") {
        // A JSON `to` is a reference in a string (`unwrapJSONRefExpr`): any other JSON
        // value is refused, whatever else the block holds.
        let json = match &to.value {
            crate::config::model::Value::Json(n) => Some(n),
            _ => None,
        };
        if json.is_some_and(|n| n.as_str().is_none()) {
            diags.push(
                Diagnostic::error(
                    "Invalid reference expression",
                    "A single reference string is required.",
                )
                .with_range(to.expr_range.clone()),
            );
            return;
        }
        let mut schema = Diagnostics::new();
        super::content::check_block(b, flavor, override_file, &mut schema);
        if schema.has_errors() {
            return;
        }
        // One that does not parse stops the decoder too (with errors not modelled here).
        let parses = |n: &&crate::config::load::json::Node| {
            n.as_str()
                .is_some_and(crate::config::requirements::reference::is_traversal)
        };
        if json.is_some_and(|n| !parses(&n)) {
            return;
        }
        if matches!(to.value, crate::config::model::Value::Unknown(_)) {
            placeholder_target(to, diags);
        } else {
            type_only_target(to, diags);
        }
    }
    let detail = match (b.body.attribute("id"), b.body.attribute("identity")) {
        (None, None) => "At least one of 'id' or 'identity' must be specified.",
        (Some(_), Some(_)) => "Only one of 'id' or 'identity' can be specified.",
        _ => return,
    };
    diags.push(Diagnostic::error("Invalid import block", detail).with_range(b.origin.decl.clone()));
}

/// An import `to` hclsyntax kept as a placeholder after its syntax error (`to = x.%s`):
/// no reference (`hcl.AbsTraversalForExpr`), so the address Terraform reads is the zero
/// one, which is no managed resource.
fn placeholder_target(to: &crate::config::model::Attribute, diags: &mut Diagnostics) {
    diags.push(
        Diagnostic::error("Invalid expression", super::static_refs::NOT_A_REFERENCE)
            .with_range(to.expr_range.clone()),
    );
    diags.push(
        Diagnostic::error(
            "Invalid import address",
            "Only managed resources can be imported.",
        )
        .with_range(to.origin.decl.clone()),
    );
}

/// An import `to` naming only a resource type (`to = web`, `to = web[each.key]`: Terraform
/// drops the indexes to find the resource): `ParseAbsResourceInstance` wants a type and a
/// name, and what it returns is then no managed resource. Other malformed addresses are
/// not modelled.
fn type_only_target(to: &crate::config::model::Attribute, diags: &mut Diagnostics) {
    use hcl_edit::expr::{Expression, TraversalOperator};
    use hcl_edit::Span;
    let Some(x) = super::static_eval::Expr::of(to) else {
        return;
    };
    let root = match x.expr {
        Expression::Variable(_) => x.expr,
        Expression::Traversal(t)
            if matches!(t.expr, Expression::Variable(_))
                && t.operators
                    .iter()
                    .all(|o| matches!(o.value(), TraversalOperator::Index(_))) =>
        {
            &t.expr
        }
        _ => return,
    };
    let Expression::Variable(name) = root else {
        return;
    };
    if matches!(
        name.as_str(),
        "module" | "data" | "resource" | "ephemeral" | "list" | "action"
    ) {
        return;
    }
    diags.push(
        Diagnostic::error(
            "Invalid address",
            "Resource specification must include a resource type and name.",
        )
        .with_range(x.range(root.span())),
    );
    diags.push(
        Diagnostic::error(
            "Invalid import address",
            "Only managed resources can be imported.",
        )
        .with_range(to.origin.decl.clone()),
    );
}

/// `decodeCheckRuleBlock`: a condition must refer to something, and a variable's validation
/// to the variable itself.
fn conditions(b: &Block, diags: &mut Diagnostics) {
    let rules: Vec<&Block> = match b.kind.as_str() {
        "variable" => unlabelled(b, "validation").collect(),
        "output" => unlabelled(b, "precondition").collect(),
        "resource" | "data" | "ephemeral" => unlabelled(b, "lifecycle")
            .take(1)
            .flat_map(|lc| unlabelled(lc, "precondition").chain(unlabelled(lc, "postcondition")))
            .collect(),
        "check" => unlabelled(b, "assert").collect(),
        _ => Vec::new(),
    };
    for rule in rules {
        let Some(condition) = rule.body.attribute("condition") else {
            if let Some(own) = resource_address(b) {
                self_references(rule, &own, diags);
            }
            continue;
        };
        let refs = references(&condition.value);
        if refs.is_empty() {
            diags.push(
                Diagnostic::error(
                    format!("Invalid {} expression", rule.kind),
                    "The condition expression must refer to at least one object from elsewhere in the configuration, or else its result would not be checking anything.",
                )
                .with_range(condition.expr_range.clone()),
            );
        }
        if let Some(own) = resource_address(b) {
            self_references(rule, &own, diags);
        }
        if let (true, Some(name)) = (b.kind == "variable", b.labels.first()) {
            let own = |(root, attr): &(String, Option<String>)| {
                root == "var" && attr.as_deref() == Some(name.as_str())
            };
            if !refs.iter().any(own) {
                diags.push(
                    Diagnostic::error(
                        "Invalid variable validation condition",
                        format!("The condition for variable {name:?} must refer to var.{name} in order to test incoming values."),
                    )
                    .with_range(condition.expr_range.clone()),
                );
            }
        }
    }
}

/// The address of resource block `b` (`aws_instance.web`, `data.aws_ami.x`), for the
/// blocks whose conditions may not refer to themselves.
fn resource_address(b: &Block) -> Option<String> {
    let [ty, name] = b.labels.as_slice() else {
        return None;
    };
    match b.kind.as_str() {
        "resource" => Some(format!("{ty}.{name}")),
        "data" | "ephemeral" => Some(format!("{}.{ty}.{name}", b.kind)),
        _ => None,
    }
}

/// The resource address a reference names (`addrs.ParseRef`), if it names one.
fn referenced_resource(path: &[String]) -> Option<String> {
    let at = |i: usize| path.get(i).map(String::as_str);
    match at(0)? {
        "data" | "ephemeral" => Some(format!("{}.{}.{}", path[0], at(1)?, at(2)?)),
        "resource" => Some(format!("{}.{}", at(1)?, at(2)?)),
        "count" | "each" | "local" | "module" | "path" | "self" | "terraform" | "var"
        | "template" | "lazy" | "arg" | "action" | "list" | "plan" | "state" | "output"
        | "check" | "run" => None,
        root => Some(format!("{root}.{}", at(1)?)),
    }
}

/// `validateSelfReferences`: a resource's condition and error message may not refer to the
/// resource itself (`self` is how they do); one error per expression that does.
fn self_references(rule: &Block, own: &str, diags: &mut Diagnostics) {
    for name in ["condition", "error_message"] {
        let Some(a) = rule.body.attribute(name) else {
            continue;
        };
        let refers = reference_paths(&a.value)
            .iter()
            .any(|p| referenced_resource(p).as_deref() == Some(own));
        if refers {
            diags.push(
                Diagnostic::error(
                    format!("Invalid reference in {}", rule.kind),
                    format!("Configuration for {own} may not refer to itself."),
                )
                .with_range(a.expr_range.clone()),
            );
        }
    }
}

/// Nested blocks of type `kind` that the schema let through (these types take no labels).
fn unlabelled<'a>(b: &'a Block, kind: &'a str) -> impl Iterator<Item = &'a Block> + 'a {
    b.body.blocks_of(kind).filter(|nb| nb.labels.is_empty())
}

fn product(flavor: Flavor) -> &'static str {
    match flavor {
        Flavor::Terraform => "Terraform",
        Flavor::OpenTofu => "OpenTofu",
    }
}
