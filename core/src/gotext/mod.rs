//! Go's text primitives that Terraform's messages and files depend on, reproduced exactly:
//! `unicode.IsPrint` (which runes hclwrite and `strconv.Quote` leave as they are),
//! `strconv.Quote` / `%q`, `strings.ToLower` and `base64.StdEncoding`. The bottom floor: every module that quotes
//! or lower-cases user text the Go way uses these, so there is one table and one rule.

pub(crate) mod base64;
mod is_print;
mod quote;
pub(crate) mod suggest;
mod to_lower;
pub(crate) mod url;

pub(crate) use is_print::is_print;
pub(crate) use quote::{quote, quote_bytes};
pub(crate) use to_lower::to_lower;
