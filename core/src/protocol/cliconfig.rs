//! The CLI configuration settings that steer provider installation (`.terraformrc`,
//! `.tofurc`): `provider_installation`, `host` service overrides, `credentials`, `plugin_cache_dir` and
//! `plugin_cache_may_break_dependency_lock_file`.
//!
//! Terraform reads this file with legacy HCL 1 and reports problems as position-less
//! diagnostics that quote `line:column`; we parse the HCL 2 native syntax (what these files
//! are written in in practice) with `hcl-edit` and reproduce those texts. Unknown arguments
//! are ignored, as HCL 1's decoder ignores them.

use crate::collections::SortedMap;
use crate::gotext::quote;

use hcl_edit::expr::{Expression, ObjectKey};
use hcl_edit::structure::{Block, Body, Structure};
use hcl_edit::Span;

use super::discovery::{Discovery, DiscoveryError};
use super::mirror::mirror_base_url;
use super::names::{hostname_for_comparison, normalize_hostname};
use super::patterns::{can_handle, ProviderPatterns};
use crate::{Diagnostic, Diagnostics, Flavor, Pos};

/// Where one installation method gets packages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MethodKind {
    /// The provider's origin registry.
    Direct,
    /// A local directory in the mirror layouts.
    FilesystemMirror {
        /// The directory, as written.
        path: String,
    },
    /// A network mirror.
    NetworkMirror {
        /// The base URL, as written.
        url: String,
    },
    /// An OCI registry mirror (OpenTofu only).
    OciMirror {
        /// The `repository_template`, as written.
        repository_template: String,
    },
}

/// One method block inside `provider_installation`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstallationMethod {
    /// The method and its location.
    pub kind: MethodKind,
    /// `include` patterns as written.
    pub include: Vec<String>,
    /// `exclude` patterns as written.
    pub exclude: Vec<String>,
    /// OpenTofu `download_retry_count` (direct and network_mirror).
    pub download_retry_count: Option<i64>,
    /// OpenTofu `trust_all_hashes` (network_mirror): record every platform's reported
    /// hashes once the current platform's package verified.
    pub trust_all_hashes: bool,
}

/// A `provider_installation` block.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProviderInstallation {
    /// Methods in priority order (dev_overrides excluded).
    pub methods: Vec<InstallationMethod>,
    /// `dev_overrides`: provider source string → local directory.
    pub dev_overrides: SortedMap<String, String>,
}

/// The installation-related CLI configuration.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CliConfig {
    /// `plugin_cache_dir`, before environment expansion.
    pub plugin_cache_dir: Option<String>,
    /// `plugin_cache_may_break_dependency_lock_file`.
    pub plugin_cache_may_break_dependency_lock_file: bool,
    /// `host "<name>" { services = {...} }`, keyed by the hostname as written.
    pub hosts: SortedMap<String, SortedMap<String, String>>,
    /// The `provider_installation` blocks (more than one is an error).
    pub provider_installation: Vec<ProviderInstallation>,
    /// `credentials "<host>" { token = "..." }`: the token per hostname as written.
    pub credentials: SortedMap<String, String>,
    /// tflock's own `tflock_platforms = ["linux_amd64", ...]`: the platforms `providers
    /// lock` and `mirror` use when none are given (Terraform and OpenTofu ignore it, as
    /// they ignore every key they do not know).
    pub tflock_platforms: Option<Vec<String>>,
    /// tflock's own `tflock_metadata_hashes = true`: `-metadata-hashes` for every
    /// `providers lock` and `init` (Terraform and OpenTofu ignore it).
    pub tflock_metadata_hashes: Option<bool>,
}

/// A checked installation source: patterns parsed, mirror URL validated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    /// The method and location.
    pub kind: MethodKind,
    /// Parsed include patterns.
    pub include: ProviderPatterns,
    /// Parsed exclude patterns.
    pub exclude: ProviderPatterns,
    /// OpenTofu `trust_all_hashes`.
    pub trust_all_hashes: bool,
}

impl Source {
    /// Whether this source may offer the (normalised) provider.
    pub fn can_handle(&self, hostname: &str, namespace: &str, type_: &str) -> bool {
        can_handle(&self.include, &self.exclude, hostname, namespace, type_)
    }

