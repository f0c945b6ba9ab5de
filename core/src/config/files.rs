//! Which file names of a directory are configuration files, which of them are override files,
//! and (OpenTofu) which `.tf` files a `.tofu` file hides.

use crate::flavor::Flavor;

/// The configuration files of one directory, each list in Terraform's order (byte-wise by name).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FileSet {
    /// Primary files, loaded first.
    pub primary: Vec<String>,
    /// Override files, merged afterwards in this order.
    pub overrides: Vec<String>,
    /// `.tf`/`.tf.json` files hidden by a `.tofu`/`.tofu.json` twin (OpenTofu only).
    pub shadowed: Vec<String>,
}

/// The file name without the directory a tree load joins onto it (`modules/vpc/main.tf`).
fn base_name(name: &str) -> &str {
    name.rsplit('/').next().unwrap_or(name)
}

/// True for names Terraform skips: dot files, editor backups (`~`) and `#autosave#` files.
pub fn is_ignored(name: &str) -> bool {
    let name = base_name(name);
    name.starts_with('.') || name.ends_with('~') || (name.starts_with('#') && name.ends_with('#'))
}

/// The configuration extension of `name` (`.tf`, `.tf.json`, `.tofu`, `.tofu.json`), if any.
///
/// Test files (`.tftest.hcl` and friends) are not module files and give `None`.
pub fn config_ext(name: &str, flavor: Flavor) -> Option<&'static str> {
    // Terraform checks these suffixes in this order; `.tf.json` must not be read as `.json`.
    for ext in [".tf", ".tf.json"] {
        if name.ends_with(ext) {
            return Some(ext);
        }
    }
    if flavor == Flavor::OpenTofu {
        for ext in [".tofu", ".tofu.json"] {
            if name.ends_with(ext) {
                return Some(ext);
            }
        }
    }
    None
}

/// True if `name` (with extension `ext`) is an override file: `override` or `*_override`.
pub fn is_override(name: &str, ext: &str) -> bool {
    let name = base_name(name);
    let base = &name[..name.len() - ext.len()];
    base == "override" || base.ends_with("_override")
}

/// True if the file is JSON syntax (Terraform decides by the `.json` suffix).
pub fn is_json(name: &str) -> bool {
    name.ends_with(".json")
}

/// Why Terraform's loader leaves `name` out of the module, in words for a file list; `None`
/// for a file it loads. `names` are the directory's other files (OpenTofu's `.tofu` twins).
pub fn ignore_reason(name: &str, names: &[&str], flavor: Flavor) -> Option<String> {
    if base_name(name).starts_with('.') {
        return Some("hidden file (the name starts with \".\"): Terraform skips it".into());
    }
    if name.ends_with('~') {
        return Some("editor backup (the name ends with \"~\"): Terraform skips it".into());
    }
    if base_name(name).starts_with('#') && name.ends_with('#') {
        return Some("editor autosave file (#name#): Terraform skips it".into());
    }
    let Some(ext) = config_ext(name, flavor) else {
        let exts = match flavor {
            Flavor::Terraform => ".tf or .tf.json",
            Flavor::OpenTofu => ".tf, .tf.json, .tofu or .tofu.json",
        };
        return Some(format!(
            "not a configuration file (only {exts} files belong to the module)"
        ));
    };
    if flavor == Flavor::OpenTofu && (ext == ".tf" || ext == ".tf.json") {
        let stem = &name[..name.len() - ext.len()];
        let twin = format!(
            "{stem}{}",
            if ext == ".tf" { ".tofu" } else { ".tofu.json" }
        );
        if names.contains(&twin.as_str()) {
            return Some(format!(
                "shadowed by {twin}: OpenTofu loads the .tofu file instead"
            ));
        }
    }
    None
}

/// Sorts and classifies the names of one directory's files.
pub fn classify<'a>(names: impl IntoIterator<Item = &'a str>, flavor: Flavor) -> FileSet {
    let mut names: Vec<&str> = names.into_iter().collect();
    crate::collections::sort(&mut names);
    names.dedup();
    let mut set = FileSet::default();
    for name in names {
        if is_ignored(name) {
            continue;
        }
        let Some(ext) = config_ext(name, flavor) else {
            continue;
        };
        if is_override(name, ext) {
            set.overrides.push(name.to_string());
        } else {
            set.primary.push(name.to_string());
        }
    }
    if flavor == Flavor::OpenTofu {
        set.shadowed.extend(drop_shadowed(&mut set.primary));
        set.shadowed.extend(drop_shadowed(&mut set.overrides));
    }
    set
}

/// Removes `x.tf` when `x.tofu` is in the same list (and `x.tf.json` for `x.tofu.json`).
fn drop_shadowed(list: &mut Vec<String>) -> Vec<String> {
    let twin = |name: &str| -> Option<String> {
        if let Some(stem) = name.strip_suffix(".tf.json") {
            Some(format!("{stem}.tofu.json"))
        } else {
            name.strip_suffix(".tf").map(|stem| format!("{stem}.tofu"))
        }
    };
    let hidden: Vec<String> = list
        .iter()
        .filter(|n| twin(n).is_some_and(|t| list.contains(&t)))
        .cloned()
        .collect();
    list.retain(|n| !hidden.contains(n));
    hidden
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ignore_reasons_agree_with_classify() {
        let names = [
            "main.tf",
            "main.tofu",
            "override.tf",
            ".terraform.lock.hcl",
            "b.tf~",
            "#a.tf#",
            "t.tftest.hcl",
            "README.md",
            "x.tf.json",
        ];
        for flavor in [Flavor::Terraform, Flavor::OpenTofu] {
            let set = classify(names, flavor);
            for n in names {
                let loaded = set.primary.iter().chain(&set.overrides).any(|x| x == n);
                let reason = ignore_reason(n, &names, flavor);
                assert_eq!(loaded, reason.is_none(), "{n} {flavor:?}: {reason:?}");
            }
        }
        assert_eq!(
            ignore_reason("main.tf", &names, Flavor::OpenTofu).as_deref(),
            Some("shadowed by main.tofu: OpenTofu loads the .tofu file instead")
        );
        assert!(ignore_reason("README.md", &names, Flavor::Terraform)
            .is_some_and(|r| r.contains(".tf or .tf.json")));
    }

    #[test]
    fn override_names_follow_terraform() {
        let set = classify(
            [
                "main.tf",
                "override.tf",
                "a_override.tf.json",
                "overrides.tf",
                "override_foo.tf",
                "foo-override.tf",
                "Override.tf",
                "x.tf.bak",
                ".hidden.tf",
                "b.tf~",
                "#a.tf#",
                "t.tftest.hcl",
                "c.tofu",
            ],
            Flavor::Terraform,
        );
        assert_eq!(
            set.primary,
            [
                "Override.tf",
                "foo-override.tf",
                "main.tf",
                "override_foo.tf",
                "overrides.tf"
            ]
        );
        assert_eq!(set.overrides, ["a_override.tf.json", "override.tf"]);
    }

    #[test]
    fn tofu_files_shadow_tf_files_per_list() {
        let set = classify(
            [
                "a.tf",
                "a.tofu",
                "b.tf.json",
                "b.tofu",
                "c.tf",
                "c.tofu.json",
                "x_override.tf",
                "x_override.tofu",
            ],
            Flavor::OpenTofu,
        );
        assert_eq!(
            set.primary,
            ["a.tofu", "b.tf.json", "b.tofu", "c.tf", "c.tofu.json"]
        );
        assert_eq!(set.overrides, ["x_override.tofu"]);
        assert_eq!(set.shadowed, ["a.tf", "x_override.tf"]);
    }
}
