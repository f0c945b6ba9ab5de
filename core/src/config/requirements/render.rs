//! The requirement tree as `terraform providers` prints it: each module's own providers with
//! that module's constraints, child modules nested below.

use super::{requirements, ModuleTree, TestTree};
use crate::flavor::Flavor;

/// Renders the tree (without Terraform's leading/trailing blank lines and heading).
pub fn render_tree(tree: &ModuleTree, flavor: Flavor) -> String {
    let mut out = String::from(".\n");
    node(&mut out, tree, "", flavor);
    out
}

fn node(out: &mut String, t: &ModuleTree, indent: &str, flavor: Flavor) {
    let reqs = requirements(&t.loaded.module, &t.path, flavor);
    let mut lines: Vec<(String, Option<Branch>)> = reqs
        .providers
        .values()
        .map(|r| {
            let mut l = format!("provider[{}]", r.provider);
            if !r.constraints.is_empty() {
                l.push(' ');
                l.push_str(&r.constraints);
            }
            (l, None)
        })
        .collect();
    // Terraform prints a node's providers, then its test files (each with the runs that
    // call a module), then its child modules.
    for test in &t.tests {
        lines.push((test.file.tree_name(), Some(Branch::Test(test))));
    }
    for c in &t.children {
        let name = c.path.rsplit('.').next().unwrap_or_default();
        lines.push((format!("module.{name}"), Some(Branch::Module(c))));
    }
    let n = lines.len();
    for (i, (line, branch)) in lines.into_iter().enumerate() {
        let last = i + 1 == n;
        out.push_str(indent);
        out.push_str(if last { "└── " } else { "├── " });
        out.push_str(&line);
        out.push('\n');
        // treeprint (Terraform's tree printer) continues a branch with two no-break spaces.
        let next = format!("{indent}{}", if last { "    " } else { "│\u{a0}\u{a0} " });
        match branch {
            Some(Branch::Module(c)) => node(out, c, &next, flavor),
            Some(Branch::Test(test)) => runs(out, test, &next, flavor),
            None => {}
        }
    }
}

/// What a line of the tree opens below it.
enum Branch<'t> {
    Module(&'t ModuleTree),
    Test(&'t TestTree),
}

fn runs(out: &mut String, test: &TestTree, indent: &str, flavor: Flavor) {
    let n = test.runs.len();
    for (i, (name, tree)) in test.runs.iter().enumerate() {
        let last = i + 1 == n;
        out.push_str(indent);
        out.push_str(if last { "└── " } else { "├── " });
        out.push_str("run.");
        out.push_str(name);
        out.push('\n');
        let next = format!("{indent}{}", if last { "    " } else { "│\u{a0}\u{a0} " });
        node(out, tree, &next, flavor);
    }
}
