//! The module manifest `terraform init` / `tofu init` leaves in
//! `.terraform/modules/modules.json`: which directory holds each installed module call.
//!
//! Shape: `{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"vpc","Source":
//! "registry.terraform.io/terraform-aws-modules/vpc/aws","Version":"5.2.0","Dir":
//! ".terraform/modules/vpc"}]}`. Keys are the dotted module call path (`""` is the root,
//! `a.b` is `module.a.module.b`); `Dir` is relative to the working directory. Field names
//! match case-insensitively (Go's `encoding/json`); an empty file is an empty manifest.
//! Errors use Terraform's texts (`modsdir.ReadManifestSnapshot`).

use crate::diag::{Diagnostic, Range};
use crate::flavor::Flavor;
use crate::gotext::quote;
use crate::version::Version;

/// One installed module call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModuleRecord {
    /// Dotted call path (`""` for the root module).
    pub key: String,
    /// The source address as installed.
    pub source: String,
    /// The selected version, for registry modules.
    pub version: Option<String>,
    /// The directory, relative to the working directory, `/`-separated, normalised
    /// (`""` for the working directory itself).
    pub dir: String,
}

/// The parsed manifest.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ModuleManifest {
    /// Records in file order.
    pub records: Vec<ModuleRecord>,
}

fn field<'a>(
    obj: &'a serde_json::Map<String, serde_json::Value>,
    name: &str,
) -> Option<&'a serde_json::Value> {
    obj.get(name).or_else(|| {
        obj.iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v)
    })
}

/// Why `modules.json` could not be read (Go's `encoding/json` and modsdir texts).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum ManifestError {
    /// Not JSON (serde_json's text).
    #[error("error unmarshalling snapshot: {0}")]
    Json(String),
    /// A JSON value of the wrong kind where Go expected `go_type`.
    #[error("error unmarshalling snapshot: json: cannot unmarshal {found} into {go_type}")]
    Kind {
        /// The JSON kind found.
        found: &'static str,
        /// Go's description of the place (`Go struct field ... of type ...`).
        go_type: String,
    },
    /// A version that does not parse.
    #[error("invalid version {} for {key}: Malformed version: {version}", quote(.version))]
    Version {
        /// The record's key.
        key: String,
        /// The version as written.
        version: String,
    },
    /// Two records for one key.
    #[error("snapshot file contains two records for path {0}")]
    Duplicate(String),
}

fn kind_error(found: &serde_json::Value, go_type: impl Into<String>) -> ManifestError {
    ManifestError::Kind {
        found: json_kind(found),
        go_type: go_type.into(),
    }
}

fn string_field(
    obj: &serde_json::Map<String, serde_json::Value>,
    name: &str,
) -> Result<String, ManifestError> {
    match field(obj, name) {
        None | Some(serde_json::Value::Null) => Ok(String::new()),
        Some(serde_json::Value::String(s)) => Ok(s.clone()),
        Some(other) => Err(kind_error(
            other,
            format!("Go struct field record.Modules.{name} of type string"),
        )),
    }
}

fn json_kind(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "bool",
        serde_json::Value::Number(_) => "number",
        serde_json::Value::String(_) => "string",
        serde_json::Value::Array(_) => "array",
        serde_json::Value::Object(_) => "object",
    }
}

/// A manifest `Dir` as a normalised `/`-separated path relative to the working directory.
pub fn normalize_dir(dir: &str) -> String {
    let dir = dir.replace('\\', "/");
    let mut parts: Vec<&str> = Vec::new();
    for p in dir.split('/') {
        match p {
            "" | "." => {}
            ".." => {
                if parts.last().is_some_and(|l| *l != "..") {
                    parts.pop();
                } else {
                    parts.push("..");
                }
            }
            p => parts.push(p),
        }
    }
    parts.join("/")
}

impl ModuleManifest {
    /// Parses the manifest bytes. The error is Terraform's `failed to read module
    /// manifest` diagnostic.
    pub fn parse(bytes: &[u8]) -> Result<ModuleManifest, Box<Diagnostic>> {
        Self::parse_inner(bytes).map_err(|e| {
            Box::new(Diagnostic::error(
                "Failed to read module manifest",
                format!(
                    "The module manifest .terraform/modules/modules.json could not be read: {e}."
                ),
            ))
        })
    }