    /// [`Source::can_handle`] for a parsed provider address.
    pub fn can_handle_provider(&self, provider: &crate::addrs::Provider) -> bool {
        self.can_handle(&provider.hostname, &provider.namespace, &provider.r#type)
    }
}

/// HCL 1 prints positions as `line:column` (no file name: Terraform parses the text alone).
fn pos(src: &str, span: Option<std::ops::Range<usize>>) -> String {
    let p = Pos::from_offset(src, span.map_or(0, |s| s.start));
    format!("{}:{}", p.line, p.column)
}

fn sourceless(summary: &str, detail: String) -> Diagnostic {
    Diagnostic::error(summary, detail)
}

/// A string value, if the expression is a literal string.
/// HCL 1 has no templates: `"${HOME}/x"` is the literal text, which HCL 2 parses as a
/// template, so templates are read back from the source bytes.
fn expr_string(src: &str, e: &Expression) -> Option<String> {
    match e {
        Expression::String(s) => Some(s.value().to_string()),
        Expression::StringTemplate(t) => {
            let raw = src.get(t.span()?)?;
            let inner = raw.strip_prefix('"')?.strip_suffix('"')?;
            Some(unescape(inner))
        }
        _ => None,
    }
}

/// Undoes the string escapes HCL 1 knows (`\"`, `\\`, `\n`, `\t`, `\r`).
fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

fn expr_string_list(src: &str, e: &Expression) -> Option<Vec<String>> {
    match e {
        Expression::Array(a) => a.iter().map(|e| expr_string(src, e)).collect(),
        _ => None,
    }
}

fn object_key_string(src: &str, k: &ObjectKey) -> Option<String> {
    match k {
        ObjectKey::Ident(i) => Some(i.value().to_string()),
        ObjectKey::Expression(e) => expr_string(src, e),
    }
}

/// Reads the body of a method block into the arguments it may have. Errors are the HCL 1
/// decoder's complaint, without the surrounding sentence.
#[derive(Default)]
struct MethodArgs {
    path: Option<String>,
    url: Option<String>,
    repository_template: Option<String>,
    include: Vec<String>,
    exclude: Vec<String>,
    download_retry_count: Option<i64>,
    trust_all_hashes: bool,
}

/// An installation method argument of the wrong type (Terraform's HCL 1 decoder texts).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum MethodArgError {
    /// `path`, `url`, `repository_template`.
    #[error("{0}: expected a string")]
    String(&'static str),
    /// `include`, `exclude`.
    #[error("{0}: expected a list of strings")]
    List(&'static str),
    /// `download_retry_count`.
    #[error("download_retry_count: expected an integer")]
    Integer,
    /// `trust_all_hashes`.
    #[error("trust_all_hashes: expected a bool")]
    Bool,
}

fn read_method_args(src: &str, body: &Body) -> Result<MethodArgs, MethodArgError> {
    let mut args = MethodArgs::default();
    for attr in body.attributes() {
        let key = attr.key.value().as_str();
        let v = &attr.value;
        let want_string =
            |what: &'static str| expr_string(src, v).ok_or(MethodArgError::String(what));
        let want_list =
            |what: &'static str| expr_string_list(src, v).ok_or(MethodArgError::List(what));
        match key {
            "path" => args.path = Some(want_string("path")?),
            "url" => args.url = Some(want_string("url")?),
            "repository_template" => {
                args.repository_template = Some(want_string("repository_template")?)
            }
            "include" => args.include = want_list("include")?,
            "exclude" => args.exclude = want_list("exclude")?,
            "download_retry_count" => match v {
                Expression::Number(n) => {
                    args.download_retry_count =
                        Some(n.value().as_i64().ok_or(MethodArgError::Integer)?)
                }
                _ => return Err(MethodArgError::Integer),
            },
            "trust_all_hashes" => match v {
                Expression::Bool(b) => args.trust_all_hashes = *b.value(),
                _ => return Err(MethodArgError::Bool),
            },
            _ => {} // HCL 1's decoder ignores unknown keys
        }
    }
    Ok(args)
}

/// Terraform's warning when `TF_CLI_CONFIG_FILE` names a file that does not exist: it goes on
/// with an empty configuration.
pub fn missing_file(path: &str) -> Diagnostic {
    Diagnostic::warning(
        "Unable to open CLI configuration file",
        format!(
            "The CLI configuration file at {} does not exist.",
            quote(path)
        ),
    )
}

impl CliConfig {
    /// Parses CLI config text. `filename` names the file in the parse-error text.
    pub fn parse(src: &str, filename: &str, flavor: Flavor) -> (CliConfig, Diagnostics) {
        let mut diags = Diagnostics::new();
        let mut cfg = CliConfig::default();
        let (prepared, quoted_keys) = unquote_keys(src);
        // hcl-edit backtracks exponentially on some broken input (strings and
        // interpolations nested a dozen deep: 27 s for 1.6 KB, found by fuzzing); the port
        // of hclsyntax's parser is linear, so it refuses broken text first.
        if let Some(d) = crate::hcl_syntax::first_error(prepared.as_bytes(), filename) {
            let at = d
                .range
                .as_ref()
                .map_or((1, 1), |r| (r.start.line, r.start.column));
            diags.push(Diagnostic::error(
                format!(
                    "Error parsing {filename}: At {}:{}: {}",
                    at.0,
                    at.1,
                    d.summary.trim_end_matches('.')
                ),
                "",
            ));
            return (cfg, diags);
        }
        let body = match hcl_edit::parser::parse_body(&prepared) {
            Ok(b) => b,
            Err(e) => {
                let loc = e.location();
                diags.push(Diagnostic::error(
                    format!(
                        "Error parsing {filename}: At {}:{}: {}",
                        loc.line(),
                        loc.column(),
                        e.message()
                    ),
                    "",
                ));
                return (cfg, diags);
            }
        };
        for item in body.iter() {
            match item {
                Structure::Attribute(attr) => match attr.key.value().as_str() {
                    "plugin_cache_dir" => cfg.plugin_cache_dir = expr_string(src, &attr.value),
                    "plugin_cache_may_break_dependency_lock_file" => {
                        if let Expression::Bool(b) = &attr.value {
                            cfg.plugin_cache_may_break_dependency_lock_file = *b.value();
                        }
                    }
                    "tflock_platforms" => match expr_string_list(src, &attr.value) {
                        Some(list) => cfg.tflock_platforms = Some(list),
                        // Only tflock reads it, so a wrong value must not stop Terraform's
                        // own settings from working: a warning, and the setting is unused.
                        None => diags.push(Diagnostic::warning(
                            "Invalid tflock_platforms setting",
                            format!(
                                "The tflock_platforms setting at {} in {filename} must be a list of platform strings, like [\"linux_amd64\", \"darwin_arm64\"]; it is ignored.",
                                pos(src, attr.span())
                            ),
                        )),
                    },
                    "tflock_metadata_hashes" => match &attr.value {
                        Expression::Bool(b) => cfg.tflock_metadata_hashes = Some(*b.value()),
                        // As for tflock_platforms: a warning, and the setting is unused.
                        _ => diags.push(Diagnostic::warning(
                            "Invalid tflock_metadata_hashes setting",
                            format!(
                                "The tflock_metadata_hashes setting at {} in {filename} must be true or false; it is ignored.",
                                pos(src, attr.span())
                            ),
                        )),
                    },
                    "provider_installation" => diags.push(sourceless(
                        "Invalid provider_installation block",
                        format!(
                            "The provider_installation block at {} must not be introduced with an equals sign.",
                            pos(src, attr.span())
                        ),
                    )),
                    _ => {}
                },
                Structure::Block(block) => match block.ident.value().as_str() {
                    "host" => read_host(src, block, &quoted_keys, &mut cfg, &mut diags),
                    "credentials" => read_credentials(src, block, &mut cfg, &mut diags),
                    "provider_installation" => {
                        if let Some(pi) = read_provider_installation(src, block, &quoted_keys, flavor, &mut diags)
                        {
                            cfg.provider_installation.push(pi);
                        }
                    }
                    _ => {}
                },
            }
        }
        if cfg.provider_installation.len() > 1 {
            diags.push(Diagnostic::error(
                "No more than one provider_installation block may be specified",
                "",
            ));
        }
        for host in cfg.credentials.keys() {
            if let Err(e) = hostname_for_comparison(host) {
                diags.push(Diagnostic::error(
                    format!(
                        "The credentials {} block has an invalid hostname: {e}",
                        quote(host)
                    ),
                    "",
                ));
            }
        }
        for host in cfg.hosts.keys() {
            if let Err(e) = hostname_for_comparison(host) {
                diags.push(Diagnostic::error(
                    format!(
                        "The host {} block has an invalid hostname: {e}",
                        quote(host)
                    ),
                    "",
                ));
            }
        }
        (cfg, diags)
    }

    /// The installation sources in priority order, with patterns and mirror URLs checked
    /// (Terraform's `providerSourceForCLIConfigLocation` errors). `None` when the config
    /// has no `provider_installation` block (the implied default applies).
    pub fn sources(&self, flavor: Flavor) -> Result<Option<Vec<Source>>, Diagnostics> {
        let Some(pi) = self.provider_installation.first() else {
            return Ok(None);
        };
        let default_host = flavor.default_registry_host();
        let mut diags = Diagnostics::new();
        let mut out = Vec::new();
        for m in &pi.methods {
            if let MethodKind::NetworkMirror { url } = &m.kind {
                if let Err(d) = mirror_base_url(url) {
                    diags.push(*d);
                    continue;
                }
            }
            let include = match ProviderPatterns::parse(&m.include, default_host) {
                Ok(p) => p,
                Err(e) => {
                    diags.push(Diagnostic::error(
                        "Invalid provider source inclusion patterns",
                        format!("CLI config specifies invalid provider inclusion patterns: {e}."),
                    ));
                    continue;
                }
            };
            let exclude = match ProviderPatterns::parse(&m.exclude, default_host) {
                Ok(p) => p,
                Err(e) => {
                    diags.push(Diagnostic::error(
                        "Invalid provider source exclusion patterns",
                        format!("CLI config specifies invalid provider exclusion patterns: {e}."),
                    ));
                    continue;
                }
            };
            out.push(Source {
                kind: m.kind.clone(),
                include,
                exclude,
                trust_all_hashes: m.trust_all_hashes && flavor == Flavor::OpenTofu,
            });
        }
        if diags.has_errors() {
            Err(diags)
        } else {
            Ok(Some(out))
        }
    }

    /// The `host` block override for `hostname` (compared normalised), as a discovery result.
    pub fn host_override(&self, hostname: &str) -> Option<Result<Discovery, DiscoveryError>> {
        let want = normalize_hostname(hostname)?;
        let (given, services) = self
            .hosts
            .iter()
            .find(|(h, _)| normalize_hostname(h).as_deref() == Some(want.as_str()))?;
        Some(Discovery::from_host_override(given, services.clone()))
    }

    /// `plugin_cache_dir` with `$NAME`/`${NAME}` expanded from `env` (Go's `os.ExpandEnv`;
    /// unset names expand to nothing).
    pub fn plugin_cache_dir_expanded(
        &self,
        env: impl Fn(&str) -> Option<String>,
    ) -> Option<String> {
        self.plugin_cache_dir
            .as_deref()
            .filter(|s| !s.is_empty())
            .map(|s| expand_env(s, &env))
    }
}

fn expand_env(s: &str, env: &impl Fn(&str) -> Option<String>) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find('$') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        if let Some(inner) = after.strip_prefix('{') {
            if let Some(end) = inner.find('}') {
                out.push_str(&env(&inner[..end]).unwrap_or_default());
                rest = &inner[end + 1..];
                continue;
            }
            // Go drops a lone "${" with no closing brace.
            rest = inner;
            continue;
        }
        let n = after
            .char_indices()
            .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_'))
            .map_or(after.len(), |(j, _)| j);
        if n == 0 {
            out.push('$');
            rest = after;
        } else {
            out.push_str(&env(&after[..n]).unwrap_or_default());
            rest = &after[n..];
        }
    }
    out.push_str(rest);
    out
}

