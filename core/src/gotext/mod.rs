//! Go's text primitives that Terraform's messages and files depend on, reproduced exactly:
//! `unicode.IsPrint` (which runes hclwrite and `strconv.Quote` leave as they are) and
//! `strconv.Quote` / `%q`. The bottom floor: every module that quotes user text the Go way
//! uses these, so there is one table and one quoting rule.

mod is_print;
mod quote;
pub(crate) mod suggest;

pub(crate) use is_print::is_print;
pub(crate) use quote::{quote, quote_bytes};
