//! Reading `.terraform.lock.hcl`: Terraform's `decodeLocksFromHCL` over an hcl-edit tree,
//! with the same checks, messages and order of diagnostics.

use super::content::{content, open_brace, AttrSchema, BlockSchema, Schema};
use super::model::{Locks, ProviderLock};
use super::nesting::{too_deep_at, MAX_NESTING};
use super::spans::Source;
use super::static_value::{decode_string, span_of, start_span};
use crate::addrs::Provider;
use crate::collections::SortedMap;
use crate::hash::PackageHash;
use crate::version::{Constraints, Version};
use crate::{Diagnostic, Diagnostics, Flavor, LineIndex, Range};
use hcl_edit::expr::Expression;
use hcl_edit::structure::{Attribute, Block};
use hcl_edit::Span;

/// How to read a lock file.
#[derive(Debug, Clone)]
pub struct LoadOptions {
    /// The name diagnostics give the file (Terraform uses `.terraform.lock.hcl`).
    pub filename: String,
    /// Whose address defaults and message texts to use.
    pub flavor: Flavor,
    /// The product version named in the `module` block warning (`Terraform v<this>`).
    pub product_version: String,
}

/// The product version tflock claims in messages that name one (the Terraform release
/// whose lock file rules it follows).
pub const DEFAULT_TERRAFORM_VERSION: &str = "1.14.0";
/// The OpenTofu release tflock's OpenTofu flavour follows.
pub const DEFAULT_OPENTOFU_VERSION: &str = "1.10.0";

impl LoadOptions {
    /// Options for `filename` in `flavor`, naming the default product version.
    pub fn new(filename: impl Into<String>, flavor: Flavor) -> LoadOptions {
        let product_version = match flavor {
            Flavor::Terraform => DEFAULT_TERRAFORM_VERSION,
            Flavor::OpenTofu => DEFAULT_OPENTOFU_VERSION,
        };
        LoadOptions {
            filename: filename.into(),
            flavor,
            product_version: product_version.to_string(),
        }
    }
}

/// The file name Terraform reads and writes.
pub const LOCK_FILE_NAME: &str = ".terraform.lock.hcl";

const ROOT_SCHEMA: Schema = Schema {
    attrs: &[],
    blocks: &[
        BlockSchema {
            ty: "provider",
            labels: &["source_addr"],
        },
        // Reserved for a future module lock: warned about, otherwise ignored.
        BlockSchema {
            ty: "module",
            labels: &["path"],
        },
    ],
};

const PROVIDER_SCHEMA: Schema = Schema {
    attrs: &[
        AttrSchema {
            name: "version",
            required: true,
        },
        AttrSchema {
            name: "constraints",
            required: false,
        },
        AttrSchema {
            name: "hashes",
            required: false,
        },
    ],
    blocks: &[],
};

/// Parses and validates lock-file bytes as Terraform reads them: a UTF-8 byte order mark is
/// skipped and bytes that are not UTF-8 stand for U+FFFD, so a stray byte in a comment is
/// harmless, as it is to Terraform.
pub fn load_locks_bytes(bytes: &[u8], opts: &LoadOptions) -> (Locks, Diagnostics) {
    // hclsyntax reads the bytes themselves: a stray byte inside a string is its error.
    let syntax = crate::hcl_syntax::diagnostics(bytes, &opts.filename);
    if syntax.iter().any(Diagnostic::is_error) {
        return (Locks::new(), Diagnostics(syntax));
    }
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    decode_locks(&String::from_utf8_lossy(bytes), opts)
}

/// Parses and validates a lock file. Locks that fail validation are left out (or, for
/// body-level problems, kept with what could be decoded, as Terraform does); any error in
/// the diagnostics means the result must not be trusted.
pub fn load_locks(text: &str, opts: &LoadOptions) -> (Locks, Diagnostics) {
    let syntax = crate::hcl_syntax::diagnostics(text.as_bytes(), &opts.filename);
    if syntax.iter().any(Diagnostic::is_error) {
        return (Locks::new(), Diagnostics(syntax));
    }
    decode_locks(text, opts)
}