/// HCL 1 allows quoted attribute names (`"hashicorp/null" = "/dir"` in `dev_overrides`,
/// `"providers.v1" = "..."` in `services { }`); HCL 2 does not. Each such key at the start
/// of a line is replaced by a placeholder identifier of the same byte length (so positions
/// stay right) and the returned map gives the original name back.
fn unquote_keys(src: &str) -> (String, SortedMap<String, String>) {
    let mut out = String::with_capacity(src.len());
    let mut map = SortedMap::new();
    for line in src.split_inclusive('\n') {
        let indent = line.len() - line.trim_start().len();
        let rest = &line[indent..];
        let replaced = rest.strip_prefix('"').and_then(|after| {
            let end = after.find('"')?;
            let key = &after[..end];
            let tail = &after[end + 1..];
            let t = tail.trim_start();
            let is_assign = t.starts_with('=') && !t.starts_with("==");
            if !is_assign || key.contains('\\') || key.contains("${") {
                return None;
            }
            // `_q<n>` padded with `_` to the quoted key's length (key + 2 quotes).
            let mut ph = format!("_q{}", map.len());
            let width = key.len() + 2;
            if ph.len() > width {
                return None;
            }
            while ph.len() < width {
                ph.push('_');
            }
            map.insert(ph.clone(), key.to_string());
            Some(format!("{}{ph}{tail}", &line[..indent]))
        });
        match replaced {
            Some(l) => out.push_str(&l),
            None => out.push_str(line),
        }
    }
    (out, map)
}

