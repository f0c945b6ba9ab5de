//! Decoding a module's `required_providers` block into local names, addresses and constraint
//! strings, with Terraform's validation of each entry.

use crate::addrs::{parse_provider_part, Provider};
use crate::collections::SortedMap;
use crate::config::model::{Attribute, Value};
use crate::config::module::Module;
use crate::diag::{Diagnostic, Diagnostics, Range};
use crate::flavor::Flavor;
use crate::version::check_config_syntax;

/// One `required_providers` entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalProvider {
    /// The local name (the entry's key).
    pub name: String,
    /// The address (`source`, or implied from the name).
    pub provider: Provider,
    /// The `source` string as written.
    pub source: Option<String>,
    /// The version constraint string and the entry's range (Terraform's `DeclRange`).
    pub version: Option<(String, Range)>,
    /// `configuration_aliases`, as `name.alias` strings (`name` alone for the default).
    pub aliases: Vec<String>,
    /// The entry's value (Terraform's `DeclRange` for a required provider).
    pub range: Range,
}

/// The module's local provider names (from its merged `required_providers`).
pub fn local_providers(
    module: &Module,
    flavor: Flavor,
) -> (SortedMap<String, LocalProvider>, Diagnostics) {
    let mut out = SortedMap::new();
    let mut diags = Diagnostics::new();
    // The first required_providers block is the module's (merged override entries live in
    // it); Terraform decodes every file's blocks while loading them, so a duplicate block
    // (reported while assembling) still reports its entries' errors, constraints included.
    let blocks = module
        .blocks_of("terraform")
        .flat_map(|t| t.body.blocks_of("required_providers"));
    for (n, rp) in blocks.enumerate() {
        for a in rp.body.attributes() {
            if n > 0 {
                entry_errors(a, flavor, &mut diags);
            } else if let Some(lp) = decode_entry(a, flavor, &mut diags) {
                out.insert(lp.name.clone(), lp);
            }
        }
    }
    (out, diags)
}

/// What decoding an entry the module does not keep reports (one in a duplicate block, or
/// one an override replaced): Terraform decodes each file's entries (the first stage of
/// version constraint syntax among them) before assembling and merging them; the second
/// stage comes only when gathering the kept entries' requirements.
pub(crate) fn entry_errors(a: &Attribute, flavor: Flavor, diags: &mut Diagnostics) {
    decode_entry(a, flavor, diags);
}

fn err(summary: &str, detail: impl Into<String>, range: &Range) -> Diagnostic {
    Diagnostic::error(summary, detail).with_range(range.clone())
}

/// One property of an object-form entry.
struct Prop {
    key: String,
    /// The value, when a string literal.
    val: Option<String>,
    /// The value's elements, when a list.
    list: Option<Vec<String>>,
    /// Where the key was written (quotes included).
    key_range: Range,
    /// Where the value was written.
    range: Range,
    /// HCL's `StartRange` of the value, where `ExprList` refuses one that is no list.
    start_range: Range,
}

fn decode_entry(a: &Attribute, flavor: Flavor, diags: &mut Diagnostics) -> Option<LocalProvider> {
    let name = a.name.clone();
    let expr_range = a.expr_range.clone();
    // Legacy form: `aws = "~> 1.0"`.
    if let Some(s) = legacy_string(a) {
        let mut version = None;
        match s {
            Some(s) if check_config_syntax(&s) => version = Some((s, a.origin.decl.clone())),
            Some(_) => diags.push(err(
                "Invalid version constraint",
                "This string does not use correct version constraint syntax.",
                &expr_range,
            )),
            None => diags.push(err(
                "Invalid version constraint",
                format!("A string value is required for {name}."),
                &expr_range,
            )),
        }
        let part = match parse_provider_part(&name) {
            Ok(p) => p,
            Err(e) => {
                diags.push(err("Invalid provider name", e, &expr_range));
                return None;
            }
        };
        return Some(LocalProvider {
            provider: Provider::implied(&part, flavor),
            name,
            source: None,
            version,
            aliases: Vec::new(),
            range: a.expr_range.clone(),
        });
    }
    match parse_provider_part(&name) {
        Err(e) => {
            diags.push(err(
                "Invalid provider local name",
                format!("{name} is an invalid provider local name: {e}"),
                &expr_range,
            ));
            return None;
        }
        Ok(n) if n != name => {
            diags.push(err("Invalid provider local name", format!("Provider names must be normalized. Replace {name:?} with {n:?} to fix this error."), &expr_range));
            return None;
        }
        Ok(_) => {}
    }
    let Some(props) = object_props(a) else {
        diags.push(err(
            "Invalid required_providers object",
            "required_providers entries must be strings or objects.",
            &expr_range,
        ));
        return None;
    };
    let before = diags.0.len();
    let mut lp = LocalProvider {
        provider: Provider::implied(&name, flavor),
        name: name.clone(),
        source: None,
        version: None,
        aliases: Vec::new(),
        range: a.expr_range.clone(),
    };
    let mut have_source = false;
    for Prop {
        key,
        val,
        list,
        key_range,
        range,
        start_range,
    } in props
    {
        match key.as_str() {
            "version" => match val {
                Some(v) if check_config_syntax(&v) => lp.version = Some((v, a.origin.decl.clone())),
                Some(_) => diags.push(err(
                    "Invalid version constraint",
                    "This string does not use correct version constraint syntax.",
                    &range,
                )),
                None => diags.push(err(
                    "Invalid version constraint",
                    "Version must be specified as a string.",
                    &range,
                )),
            },
            "source" => match val {
                Some(v) => match Provider::parse(&v, flavor) {
                    Ok(p) => {
                        lp.provider = p;
                        lp.source = Some(v);
                        have_source = true;
                    }
                    Err(e) => diags.push(err(&e.summary, e.detail, &range)),
                },
                None => diags.push(err(
                    "Invalid source",
                    "Source must be specified as a string.",
                    &range,
                )),
            },
            "configuration_aliases" => {
                let Some(list) = list else {
                    diags.push(err(
                        "Invalid expression",
                        "A static list expression is required.",
                        &start_range,
                    ));
                    continue;
                };
                for alias in list {
                    // Terraform's ParseProviderConfigCompact: a name alone (the default
                    // configuration) or a name and an alias; steps after the alias are ignored.
                    let local = alias.split('.').next().unwrap_or_default();
                    if local == name {
                        lp.aliases.push(alias.clone());
                    } else if local.is_empty() || local.contains(['[', '"']) {
                        diags.push(err(
                            "Invalid configuration_aliases value",
                            "Configuration aliases can only contain references to local provider configuration names in the format of provider.alias",
                            &range,
                        ));
                    } else {
                        diags.push(err(
                            "Invalid configuration_aliases value",
                            format!("Configuration aliases must be prefixed with the provider name. Expected {name:?}, but found {local:?}."),
                            &range,
                        ));
                    }
                }
            }
            _ => {
                diags.push(err(
                    "Invalid required_providers object",
                    "required_providers objects can only contain \"version\", \"source\" and \"configuration_aliases\" attributes. To configure a provider, use a \"provider\" block.",
                    &key_range,
                ));
                break;
            }
        }
    }
    let _ = have_source;
    // Terraform drops the entry when any of its properties had an error.
    if diags.0.len() > before {
        return None;
    }
    Some(lp)
}

