//! Panel 1: a set of configuration files → the merged module, the provider requirements
//! with their origins, and diagnostics (what `tflock merge` and `tflock providers` print).

use super::diagnostics::{rows, DiagnosticRow};
use tflock_core::api::module::{
    load_module_with_changes, load_tree_with_root, provenance_with_lines, render_merged,
    tree_requirements, ChangeKind, LoadOptions, OverrideChanges, Provenance, ProviderRequirements,
};
use tflock_core::api::module::{render_tree, OriginKind, ProviderRequirement};
use tflock_core::api::SortedMap;
use tflock_core::{Diagnostics, Flavor};

/// Everything panel 1 shows for one set of files.
#[derive(Debug, Clone, PartialEq)]
pub struct ConfigReport {
    /// The root module after override files are merged, as HCL (partial when `failed`).
    pub merged: String,
    /// Root files by role: primary, override, shadowed (OpenTofu `.tofu` wins).
    pub primary: Vec<String>,
    /// Override files, in merge order.
    pub overrides: Vec<String>,
    /// Files hidden by a same-named `.tofu` file.
    pub shadowed: Vec<String>,
    /// Loading and requirement diagnostics of the whole tree, the root's first.
    pub diagnostics: Vec<DiagnosticRow>,
    /// True when some diagnostic is an error (the CLI would print no merged module).
    pub failed: bool,
    /// The requirement tree as `terraform providers` prints it.
    pub tree: String,
    /// Requirements per provider, with origins.
    pub requirements: ProviderRequirements,
    /// What each root override file changed, in merge order (the core's records, as
    /// `tflock merge --json` prints them).
    pub changes: Vec<OverrideChanges>,
    /// The merged text line by line, each with the change that put it there.
    pub lines: Vec<MergedLine>,
}

/// One line of the merged module: where it comes from and, when an override put it there,
/// which change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MergedLine {
    /// The line, with its newline.
    pub text: String,
    /// `file:line` of the declaration of the innermost block or argument the line belongs to
    /// (the core's provenance).
    pub from: String,
    /// True on the first line of that block or argument (where the page labels it).
    pub starts: bool,
    /// `replaced` or `added` when the line belongs to an override's item.
    pub kind: Option<&'static str>,
    /// A hover text: which file and line wrote it and what it replaced.
    pub note: String,
}

/// The word a change kind is shown with.
pub fn kind_word(k: ChangeKind) -> &'static str {
    match k {
        ChangeKind::Replaced => "replaced",
        ChangeKind::Added => "added",
        ChangeKind::Removed => "removed",
    }
}

/// Splits `merged` into lines marked with where each comes from and with the changes whose
/// final item sits on them (the core gives each record's and change's lines; records are
/// in render order, so the innermost, i.e. the last, wins).
fn mark_lines(
    merged: &str,
    provenance: &[Provenance],
    changes: &[OverrideChanges],
) -> Vec<MergedLine> {
    let mut lines: Vec<MergedLine> = merged
        .split_inclusive('\n')
        .map(|t| MergedLine {
            text: t.to_string(),
            from: String::new(),
            starts: false,
            kind: None,
            note: String::new(),
        })
        .collect();
    for p in provenance {
        let Some((a, b)) = p.merged_lines else {
            continue;
        };
        let from = format!("{}:{}", p.file, p.range.start.line);
        for (i, l) in lines
            .iter_mut()
            .enumerate()
            .take(b)
            .skip(a.saturating_sub(1))
        {
            l.from = from.clone();
            l.starts = i + 1 == a;
            l.note = format!("from {from}");
        }
    }
    for c in changes {
        for ch in &c.changes {
            let Some((a, b)) = ch.merged_lines else {
                continue;
            };
            let at = ch
                .range
                .as_ref()
                .map(|r| format!("{}:{}", r.filename, r.start.line))
                .unwrap_or_default();
            let mut note = format!("{} by {at}", kind_word(ch.kind));
            if let Some(p) = &ch.previous {
                note.push_str(&format!(
                    "; was {} ({}:{})",
                    p.text, p.range.filename, p.range.start.line
                ));
            }
            for l in lines.iter_mut().take(b).skip(a.saturating_sub(1)) {
                l.kind = Some(kind_word(ch.kind));
                l.note = note.clone();
            }
        }
    }
    lines
}

/// Splits `modules/vpc/main.tf` into (`modules/vpc`, `main.tf`); root files have `""`.
fn split_dir(name: &str) -> (String, String) {
    let name = name.trim().trim_start_matches("./");
    match name.rsplit_once('/') {
        Some((dir, file)) => (dir.trim_matches('/').to_string(), file.to_string()),
        None => (String::new(), name.to_string()),
    }
}

