//! Reading both tools' output into comparable values: the `providers` requirement tree as
//! sorted lines (Terraform prints siblings in Go map order) and the diagnostics as
//! `(severity, summary)` pairs.

use std::collections::BTreeSet;

/// The requirement tree of `providers` output as a set of lines `<module path> <line>`
/// (`.` for the root; a node — module, test file, run — is its path alone). Empty when no
/// tree was printed.
pub fn tree(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut stack: Vec<String> = Vec::new();
    let mut started = false;
    for line in text.lines() {
        if line == "." {
            started = true;
            stack.clear();
            continue;
        }
        if !started {
            continue;
        }
        if line.trim().is_empty() {
            break; // the tree ends; other sections or warnings may follow
        }
        let content_at = line
            .char_indices()
            .find(|(_, c)| !matches!(c, ' ' | '\u{a0}' | '│' | '├' | '└' | '─'))
            .map_or(line.len(), |(i, _)| i);
        let depth = line[..content_at].chars().count() / 4;
        let content = line[content_at..].trim_end().to_string();
        stack.truncate(depth.saturating_sub(1));
        let parent = if stack.is_empty() {
            ".".to_string()
        } else {
            stack.join(".")
        };
        // Nodes are modules, and test files with their runs; providers are leaves.
        if !content.starts_with("provider[") {
            stack.push(content);
            out.insert(stack.join("."));
        } else {
            out.insert(format!("{parent} {content}"));
        }
    }
    out
}

/// Diagnostics in the text form both tools print without colour: `(severity, summary)`.
/// (The detail is left out: the summary names the kind of problem.)
pub fn diagnostics(text: &str) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    for line in text.lines() {
        let t = line.trim_start_matches(['│', '╷', '╵']).trim();
        if let Some(s) = t.strip_prefix("Error: ") {
            out.insert(("error".to_string(), s.to_string()));
        } else if let Some(s) = t.strip_prefix("Warning: ") {
            out.insert(("warning".to_string(), s.to_string()));
        }
    }
    out
}

/// Lines only in `a` (`- `) and only in `b` (`+ `), at most `limit` of them.
pub fn short_diff(a: &BTreeSet<String>, b: &BTreeSet<String>, limit: usize) -> Vec<String> {
    let mut out: Vec<String> = a
        .difference(b)
        .map(|l| format!("- {l}"))
        .chain(b.difference(a).map(|l| format!("+ {l}")))
        .collect();
    if out.len() > limit {
        let more = out.len() - limit;
        out.truncate(limit);
        out.push(format!("  ... {more} more"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sibling_order_does_not_matter() {
        let a = "\nProviders required by configuration:\n.\n├── provider[registry.terraform.io/hashicorp/aws] >= 5.0\n└── module.vpc\n    ├── provider[registry.terraform.io/hashicorp/null]\n    └── module.inner\n        └── provider[registry.terraform.io/hashicorp/aws]\n\n";
        let b = "\nProviders required by configuration:\n.\n├── module.vpc\n│\u{a0}\u{a0} ├── module.inner\n│\u{a0}\u{a0} │\u{a0}\u{a0} └── provider[registry.terraform.io/hashicorp/aws]\n│\u{a0}\u{a0} └── provider[registry.terraform.io/hashicorp/null]\n└── provider[registry.terraform.io/hashicorp/aws] >= 5.0\n";
        assert_eq!(tree(a), tree(b));
        assert!(tree(a)
            .contains("module.vpc.module.inner provider[registry.terraform.io/hashicorp/aws]"));
        assert!(tree(a).contains(". provider[registry.terraform.io/hashicorp/aws] >= 5.0"));
        let t = tree(".\n└── test.tests.main\n    └── run.setup\n        └── provider[x/y/z]\n");
        assert!(
            t.contains("test.tests.main.run.setup provider[x/y/z]"),
            "{t:?}"
        );
    }
}