    fn parse_inner(bytes: &[u8]) -> Result<ModuleManifest, ManifestError> {
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(ModuleManifest::default());
        }
        let value: serde_json::Value =
            serde_json::from_slice(bytes).map_err(|e| ManifestError::Json(e.to_string()))?;
        let serde_json::Value::Object(top) = value else {
            return Err(kind_error(
                &value,
                "Go value of type modsdir.manifestSnapshotFile",
            ));
        };
        let list = match field(&top, "Modules") {
            None | Some(serde_json::Value::Null) => return Ok(ModuleManifest::default()),
            Some(serde_json::Value::Array(a)) => a,
            Some(other) => {
                return Err(kind_error(
                    other,
                    "Go struct field manifestSnapshotFile.Modules of type []modsdir.Record",
                ))
            }
        };
        let mut records: Vec<ModuleRecord> = Vec::new();
        // Keys seen so far: a scan of `records` per record made a large manifest quadratic.
        let mut keys = crate::collections::SortedSet::new();
        for item in list {
            let serde_json::Value::Object(obj) = item else {
                return Err(kind_error(
                    item,
                    "Go struct field manifestSnapshotFile.Modules of type modsdir.Record",
                ));
            };
            let key = string_field(obj, "Key")?;
            let source = string_field(obj, "Source")?;
            let version = string_field(obj, "Version")?;
            let dir = string_field(obj, "Dir")?;
            let version = if version.is_empty() {
                None
            } else {
                if Version::parse(&version).is_err() {
                    return Err(ManifestError::Version { key, version });
                }
                Some(version)
            };
            if !keys.insert(key.clone()) {
                return Err(ManifestError::Duplicate(key));
            }
            records.push(ModuleRecord {
                key,
                source,
                version,
                dir: normalize_dir(&dir),
            });
        }
        Ok(ModuleManifest { records })
    }

    /// The record for a dotted call path.
    pub fn get(&self, key: &str) -> Option<&ModuleRecord> {
        self.records.iter().find(|r| r.key == key)
    }
}