/// Loads `files` (`(name, content)`; names with a directory part belong to local child
/// modules, e.g. `modules/vpc/main.tf`) as the root module and its local children.
pub fn analyze(files: &[(String, String)], flavor: Flavor) -> ConfigReport {
    let mut dirs: SortedMap<String, Vec<(String, Vec<u8>)>> = SortedMap::new();
    dirs.entry(String::new()).or_default();
    for (name, content) in files {
        let (dir, file) = split_dir(name);
        if file.is_empty() {
            continue;
        }
        dirs.entry(dir)
            .or_default()
            .push((file, content.as_bytes().to_vec()));
    }
    // The root once, with its change records; the tree reuses it.
    let opts = LoadOptions::new(flavor);
    let (root, changes) = load_module_with_changes(dirs.get("").map_or(&[][..], |v| v), &opts);
    let tree = load_tree_with_root(&dirs, "", root, &opts);
    let reqs = tree_requirements(&tree, flavor);
    let mut diags = Diagnostics::new();
    diags.extend(tree.diagnostics());
    diags.extend(reqs.diagnostics.iter().cloned());
    let loaded = &tree.loaded;
    let merged = render_merged(loaded);
    ConfigReport {
        lines: mark_lines(&merged, &provenance_with_lines(&loaded.module), &changes),
        changes,
        merged,
        primary: loaded.files.primary.clone(),
        overrides: loaded.files.overrides.clone(),
        shadowed: loaded.files.shadowed.clone(),
        failed: diags.has_errors(),
        diagnostics: rows(diags.iter()),
        tree: render_tree(&tree, flavor),
        requirements: reqs,
    }
}

/// One place a provider is mentioned, flattened for display.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OriginRow {
    /// `root` or the module path (`module.vpc`).
    pub module: String,
    /// The local name used there.
    pub local_name: String,
    /// What declared it, in words.
    pub kind: &'static str,
    /// The constraint as written, if any.
    pub constraint: Option<String>,
    /// `file:line:col`.
    pub location: String,
}

/// The origins of `req`, in discovery order.
pub fn origins(req: &ProviderRequirement) -> Vec<OriginRow> {
    req.origins
        .iter()
        .map(|o| OriginRow {
            module: if o.module.is_empty() {
                "root".to_string()
            } else {
                o.module.clone()
            },
            local_name: o.local_name.clone(),
            kind: match o.kind {
                OriginKind::RequiredProviders => "required_providers",
                OriginKind::ProviderBlockVersion => "provider block version",
                OriginKind::ProviderBlock => "provider block",
                OriginKind::Resource => "resource",
            },
            constraint: o.constraint.clone(),
            location: format!(
                "{}:{}:{}",
                o.range.filename, o.range.start.line, o.range.start.column
            ),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::samples::CONFIG_FILES;

    fn sample() -> Vec<(String, String)> {
        CONFIG_FILES
            .iter()
            .map(|(n, c)| (n.to_string(), c.to_string()))
            .collect()
    }

    #[test]
    fn sample_merges_without_diagnostics() {
        let r = analyze(&sample(), Flavor::Terraform);
        assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
        assert_eq!(r.overrides, ["main_override.tf"]);
        assert!(r.merged.contains("region = \"us-east-1\""));
    }

    #[test]
    fn merged_lines_mark_what_the_override_replaced() {
        let r = analyze(&sample(), Flavor::Terraform);
        let files: Vec<&str> = r.changes.iter().map(|c| c.file.as_str()).collect();
        assert_eq!(files, ["main_override.tf"]);
        let region = r.changes[0]
            .changes
            .iter()
            .find(|c| c.block == "provider.aws" && c.path == "region")
            .expect("region change");
        assert_eq!(region.kind, ChangeKind::Replaced);
        assert_eq!(
            region.previous.as_ref().map(|p| p.text.as_str()),
            Some("\"eu-west-1\"")
        );
        let line = r
            .lines
            .iter()
            .find(|l| l.text.contains("region = \"us-east-1\""))
            .expect("merged region line");
        assert_eq!(line.kind, Some("replaced"));
        assert!(line.note.contains("main_override.tf:12"), "{}", line.note);
        let untouched = r
            .lines
            .iter()
            .find(|l| l.text.contains("length = 2"))
            .expect("random_pet line");
        assert_eq!(untouched.kind, None);
        let joined: String = r.lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(joined, r.merged);
    }

    #[test]
    fn child_module_files_go_to_their_directory() {
        let mut files = sample();
        files.push((
            "main.tf".replace("main", "child"),
            "module \"c\" {\n  source = \"./modules/c\"\n}\n".into(),
        ));
        files.push((
            "modules/c/main.tf".into(),
            "resource \"tls_private_key\" \"k\" {}\n".into(),
        ));
        let r = analyze(&files, Flavor::Terraform);
        assert!(r.tree.contains("module.c"), "{}", r.tree);
        assert!(r.tree.contains("hashicorp/tls"), "{}", r.tree);
    }
}
