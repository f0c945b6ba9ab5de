//! The arrows between core's top-level modules, read from the code, against the table
//! "Allowed arrows between core's modules" in ARCHITECTURE.md. The document is the source:
//! an import that the table does not allow fails, and so does an arrow the table lists but
//! the code no longer has, so the map stays true in both directions.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The heading of the section whose first table this test reads.
const SECTION: &str = "### Allowed arrows between core's modules";

/// The heading of the section whose table says which of core's modules each host uses.
const HOST_SECTION: &str = "### What each host may use of core";

/// The host crates the host table covers: their sources import core as `tflock_core`.
const HOSTS: [&str; 4] = ["cli", "wasm", "web", "worker"];

type Arrows = BTreeMap<String, BTreeSet<String>>;

#[test]
fn core_imports_follow_the_table_in_architecture_md() {
    let root = tflock_tests::workspace_root();
    let src = root.join("core/src");
    let doc = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let allowed = parse_table(&doc, SECTION);
    let (modules, reexports) = parse_lib(&std::fs::read_to_string(src.join("lib.rs")).unwrap());

    let mut found: Arrows = BTreeMap::new();
    let mut places: BTreeMap<(String, String), String> = BTreeMap::new();
    for from in &modules {
        for file in module_files(&src, from) {
            let text = std::fs::read_to_string(&file).unwrap();
            for (line, first) in paths_after(&text, "crate::") {
                let to = if modules.contains(&first) {
                    first.clone()
                } else if let Some(m) = reexports.get(&first) {
                    m.clone()
                } else {
                    panic!(
                        "{}:{line}: `crate::{first}` is neither a top-level module nor a re-export in lib.rs",
                        file.display()
                    );
                };
                if &to == from {
                    continue;
                }
                found.entry(from.clone()).or_default().insert(to.clone());
                places.entry((from.clone(), to)).or_insert_with(|| {
                    let rel = file.strip_prefix(&root).unwrap_or(&file);
                    format!("{}:{line}", rel.display())
                });
            }
        }
    }

    let mut problems = Vec::new();
    // Every top-level module is a row, so a new module has to be placed on the map.
    let rows: BTreeSet<&String> = allowed.keys().collect();
    let mods: BTreeSet<&String> = modules.iter().collect();
    if rows != mods {
        problems.push(format!(
            "the rows must be core's top-level modules (core/src/lib.rs): rows {rows:?}, modules {mods:?}"
        ));
    }
    for (from, tos) in &found {
        for to in tos {
            if !allowed.get(from).is_some_and(|a| a.contains(to)) {
                let at = &places[&(from.clone(), to.clone())];
                problems.push(format!(
                    "`{from}` uses `{to}` ({at}), which the table does not allow"
                ));
            }
        }
    }
    for (from, tos) in &allowed {
        for to in tos {
            if !found.get(from).is_some_and(|f| f.contains(to)) {
                problems.push(format!(
                    "the table lets `{from}` use `{to}`, but no file of `{from}` does: remove the arrow"
                ));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "core's imports and ARCHITECTURE.md ({SECTION}) disagree:\n  {}\n\nThe table the code has today:\n{}",
        problems.join("\n  "),
        render_table(&modules, &found)
    );
}

/// Hosts render and perform IO; the rules they call are behind `api` (and the root
/// re-exports of `diag` and `flavor` they render), the Worker's also behind `edge`. The
/// table in ARCHITECTURE.md names them; an import of another module fails, and so does a
/// module the table lists that the host no longer uses.
#[test]
fn host_imports_follow_the_table_in_architecture_md() {
    let root = tflock_tests::workspace_root();
    let doc = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let allowed = parse_table(&doc, HOST_SECTION);
    let (modules, reexports) =
        parse_lib(&std::fs::read_to_string(root.join("core/src/lib.rs")).unwrap());
    let mut found: Arrows = BTreeMap::new();
    let mut refused: BTreeMap<(String, String), String> = BTreeMap::new();
    for host in HOSTS {
        let src = root.join(host).join("src");
        for file in module_files(&src, "") {
            let text = std::fs::read_to_string(&file).unwrap();
            for (line, first) in paths_after(&text, "tflock_core::") {
                let to = if modules.contains(&first) {
                    first.clone()
                } else if let Some(m) = reexports.get(&first) {
                    m.clone()
                } else {
                    panic!(
                        "{}:{line}: `tflock_core::{first}` is neither a top-level module nor a re-export",
                        file.display()
                    );
                };
                if !allowed.get(host).is_some_and(|a| a.contains(&to)) {
                    let rel = file.strip_prefix(&root).unwrap_or(&file);
                    refused
                        .entry((host.to_owned(), to.clone()))
                        .or_insert_with(|| format!("{}:{line}", rel.display()));
                }
                found.entry(host.to_owned()).or_default().insert(to);
            }
        }
    }
    let mut problems: Vec<String> = refused
        .iter()
        .map(|((host, to), at)| {
            format!("`{host}` uses `{to}` ({at}), which the table does not allow")
        })
        .collect();
    for (host, tos) in &allowed {
        for to in tos {
            if !found.get(host).is_some_and(|f| f.contains(to)) {
                problems.push(format!(
                    "the table lets `{host}` use `{to}`, but no file of `{host}` does: remove it"
                ));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "the hosts' imports and ARCHITECTURE.md ({HOST_SECTION}) disagree:\n  {}\n\nThe table the code has today:\n{}",
        problems.join("\n  "),
        render_table(&HOSTS.map(str::to_owned), &found)
    );
}

/// The table's rows: `| \`from\` | \`to\`, \`to\` |` (or `—` for none).
fn parse_table(doc: &str, section: &str) -> Arrows {
    let start = doc
        .find(section)
        .unwrap_or_else(|| panic!("ARCHITECTURE.md has no section {section:?}"));
    let mut out = BTreeMap::new();
    let mut in_table = false;
    for line in doc[start..].lines().skip(1) {
        let line = line.trim();
        if !line.starts_with('|') {
            if in_table {
                break;
            }
            continue;
        }
        in_table = true;
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        assert_eq!(
            cells.len(),
            2,
            "a row of the arrows table has two cells: {line}"
        );
        let from = backticked(cells[0]);
        if from.len() != 1 {
            // The header and the separator row.
            continue;
        }
        let tos: BTreeSet<String> = backticked(cells[1]).into_iter().collect();
        out.insert(from[0].clone(), tos);
    }
    assert!(!out.is_empty(), "the section {section:?} has no table");
    out
}

fn backticked(cell: &str) -> Vec<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

/// The top-level modules declared in lib.rs, and the names it re-exports at the root
/// (`crate::Diagnostic` is an arrow to `diag`).
fn parse_lib(lib: &str) -> (Vec<String>, BTreeMap<String, String>) {
    let mut modules = Vec::new();
    let mut reexports = BTreeMap::new();
    for line in lib.lines().map(str::trim) {
        let line = line.strip_prefix("pub ").unwrap_or(line);
        if let Some(name) = line.strip_prefix("mod ").and_then(|l| l.strip_suffix(';')) {
            modules.push(name.to_owned());
        } else if let Some(rest) = line.strip_prefix("use ").and_then(|l| l.strip_suffix(';')) {
            let (module, names) = rest
                .split_once("::")
                .expect("a root re-export names its module");
            for name in names.trim_matches(['{', '}']).split(',') {
                reexports.insert(name.trim().to_owned(), module.to_owned());
            }
        }
    }
    (modules, reexports)
}

/// The `.rs` files of a top-level module: `core/src/<m>.rs` or everything under
/// `core/src/<m>/` (every file under `src` for `""`).
fn module_files(src: &Path, module: &str) -> Vec<PathBuf> {
    let file = src.join(format!("{module}.rs"));
    if !module.is_empty() && file.is_file() {
        return vec![file];
    }
    let mut out = Vec::new();
    let mut dirs = vec![src.join(module)];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The first segment after every `prefix` (`crate::`, `tflock_core::`) in the code
/// (comments left out), with its line: `use` lines, grouped `use crate::{a::b, c}` spread
/// over lines, and paths written inline.
fn paths_after(text: &str, prefix: &str) -> Vec<(usize, String)> {
    // Comment lines are dropped (doc links name modules without importing them); the
    // others keep their place so the line numbers stay right.
    let code: String = text
        .lines()
        .map(|l| {
            if l.trim_start().starts_with("//") {
                ""
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = code[from..].find(prefix) {
        let at = from + i;
        from = at + prefix.len();
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c == '$' || c == '_' || c.is_alphanumeric()) {
            continue;
        }
        let line = code[..at].matches('\n').count() + 1;
        let rest = &code[from..];
        if let Some(group) = rest.strip_prefix('{') {
            for item in top_level_items(group) {
                out.push((line, first_ident(item)));
            }
        } else {
            out.push((line, first_ident(rest)));
        }
    }
    out.retain(|(_, name)| !name.is_empty() && name != "self");
    out
}

/// The comma-separated items of a `{ ... }` group up to its closing brace.
fn top_level_items(group: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let (mut depth, mut start) = (0usize, 0);
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                items.push(&group[start..i]);
                break;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&group[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items
}

fn first_ident(s: &str) -> String {
    s.trim_start()
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

/// The table as Markdown, to paste into ARCHITECTURE.md when the change is meant.
fn render_table(modules: &[String], found: &Arrows) -> String {
    let mut out = String::from("| Module | May use |\n|---|---|\n");
    let mut sorted = modules.to_vec();
    sorted.sort();
    for m in sorted {
        let tos = found.get(&m).map(|t| {
            t.iter()
                .map(|t| format!("`{t}`"))
                .collect::<Vec<_>>()
                .join(", ")
        });
        out.push_str(&format!(
            "| `{m}` | {} |\n",
            tos.unwrap_or_else(|| "—".into())
        ));
    }
    out
}