/// Decodes a lock file hclsyntax accepts.
fn decode_locks(text: &str, opts: &LoadOptions) -> (Locks, Diagnostics) {
    let lines = LineIndex::new(text);
    let src = Source {
        filename: &opts.filename,
        text,
        lines: &lines,
    };
    let mut locks = Locks::new();
    let mut diags = Diagnostics::new();
    if let Some(at) = too_deep_at(text) {
        diags.push(
            Diagnostic::error(
                "Invalid HCL syntax",
                format!("Brackets are nested more than {MAX_NESTING} levels deep here; a dependency lock file never nests that deeply."),
            )
            .with_range(src.range(at..at + 1)),
        );
        return (locks, diags);
    }
    let body = match hcl_edit::parser::parse_body(text) {
        Ok(body) => body,
        Err(err) => {
            diags.push(syntax_error(&src, &err));
            return (locks, diags);
        }
    };

    let (root, root_diags) = content(&src, &body, 0, &ROOT_SCHEMA);
    diags.extend(root_diags);

    let mut seen: SortedMap<Provider, Range> = SortedMap::new();
    let mut seen_module = false;
    for block in root.blocks {
        match block.ident.as_str() {
            "provider" => {
                let (lock, block_diags) = decode_provider(&src, block, opts.flavor);
                diags.extend(block_diags);
                let Some(lock) = lock else { continue };
                if let Some(first) = seen.get(lock.addr()) {
                    diags.push(
                        Diagnostic::error(
                            "Duplicate provider lock",
                            format!(
                                "This lockfile already declared a lock for provider {} at {first}.",
                                lock.addr()
                            ),
                        )
                        .with_range(ident_range(&src, block)),
                    );
                    continue;
                }
                seen.insert(lock.addr().clone(), def_range(&src, block));
                locks.insert(lock);
            }
            _ if !seen_module => {
                seen_module = true;
                let product = opts.flavor.product();
                diags.push(
                    Diagnostic::warning(
                        "Dependency locks for modules are not yet supported",
                        format!(
                            "{product} v{} only supports dependency locks for providers, not for modules. This configuration may be intended for a later version of {product} that also supports dependency locks for modules.",
                            opts.product_version
                        ),
                    )
                    .with_range(ident_range(&src, block)),
                );
            }
            _ => {}
        }
    }
    (locks, diags)
}

/// What hcl-edit alone refuses (hclsyntax's own errors were reported before it ran): its
/// description under one summary.
fn syntax_error(src: &Source<'_>, err: &hcl_edit::parser::Error) -> Diagnostic {
    let at = err.location().offset();
    let summary = if err.message().contains("redefined attribute") {
        "Attribute redefined"
    } else {
        "Invalid HCL syntax"
    };
    Diagnostic::error(summary, format!("{}.", err.message().trim_end_matches('.')))
        .with_range(src.range(at..at))
}

fn ident_range(src: &Source<'_>, block: &Block) -> Range {
    src.range(block.ident.span().unwrap_or(0..0))
}

/// HCL's `DefRange`: from the block type to the end of the last label.
fn def_range(src: &Source<'_>, block: &Block) -> Range {
    let start = block.ident.span().map_or(0, |s| s.start);
    let end = block
        .labels
        .last()
        .and_then(|l| l.span())
        .or_else(|| block.ident.span())
        .map_or(start, |s| s.end);
    src.range(start..end)
}

fn decode_provider(
    src: &Source<'_>,
    block: &Block,
    flavor: Flavor,
) -> (Option<ProviderLock>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let Some(label) = block.labels.first() else {
        return (None, diags);
    };
    let raw_addr = label.as_str();
    let label_range = src.range(label.span().unwrap_or(0..0));
    let invalid = |detail: String| {
        Diagnostic::error("Invalid provider source address", detail).with_range(label_range.clone())
    };
    let addr = match Provider::parse(raw_addr, flavor) {
        Ok(addr) => addr,
        Err(_) => {
            diags.push(invalid("The provider source address for a provider lock must be a valid, fully-qualified address of the form \"hostname/namespace/type\".".to_string()));
            return (None, diags);
        }
    };
    if addr.is_builtin_for(flavor) {
        diags.push(invalid(format!(
            "Cannot lock a version for built-in provider {addr}. Built-in providers are bundled inside {} itself, so you can't select a version for them independently of the {} release you are currently running.",
            flavor.product(),
            flavor.product()
        )));
        return (None, diags);
    }
    if addr.is_legacy() {
        diags.push(invalid(format!(
            "Provider source address {addr} is a special provider that is not eligible for dependency locking."
        )));
        return (None, diags);
    }
    let canonical = addr.to_string();
    if canonical != raw_addr {
        diags.push(
            Diagnostic::error(
                "Non-normalized provider source address",
                format!(
                    "The provider source address for this provider lock must be written as {}, the fully-qualified and normalized form.",
                    crate::gotext::quote(&canonical)
                ),
            )
            .with_range(label_range),
        );
        return (None, diags);
    }

    let brace = open_brace(src, block);
    let (body, body_diags) = content(src, &block.body, brace, &PROVIDER_SCHEMA);
    diags.extend(body_diags);

    let version = decode_version(src, &addr, body.attr("version"), flavor, &mut diags);
    let constraints = decode_constraints(src, &addr, body.attr("constraints"), flavor, &mut diags);
    let hashes = decode_hashes(src, body.attr("hashes"), &mut diags);
    let lock = ProviderLock::with_hashes_in_order(addr, version, constraints, hashes);
    (Some(lock), diags)
}