/// `Some(Some(s))` for a string literal, `Some(None)` for another primitive, `None` for
/// anything that is not a primitive (the object form).
pub(super) fn legacy_string(a: &Attribute) -> Option<Option<String>> {
    match &a.value {
        Value::Unknown(_) => None,
        Value::Native { expr, .. } => {
            if expr.is_object() || expr.is_array() {
                return None;
            }
            if let Some(s) = crate::config::model::literal_native_str(expr) {
                return Some(Some(s));
            }
            if expr.is_number() || expr.is_bool() {
                // Numbers and bools convert to strings in Terraform.
                return Some(Some(expr.to_string().trim().to_string()));
            }
            if expr.is_null() {
                return Some(None);
            }
            None
        }
        Value::Json(n) => {
            use crate::config::load::json::NodeKind;
            match &n.kind {
                NodeKind::String(s) => Some(Some(s.clone())),
                NodeKind::Number(t) => Some(Some(t.clone())),
                NodeKind::Bool(b) => Some(Some(b.to_string())),
                _ => None,
            }
        }
    }
}

fn object_props(a: &Attribute) -> Option<Vec<Prop>> {
    use hcl_edit::Span;
    match &a.value {
        Value::Unknown(_) => None,
        Value::Native { expr, .. } => {
            let obj = expr.as_object()?;
            let x = crate::config::load::static_eval::Expr::of(a)?;
            let mut out = Vec::new();
            for (k, v) in obj.iter() {
                let (key, key_span) = match k {
                    hcl_edit::expr::ObjectKey::Ident(i) => (i.as_str().to_string(), i.span()),
                    hcl_edit::expr::ObjectKey::Expression(e) => {
                        (crate::config::model::literal_native_str(e)?, e.span())
                    }
                };
                let ve = v.expr();
                let list = ve.as_array().map(|arr| {
                    arr.iter()
                        .map(|e| e.to_string().trim().to_string())
                        .collect()
                });
                // Terraform points at the property's value (`version = ""`'s `""`), and at
                // the key of one it does not know.
                out.push(Prop {
                    key,
                    val: crate::config::model::literal_native_str(ve),
                    list,
                    key_range: x.range(key_span),
                    range: x.range(ve.span()),
                    start_range: crate::config::load::static_eval::start_range(&x, ve)
                        .unwrap_or_else(|| x.range(ve.span())),
                });
            }
            Some(out)
        }
        Value::Json(n) => {
            let props = n.as_object()?;
            // Ranges inside the value need its text; without it, the whole value.
            let place = super::reference::Place {
                range: &a.expr_range,
                text: a.json_text.as_deref(),
            };
            let at = |span: &std::ops::Range<usize>| {
                let base = n.span.start;
                place.sub(span.start.saturating_sub(base)..span.end.saturating_sub(base))
            };
            Some(
                props
                    .iter()
                    .map(|p| Prop {
                        key: p.key.clone(),
                        val: p.value.as_str().map(str::to_string),
                        list: p.value.as_array().map(|arr| {
                            arr.iter()
                                .filter_map(|e| e.as_str().map(str::to_string))
                                .collect()
                        }),
                        key_range: at(&p.key_span),
                        range: at(&p.value.span),
                        start_range: at(&p.value.start_span()),
                    })
                    .collect(),
            )
        }
    }
}
