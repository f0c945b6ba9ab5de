//! Broken syntax beside decoding problems, against Terraform itself: modules built from
//! blocks that each give a problem found only by decoding (a duplicate resource, an invalid
//! type, a variable in a default) or none, spread over two files, one of them broken at one
//! random place as `broken_syntax` breaks files, with more tokens (parentheses, `?`, `:`, a
//! number), or with `=` after a block type. What Terraform decodes of the file before and
//! after the break, and of the file beside it, must be what tflock reports
//! ([`super::broken_syntax::compare`]). Without module calls, as in `broken_syntax`: a
//! broken call label crashes Terraform 1.15's installer (`checks.collectInitialStatuses`),
//! and the locals a call reads are `init-config` fixtures'.

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::Rng;

use crate::terraform_oracle::broken_syntax::assert_judged_as_terraform_does;
use crate::terraform_oracle::harness::{cases, rng};

/// Blocks a module is built from: each is whole, and most have a decoding problem.
const BLOCKS: &[&str] = &[
    "resource \"terraform_data\" \"dup\" {\n  input = \"one\"\n}\n",
    "resource \"terraform_data\" \"dup\" {\n  input = \"two\"\n}\n",
    "variable \"typed\" {\n  type    = strin\n  default = \"x\"\n}\n",
    "variable \"region\" {\n  type    = string\n  default = var.fallback\n}\n",
    "output \"out\" {\n  value       = \"v\"\n  description = \"d\"\n}\n",
    "locals {\n  base    = \"app\"\n  derived = \"${local.bsae}-x\"\n}\n",
    "resource \"terraform_data\" \"typed\" {\n  input = [\"a\"]\n\n  lifecycle {\n    ignore_changes = [input]\n  }\n}\n",
    "terraform {\n  required_version = \">= 1.0\"\n}\n",
];

/// What a break deletes (an occurrence of it) or inserts (at a random place).
const TOKENS: &[&str] = &[
    "{", "}", "[", "]", "\"", "=", "\n", ",", "(", ")", ":", "?", ".",
];
/// What only makes sense inserted.
const INSERTED: &[&str] = &["${", "%{", "\"\n", "1", "null", "[*]", "/*", "!"];

/// Breaks `text` at one random place; what was done.
fn break_text(rng: &mut StdRng, text: &mut String) -> String {
    // A block type followed by `=` reads as an argument at the top level.
    if rng.gen_bool(0.2) {
        let starts: Vec<usize> = text
            .match_indices('\n')
            .map(|(i, _)| i + 1)
            .chain([0])
            .filter(|&i| text[i..].starts_with(|c: char| c.is_ascii_alphabetic()))
            .collect();
        if let Some(&at) = starts.choose(rng) {
            let end = at + text[at..].find(' ').unwrap_or(0);
            text.insert_str(end, " =");
            return format!("\" =\" inserted after the block type at byte {end}");
        }
    }
    if rng.gen_bool(0.5) {
        let token = *TOKENS.choose(rng).expect("tokens");
        let places: Vec<usize> = text.match_indices(token).map(|(i, _)| i).collect();
        if let Some(&at) = places.choose(rng) {
            text.replace_range(at..at + token.len(), "");
            return format!("{token:?} deleted at byte {at}");
        }
    }
    let token = if rng.gen_bool(0.6) {
        *TOKENS.choose(rng).expect("tokens")
    } else {
        *INSERTED.choose(rng).expect("inserted")
    };
    let at = rng.gen_range(0..=text.len());
    text.insert_str(at, token);
    format!("{token:?} inserted at byte {at}")
}

/// One module of [`BLOCKS`] (at least two, in random order over `main.tf` and
/// `other.tf`), one file broken; the files and what was done.
fn decoding_case(rng: &mut StdRng) -> (Vec<(String, String)>, String) {
    let mut blocks: Vec<&str> = Vec::new();
    while blocks.len() < 2 {
        blocks = BLOCKS
            .iter()
            .copied()
            .filter(|_| rng.gen_bool(0.5))
            .collect();
    }
    blocks.shuffle(rng);
    let mut files = vec![
        ("main.tf".to_string(), String::new()),
        ("other.tf".to_string(), String::new()),
    ];
    for b in blocks {
        let file = &mut files[usize::from(rng.gen_bool(0.3))].1;
        if !file.is_empty() {
            file.push('\n');
        }
        file.push_str(b);
    }
    files.retain(|(_, text)| !text.is_empty());
    let i = rng.gen_range(0..files.len());
    let what = format!("{} in {}", break_text(rng, &mut files[i].1), files[i].0);
    (files, what)
}

#[test]
fn broken_syntax_beside_decoding_problems_is_decoded_as_terraform_does() {
    let (mut rng, seed) = rng("broken syntax beside decoding problems", 24_101);
    let cases: Vec<_> = (0..cases(30)).map(|_| decoding_case(&mut rng)).collect();
    assert_judged_as_terraform_does(seed, &cases, |(files, what)| {
        (files.as_slice(), format!(" ({what})"))
    });
}