/// The manifest key of a module path (`module.a.module.b` → `a.b`; `""` → `""`).
pub fn key_of(module_path: &str) -> String {
    module_path
        .split('.')
        .collect::<Vec<_>>()
        .chunks(2)
        .filter_map(|c| match c {
            ["module", name] => Some(*name),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join(".")
}

pub use crate::config::source_addr::is_local as is_local_source;
use crate::config::source_addr::parse_source_addr_as;

/// Whether a non-local module call's `source` differs from the one its module was installed
/// from (the manifest's), as Terraform's loader compares them: the call's address as it
/// prints it against the recorded one, normalised the same way when it parses (older
/// manifests hold addresses as written). OpenTofu's loader (`configload/loader_load.go`)
/// compares the same way with its own parser, so an unqualified registry address there is
/// `registry.opentofu.org`'s.
pub fn source_changed(flavor: Flavor, call_source: &str, recorded: &str) -> bool {
    let Ok(call) = parse_source_addr_as(call_source, false, flavor) else {
        // A refused source is reported where it is parsed.
        return false;
    };
    let recorded = parse_source_addr_as(recorded, false, flavor)
        .map_or_else(|_| recorded.to_string(), |r| r.to_string());
    call.to_string() != recorded
}

/// Terraform's error for a module call whose `source` changed since `init` installed it
/// (its loader's, reached by `terraform providers` and `init -get=false`).
pub fn source_has_changed(flavor: Flavor, source: Range) -> Diagnostic {
    Diagnostic::error(
        "Module source has changed",
        format!(
            "The source address was changed since this module was installed. Run \"{} init\" to install all modules required by this configuration.",
            tool(flavor)
        ),
    )
    .with_range(source)
}

fn tool(flavor: Flavor) -> &'static str {
    match flavor {
        Flavor::Terraform => "terraform",
        Flavor::OpenTofu => "tofu",
    }
}

/// Terraform's error for a module call `init` has not installed.
pub fn not_installed(flavor: Flavor, call: Range) -> Diagnostic {
    let tool = match flavor {
        Flavor::Terraform => "terraform",
        Flavor::OpenTofu => "tofu",
    };
    Diagnostic::error(
        "Module not installed",
        format!(
            "This module is not yet installed. Run \"{tool} init\" to install all modules required by this configuration."
        ),
    )
    .with_range(call)
}

/// Terraform's error for a recorded module directory that cannot be read.
pub fn directory_unreadable(dir: &str, call: Range) -> Diagnostic {
    Diagnostic::error(
        "Failed to read module directory",
        format!("Module directory {dir} does not exist or cannot be read."),
    )
    .with_range(call)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_terraforms_manifest() {
        let m = ModuleManifest::parse(
            br#"{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"vpc","Source":"registry.terraform.io/terraform-aws-modules/vpc/aws","Version":"5.2.0","Dir":".terraform/modules/vpc"},{"key":"vpc.sub","source":"./sub","dir":".terraform\\modules\\vpc\\sub"}]}"#,
        )
        .expect("valid");
        assert_eq!(m.records.len(), 3);
        assert_eq!(m.get("").map(|r| r.dir.as_str()), Some(""));
        let vpc = m.get("vpc").expect("vpc");
        assert_eq!(vpc.dir, ".terraform/modules/vpc");
        assert_eq!(vpc.version.as_deref(), Some("5.2.0"));
        assert_eq!(
            m.get("vpc.sub").map(|r| r.dir.as_str()),
            Some(".terraform/modules/vpc/sub")
        );
        assert!(m.get("nope").is_none());
    }

    #[test]
    fn empty_and_module_less_manifests_have_no_records() {
        assert_eq!(ModuleManifest::parse(b"").expect("ok").records, vec![]);
        assert_eq!(ModuleManifest::parse(b" \n").expect("ok").records, vec![]);
        assert_eq!(ModuleManifest::parse(b"{}").expect("ok").records, vec![]);
    }

    #[test]
    fn bad_manifests_are_diagnostics_not_panics() {
        for (input, want) in [
            (&b"{"[..], "error unmarshalling snapshot: "),
            (b"[]", "cannot unmarshal array"),
            (b"{\"Modules\":{}}", "cannot unmarshal object"),
            (b"{\"Modules\":[1]}", "cannot unmarshal number"),
            (b"{\"Modules\":[{\"Key\":3}]}", "cannot unmarshal number"),
            (
                b"{\"Modules\":[{\"Key\":\"a\",\"Version\":\"x.y\"}]}",
                "invalid version \"x.y\" for a",
            ),
            (
                b"{\"Modules\":[{\"Key\":\"a\"},{\"Key\":\"a\"}]}",
                "snapshot file contains two records for path a",
            ),
        ] {
            let d = ModuleManifest::parse(input).expect_err("invalid");
            assert_eq!(d.summary, "Failed to read module manifest");
            assert!(d.detail.contains(want), "{} lacks {want}", d.detail);
        }
    }

    #[test]
    fn keys_and_local_sources() {
        assert_eq!(key_of(""), "");
        assert_eq!(key_of("module.a"), "a");
        assert_eq!(key_of("module.a.module.b"), "a.b");
        assert!(is_local_source("./x"));
        assert!(is_local_source("../x"));
        assert!(!is_local_source("hashicorp/consul/aws"));
        assert!(!is_local_source("git::https://example.com/x.git"));
        assert_eq!(normalize_dir("./a/../b/./c/"), "b/c");
        assert_eq!(normalize_dir("."), "");
    }

    #[test]
    fn opentofu_compares_with_its_own_default_registry() {
        let tofu = Flavor::OpenTofu;
        let opentofu_record = "registry.opentofu.org/hashicorp/consul/aws";
        assert!(!source_changed(
            tofu,
            "hashicorp/consul/aws",
            opentofu_record
        ));
        assert!(source_changed(
            Flavor::Terraform,
            "hashicorp/consul/aws",
            opentofu_record
        ));
        // A manifest Terraform wrote names its registry: a new source to OpenTofu.
        assert!(source_changed(
            tofu,
            "hashicorp/consul/aws",
            "registry.terraform.io/hashicorp/consul/aws"
        ));
        assert!(!source_changed(
            tofu,
            "github.com/hashicorp/example",
            "git::https://github.com/hashicorp/example.git"
        ));
    }

    #[test]
    fn sources_compare_as_terraform_normalises_them() {
        let same = [
            (
                "hashicorp/consul/aws",
                "registry.terraform.io/hashicorp/consul/aws",
            ),
            ("hashicorp/consul/aws", "hashicorp/consul/aws"),
            (
                "APP.Terraform.io/org/name/aws",
                "app.terraform.io/org/name/aws",
            ),
            (
                "hashicorp/consul/aws//modules/x",
                "registry.terraform.io/hashicorp/consul/aws//modules/x/",
            ),
            (
                "github.com/hashicorp/example",
                "git::https://github.com/hashicorp/example.git",
            ),
            (
                "git@github.com:org/repo.git?b=2&a=1",
                "git::ssh://git@github.com/org/repo.git?a=1&b=2",
            ),
        ];
        for (call, recorded) in same {
            assert!(
                !source_changed(Flavor::Terraform, call, recorded),
                "{call} vs {recorded}"
            );
        }
        let changed = [
            (
                "terraform-aws-modules/vpc/google",
                "registry.terraform.io/terraform-aws-modules/vpc/aws",
            ),
            (
                "Terraform-AWS-Modules/VPC/aws",
                "registry.terraform.io/terraform-aws-modules/vpc/aws",
            ),
            (
                "hashicorp/consul/aws//a",
                "registry.terraform.io/hashicorp/consul/aws//b",
            ),
            (
                "git::https://example.com/x.git",
                "registry.terraform.io/hashicorp/consul/aws",
            ),
            (
                "git::https://example.com/x.git//a",
                "git::https://example.com/x.git//b",
            ),
            ("github.com/org/a", "git::https://github.com/org/b.git"),
        ];
        for (call, recorded) in changed {
            assert!(
                source_changed(Flavor::Terraform, call, recorded),
                "{call} vs {recorded}"
            );
        }
    }

    #[test]
    fn not_installed_uses_each_products_command() {
        let r = Range::from_span("main.tf", "module \"x\" {}", 0..10);
        assert_eq!(
            not_installed(Flavor::OpenTofu, r.clone()).detail,
            "This module is not yet installed. Run \"tofu init\" to install all modules required by this configuration."
        );
        assert_eq!(
            not_installed(Flavor::Terraform, r).summary,
            "Module not installed"
        );
    }
}