/// go-versions' `Unspecified` (0.0.0), what Terraform stores when the version is unusable.
fn unspecified_version() -> Version {
    Version::default()
}

fn decode_version(
    src: &Source<'_>,
    addr: &Provider,
    attr: Option<&Attribute>,
    flavor: Flavor,
    diags: &mut Vec<Diagnostic>,
) -> Version {
    let Some(attr) = attr else {
        return unspecified_version();
    };
    let range = src.range(span_of(&attr.value));
    let raw = match decode_string(src, &attr.value, true) {
        Err(d) => {
            diags.extend(d);
            return unspecified_version();
        }
        Ok(None) => {
            diags.push(
                Diagnostic::error(
                    "Missing required argument",
                    "A provider lock block must contain a \"version\" argument.",
                )
                .with_range(range),
            );
            return unspecified_version();
        }
        Ok(Some(raw)) => raw,
    };
    let version = match Version::parse_flavored(&raw, flavor) {
        Ok(v) => v,
        Err(err) => {
            diags.push(
                Diagnostic::error(
                    "Invalid provider version number",
                    format!("The selected version number for provider {addr} is invalid: {err}."),
                )
                .with_range(range.clone()),
            );
            unspecified_version()
        }
    };
    let canon = version.to_string();
    if canon != raw {
        diags.push(
            Diagnostic::error(
                "Invalid provider version number",
                format!(
                    "The selected version number for provider {addr} must be written in normalized form: {}.",
                    crate::gotext::quote(&canon)
                ),
            )
            .with_range(range),
        );
    }
    version
}

fn decode_constraints(
    src: &Source<'_>,
    addr: &Provider,
    attr: Option<&Attribute>,
    flavor: Flavor,
    diags: &mut Vec<Diagnostic>,
) -> Option<Constraints> {
    let attr = attr?;
    let range = src.range(span_of(&attr.value));
    let raw = match decode_string(src, &attr.value, false) {
        Ok(Some(raw)) => raw,
        Ok(None) => return None,
        Err(d) => {
            diags.extend(d);
            return None;
        }
    };
    let parsed = match Constraints::parse(&raw, flavor) {
        Ok(c) => Some(c),
        Err(err) => {
            diags.push(
                Diagnostic::error(
                    "Invalid provider version constraints",
                    format!(
                        "The recorded version constraints for provider {addr} are invalid: {err}."
                    ),
                )
                .with_range(range.clone()),
            );
            None
        }
    };
    let canon = parsed
        .as_ref()
        .map(Constraints::canonical)
        .unwrap_or_default();
    if canon != raw {
        diags.push(
            Diagnostic::error(
                "Invalid provider version constraints",
                format!(
                    "The recorded version constraints for provider {addr} must be written in normalized form: {}.",
                    crate::gotext::quote(&canon)
                ),
            )
            .with_range(range),
        );
    }
    parsed
}

fn decode_hashes(
    src: &Source<'_>,
    attr: Option<&Attribute>,
    diags: &mut Vec<Diagnostic>,
) -> Vec<PackageHash> {
    let Some(attr) = attr else {
        return Vec::new();
    };
    let expr = &attr.value;
    let range = src.range(span_of(expr));
    let Expression::Array(items) = expr else {
        diags.push(
            Diagnostic::error(
                "Invalid expression",
                "A static list expression is required.",
            )
            .with_range(src.range(start_span(src, expr))),
        );
        return Vec::new();
    };
    if items.is_empty() {
        diags.push(
            Diagnostic::error(
                "Invalid provider hash set",
                "The \"hashes\" argument must either be omitted or contain at least one hash value.",
            )
            .with_range(range),
        );
        return Vec::new();
    }
    let mut hashes = Vec::with_capacity(items.len());
    for item in items.iter() {
        let raw = match decode_string(src, item, false) {
            Ok(Some(raw)) => raw,
            Ok(None) => continue,
            Err(d) => {
                diags.extend(d);
                continue;
            }
        };
        match PackageHash::parse(&raw) {
            Ok(h) => hashes.push(h),
            // Terraform points at the whole list, not the element.
            Err(err) => diags.push(
                Diagnostic::error(
                    "Invalid provider hash string",
                    format!(
                        "Cannot interpret {} as a provider hash: {err}.",
                        crate::gotext::quote(&raw)
                    ),
                )
                .with_range(range.clone()),
            ),
        }
    }
    hashes
}