/// The attribute name as written, undoing [`unquote_keys`].
fn key_text(key: &str, quoted: &SortedMap<String, String>) -> String {
    quoted.get(key).cloned().unwrap_or_else(|| key.to_string())
}

/// The hostname label of a `credentials` or `host` block (`kind`), or an error in `diags`
/// when the block has none.
fn hostname_label(src: &str, block: &Block, kind: &str, diags: &mut Diagnostics) -> Option<String> {
    let Some(label) = block.labels.first() else {
        diags.push(Diagnostic::error(
            format!(
                "Error parsing CLI config: {kind} block at {} needs a hostname label",
                pos(src, block.span())
            ),
            "",
        ));
        return None;
    };
    Some(match label {
        hcl_edit::structure::BlockLabel::Ident(i) => i.value().to_string(),
        hcl_edit::structure::BlockLabel::String(s) => s.value().to_string(),
    })
}

/// `credentials "<host>" { token = "..." }` (other arguments are ignored).
fn read_credentials(src: &str, block: &Block, cfg: &mut CliConfig, diags: &mut Diagnostics) {
    let Some(name) = hostname_label(src, block, "credentials", diags) else {
        return;
    };
    if let Some(token) = block
        .body
        .attributes()
        .find(|a| a.key.value().as_str() == "token")
        .and_then(|a| expr_string(src, &a.value))
    {
        cfg.credentials.insert(name, token);
    }
}

fn read_host(
    src: &str,
    block: &Block,
    quoted: &SortedMap<String, String>,
    cfg: &mut CliConfig,
    diags: &mut Diagnostics,
) {
    let Some(name) = hostname_label(src, block, "host", diags) else {
        return;
    };
    let mut services = SortedMap::new();
    // `services = { ... }` (HCL 2 style) or `services { ... }` (HCL 1 allows both).
    let mut collect = |k: String, v: Option<String>| {
        if let Some(v) = v {
            services.insert(k, v);
        }
    };
    for item in block.body.iter() {
        match item {
            Structure::Attribute(a) if a.key.value().as_str() == "services" => {
                if let Expression::Object(obj) = &a.value {
                    for (k, v) in obj.iter() {
                        if let Some(k) = object_key_string(src, k) {
                            collect(key_text(&k, quoted), expr_string(src, v.expr()));
                        }
                    }
                }
            }
            Structure::Block(b) if b.ident.value().as_str() == "services" => {
                for a in b.body.attributes() {
                    collect(key_text(a.key.value(), quoted), expr_string(src, &a.value));
                }
            }
            _ => {}
        }
    }
    cfg.hosts.insert(name, services);
}

fn read_provider_installation(
    src: &str,
    block: &Block,
    quoted: &SortedMap<String, String>,
    flavor: Flavor,
    diags: &mut Diagnostics,
) -> Option<ProviderInstallation> {
    let at = pos(src, block.span());
    if !block.labels.is_empty() {
        diags.push(sourceless(
            "Invalid provider_installation block",
            format!("The provider_installation block at {at} must not have any labels."),
        ));
    }
    let mut pi = ProviderInstallation::default();
    for item in block.body.iter() {
        let method = match item {
            Structure::Attribute(_) => {
                diags.push(sourceless(
                    "Invalid provider_installation method block",
                    format!("The items inside the provider_installation block at {at} must all be blocks."),
                ));
                continue;
            }
            Structure::Block(b) => b,
        };
        if !method.labels.is_empty() {
            diags.push(sourceless(
                "Invalid provider_installation method block",
                format!("The blocks inside the provider_installation block at {at} may not have any labels."),
            ));
        }
        let kind_str = method.ident.value().as_str();
        let method_at = pos(src, method.span());
        let invalid = |e: String| {
            sourceless(
                "Invalid provider_installation method block",
                format!("Invalid {kind_str} block at {at}: {e}."),
            )
        };
        let kind = match kind_str {
            "direct" | "filesystem_mirror" | "network_mirror" => {
                let args = match read_method_args(src, &method.body) {
                    Ok(a) => a,
                    Err(e) => {
                        diags.push(invalid(e.to_string()));
                        continue;
                    }
                };
                let kind = match kind_str {
                    "direct" => MethodKind::Direct,
                    "filesystem_mirror" => match args.path.clone().filter(|p| !p.is_empty()) {
                        Some(path) => MethodKind::FilesystemMirror { path },
                        None => {
                            diags.push(invalid("\"path\" argument is required".to_string()));
                            continue;
                        }
                    },
                    _ => match args.url.clone().filter(|u| !u.is_empty()) {
                        Some(url) => MethodKind::NetworkMirror { url },
                        None => {
                            diags.push(invalid("\"url\" argument is required".to_string()));
                            continue;
                        }
                    },
                };
                let tofu = flavor == Flavor::OpenTofu;
                let retries_allowed = tofu && kind_str != "filesystem_mirror";
                pi.methods.push(InstallationMethod {
                    kind,
                    include: args.include,
                    exclude: args.exclude,
                    download_retry_count: args.download_retry_count.filter(|_| retries_allowed),
                    trust_all_hashes: tofu && kind_str == "network_mirror" && args.trust_all_hashes,
                });
                continue;
            }
            "oci_mirror" if flavor == Flavor::OpenTofu => {
                let args = match read_method_args(src, &method.body) {
                    Ok(a) => a,
                    Err(e) => {
                        diags.push(sourceless(
                            "Invalid provider_installation method block",
                            format!("Invalid oci_mirror block at {method_at}: {e}."),
                        ));
                        continue;
                    }
                };
                match args.repository_template.filter(|t| !t.is_empty()) {
                    Some(t) => {
                        pi.methods.push(InstallationMethod {
                            kind: MethodKind::OciMirror {
                                repository_template: t,
                            },
                            include: args.include,
                            exclude: args.exclude,
                            download_retry_count: None,
                            trust_all_hashes: false,
                        });
                    }
                    None => diags.push(sourceless(
                        "Invalid provider_installation method block",
                        format!("Invalid oci_mirror block at {method_at}: \"repository_template\" argument is required."),
                    )),
                }
                continue;
            }
            "dev_overrides" => {
                if !pi.methods.is_empty() {
                    diags.push(sourceless(
                        "Invalid provider_installation method block",
                        format!("The dev_overrides block at at {method_at} must appear before all other installation methods, because development overrides always have the highest priority."),
                    ));
                    continue;
                }
                for a in method.body.attributes() {
                    match expr_string(src, &a.value) {
                        Some(path) => {
                            pi.dev_overrides
                                .insert(key_text(a.key.value(), quoted), path);
                        }
                        None => diags.push(invalid(format!(
                            "{}: expected a string",
                            a.key.value().as_str()
                        ))),
                    }
                }
                continue;
            }
            other => other,
        };
        diags.push(sourceless(
            "Invalid provider_installation method block",
            format!(
                "Unknown provider installation method {} at {method_at}.",
                quote(kind)
            ),
        ));
    }
    Some(pi)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = r#"
plugin_cache_dir = "$HOME/.terraform.d/plugin-cache"
plugin_cache_may_break_dependency_lock_file = true

host "example.com" {
  services = {
    "providers.v1" = "https://providers.example.net/v1/"
  }
}

provider_installation {
  dev_overrides {
    "hashicorp/boop" = "/tmp/boop"
  }
  filesystem_mirror {
    path    = "/tmp/example1"
    include = ["example.com/*/*"]
  }
  network_mirror {
    url     = "https://tf-Mirror.example.com/"
    include = ["registry.terraform.io/*/*"]
    exclude = ["registry.Terraform.io/foobar/*"]
    download_retry_count = 2
    trust_all_hashes = true
  }
  direct {
    exclude = ["example.com/*/*"]
  }
}
"#;

    #[test]
    fn credentials_blocks_give_a_token_per_host_and_bad_hostnames_are_errors() {
        let src = "credentials \"app.terraform.io\" {\n  token = \"abc\"\n}\ncredentials \"Mirror.Example:8443\" {\n  token = \"m\"\n  other = 1\n}\ncredentials \"no token\" {}\n";
        let (cfg, diags) = CliConfig::parse(src, ".terraformrc", Flavor::Terraform);
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(cfg.credentials.len(), 2, "{:?}", cfg.credentials);
        assert_eq!(cfg.credentials["app.terraform.io"], "abc");
        assert_eq!(cfg.credentials["Mirror.Example:8443"], "m");
        let (_, diags) = CliConfig::parse(
            "credentials \"https://x\" {\n  token = \"t\"\n}\n",
            ".terraformrc",
            Flavor::Terraform,
        );
        assert_eq!(
            diags.iter().map(|d| d.summary.clone()).collect::<Vec<_>>(),
            vec!["The credentials \"https://x\" block has an invalid hostname: need just a hostname and optional port number, not a full URL".to_string()]
        );
    }

    #[test]
    fn parses_the_installation_settings() {
        let (cfg, diags) = CliConfig::parse(SAMPLE, ".terraformrc", Flavor::OpenTofu);
        assert!(diags.is_empty(), "{diags:?}");
        assert!(cfg.plugin_cache_may_break_dependency_lock_file);
        let home = |k: &str| (k == "HOME").then(|| "/home/u".to_string());
        assert_eq!(
            cfg.plugin_cache_dir_expanded(home).as_deref(),
            Some("/home/u/.terraform.d/plugin-cache")
        );
        let pi = &cfg.provider_installation[0];
        assert_eq!(pi.dev_overrides["hashicorp/boop"], "/tmp/boop");
        assert_eq!(pi.methods.len(), 3);
        assert_eq!(pi.methods[1].download_retry_count, Some(2));
        assert!(pi.methods[1].trust_all_hashes);
        let d = cfg.host_override("EXAMPLE.com").unwrap().unwrap();
        assert_eq!(
            d.providers_v1("example.com", Flavor::OpenTofu)
                .unwrap()
                .as_str(),
            "https://providers.example.net/v1/"
        );
        let sources = cfg.sources(Flavor::OpenTofu).unwrap().unwrap();
        assert!(sources[1].can_handle("registry.terraform.io", "hashicorp", "aws"));
        assert!(!sources[1].can_handle("registry.terraform.io", "foobar", "aws"));
        assert!(!sources[2].can_handle("example.com", "a", "b"));
    }

    #[test]
    fn terraform_ignores_opentofu_only_arguments() {
        let (cfg, diags) = CliConfig::parse(SAMPLE, ".terraformrc", Flavor::Terraform);
        assert!(diags.is_empty(), "{diags:?}");
        let m = &cfg.provider_installation[0].methods[1];
        assert!(!m.trust_all_hashes);
        assert_eq!(m.download_retry_count, None);
    }

    #[test]
    fn method_errors_use_terraform_texts() {
        let src = "provider_installation {\n  filesystem_mirror {\n  }\n  network_mirror {}\n  bogus {}\n  direct {}\n  dev_overrides {}\n}\n";
        let (_, diags) = CliConfig::parse(src, "x", Flavor::Terraform);
        let details: Vec<&str> = diags.iter().map(|d| d.detail.as_str()).collect();
        assert_eq!(
            details,
            vec![
                "Invalid filesystem_mirror block at 1:1: \"path\" argument is required.",
                "Invalid network_mirror block at 1:1: \"url\" argument is required.",
                "Unknown provider installation method \"bogus\" at 5:3.",
                "The dev_overrides block at at 7:3 must appear before all other installation methods, because development overrides always have the highest priority.",
            ]
        );
        assert!(diags
            .iter()
            .all(|d| d.summary == "Invalid provider_installation method block"));
    }

    #[test]
    fn oci_mirror_is_unknown_to_terraform() {
        let src = "provider_installation {\n  oci_mirror {\n    repository_template = \"r/${namespace}/${type}\"\n  }\n}\n";
        let (_, diags) = CliConfig::parse(src, "x", Flavor::Terraform);
        assert_eq!(
            diags.iter().next().unwrap().detail,
            "Unknown provider installation method \"oci_mirror\" at 2:3."
        );
    }

    #[test]
    fn bad_patterns_and_urls_surface_from_sources() {
        let src = "provider_installation {\n  network_mirror {\n    url = \"http://m.example/\"\n  }\n  direct {\n    include = [\"*/aws\"]\n  }\n}\n";
        let (cfg, diags) = CliConfig::parse(src, "x", Flavor::Terraform);
        assert!(diags.is_empty());
        let errs = cfg.sources(Flavor::Terraform).unwrap_err();
        let got: Vec<(&str, &str)> = errs
            .iter()
            .map(|d| (d.summary.as_str(), d.detail.as_str()))
            .collect();
        assert_eq!(got, vec![
            ("Invalid URL for provider installation source", "Cannot use \"http://m.example/\" as a URL for a network provider mirror: the mirror must be at an https: URL."),
            ("Invalid provider source inclusion patterns", "CLI config specifies invalid provider inclusion patterns: invalid provider matching pattern \"*/aws\": namespace can be a wildcard only if the provider type is also a wildcard."),
        ]);
    }

    #[test]
    fn two_blocks_and_equals_sign_are_errors() {
        let src = "provider_installation {}\nprovider_installation {}\n";
        let (_, diags) = CliConfig::parse(src, "x", Flavor::Terraform);
        assert_eq!(
            diags.iter().next().unwrap().summary,
            "No more than one provider_installation block may be specified"
        );
        let src = "provider_installation = {}\n";
        let (_, diags) = CliConfig::parse(src, "x", Flavor::Terraform);
        assert_eq!(
            diags.iter().next().unwrap().detail,
            "The provider_installation block at 1:1 must not be introduced with an equals sign."
        );
    }

    #[test]
    fn tflock_metadata_hashes_is_read_and_a_wrong_value_is_a_warning_naming_the_field() {
        let (cfg, diags) = CliConfig::parse(
            "tflock_metadata_hashes = true\n",
            "a.tfrc",
            Flavor::Terraform,
        );
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(cfg.tflock_metadata_hashes, Some(true));
        let (cfg, diags) = CliConfig::parse(
            "tflock_metadata_hashes = \"yes\"\n",
            "a.tfrc",
            Flavor::Terraform,
        );
        assert_eq!(cfg.tflock_metadata_hashes, None);
        assert_eq!(diags.0.len(), 1);
        assert_eq!(diags.0[0].severity, crate::diag::Severity::Warning);
        assert_eq!(diags.0[0].summary, "Invalid tflock_metadata_hashes setting");
        assert!(
            diags.0[0].detail.contains("at 1:1 in a.tfrc"),
            "{}",
            diags.0[0].detail
        );
    }

    #[test]
    fn tflock_platforms_is_read_and_a_wrong_value_is_a_warning_naming_file_and_field() {
        let (cfg, diags) = CliConfig::parse(
            "tflock_platforms = [\"linux_amd64\", \"locked\"]\n",
            "cli.tfrc",
            Flavor::Terraform,
        );
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(
            cfg.tflock_platforms.as_deref(),
            Some(&["linux_amd64".to_string(), "locked".to_string()][..])
        );
        let (cfg, diags) = CliConfig::parse(
            "tflock_platforms = \"linux_amd64\"\n",
            "cli.tfrc",
            Flavor::Terraform,
        );
        assert_eq!(cfg.tflock_platforms, None);
        assert_eq!(diags.0.len(), 1);
        assert_eq!(diags.0[0].severity, crate::diag::Severity::Warning);
        assert!(
            diags.0[0].detail.contains("at 1:1 in cli.tfrc"),
            "{}",
            diags.0[0].detail
        );
    }
}
