//! The slice of cty (Terraform's value system) that loading a module needs: the types a type
//! constraint names, the values a constant expression has, whether one converts to the
//! other (`convert.Convert`) and, when not, cty's words for why (`MismatchMessage`, path
//! errors as `tfdiags.FormatError` prints them).
//!
//! Only what a constant expression can produce is modelled: primitives, tuples and objects,
//! null and unknown. Where cty's answer would need a part not modelled (unifying different
//! structural types for `list(any)`), the answer is [`Verdict::Unsure`] and callers say
//! nothing rather than guess.

/// A cty type (constraint): `Dynamic` is `any`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ty {
    /// `any` / `cty.DynamicPseudoType`.
    Dynamic,
    /// `string`
    String,
    /// `number`
    Number,
    /// `bool`
    Bool,
    /// `list(T)`
    List(Box<Ty>),
    /// `set(T)`
    Set(Box<Ty>),
    /// `map(T)`
    Map(Box<Ty>),
    /// `tuple([...])`
    Tuple(Vec<Ty>),
    /// `object({...})`: attributes sorted by name, each with whether it is optional.
    Object(Vec<(String, Ty, bool)>),
}

/// A constant value (what `Expression.Value(nil)` gives).
#[derive(Debug, Clone, PartialEq)]
pub enum Val {
    /// `null` (of dynamic type).
    Null,
    /// An unknown value (a reference or call that could not be evaluated: of dynamic type;
    /// an operation on one: of the operation's type).
    Unknown(Ty),
    /// `true` / `false`
    Bool(bool),
    /// A number, as written (a leading `-` for a negation).
    Number(String),
    /// A number an operator computed that has no such text (`1/3`, an infinity).
    Num(crate::config::load::cty_number::Num),
    /// A string.
    String(String),
    /// A tuple.
    Tuple(Vec<Val>),
    /// An object: attributes sorted by name, the last of repeated keys kept.
    Object(Vec<(String, Val)>),
}

impl From<&crate::config::literal::Literal> for Val {
    fn from(l: &crate::config::literal::Literal) -> Val {
        use crate::config::literal::Literal as L;
        match l {
            L::Null => Val::Null,
            L::Bool(b) => Val::Bool(*b),
            L::Number(n) => Val::Number(n.clone()),
            L::String(s) => Val::String(s.clone()),
            L::Array(items) => Val::Tuple(items.iter().map(Val::from).collect()),
            L::Object(m) => Val::Object(m.iter().map(|(k, v)| (k.clone(), Val::from(v))).collect()),
        }
    }
}

impl From<&crate::config::types::Type> for Ty {
    fn from(t: &crate::config::types::Type) -> Ty {
        use crate::config::types::Type as T;
        match t {
            T::Any => Ty::Dynamic,
            T::String => Ty::String,
            T::Number => Ty::Number,
            T::Bool => Ty::Bool,
            T::List(e) => Ty::List(Box::new(Ty::from(&**e))),
            T::Set(e) => Ty::Set(Box::new(Ty::from(&**e))),
            T::Map(e) => Ty::Map(Box::new(Ty::from(&**e))),
            T::Tuple(es) => Ty::Tuple(es.iter().map(Ty::from).collect()),
            T::Object(attrs) => {
                let mut out: Vec<(String, Ty, bool)> = Vec::new();
                for (n, t, opt) in attrs {
                    out.retain(|(m, _, _)| m != n);
                    out.push((n.clone(), Ty::from(t), *opt));
                }
                crate::collections::sort_by(&mut out, |a, b| a.0.cmp(&b.0));
                Ty::Object(out)
            }
        }
    }
}

/// Whether a conversion exists, or cannot be decided here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// It converts.
    Yes,
    /// It does not.
    No,
    /// It needs a part of cty not modelled here.
    Unsure,
}

impl Ty {
    fn is_primitive(&self) -> bool {
        matches!(self, Ty::String | Ty::Number | Ty::Bool)
    }

    fn is_collection(&self) -> bool {
        matches!(self, Ty::List(_) | Ty::Set(_) | Ty::Map(_))
    }

    /// cty's `FriendlyName`.
    pub fn friendly_name(&self) -> String {
        self.friendly(false)
    }

    /// cty's `FriendlyNameForConstraint`.
    pub fn friendly_for_constraint(&self) -> String {
        self.friendly(true)
    }

    fn friendly(&self, constraint: bool) -> String {
        match self {
            Ty::Dynamic if constraint => "any type".into(),
            Ty::Dynamic => "dynamic".into(),
            Ty::String => "string".into(),
            Ty::Number => "number".into(),
            Ty::Bool => "bool".into(),
            Ty::List(e) => format!("list of {}", e.element_name(constraint)),
            Ty::Set(e) => format!("set of {}", e.element_name(constraint)),
            Ty::Map(e) => format!("map of {}", e.element_name(constraint)),
            Ty::Tuple(_) => "tuple".into(),
            Ty::Object(_) => "object".into(),
        }
    }

    /// Whether `any` appears anywhere in the type.
    fn has_dynamic(&self) -> bool {
        match self {
            Ty::Dynamic => true,
            Ty::List(e) | Ty::Set(e) | Ty::Map(e) => e.has_dynamic(),
            Ty::Tuple(es) => es.iter().any(Ty::has_dynamic),
            Ty::Object(attrs) => attrs.iter().any(|(_, t, _)| t.has_dynamic()),
            _ => false,
        }
    }

    /// A collection's element type, named as cty names it after "list of".
    fn element_name(&self, constraint: bool) -> String {
        match self {
            Ty::Dynamic if constraint => "any single type".into(),
            _ => self.friendly(constraint),
        }
    }

    fn element(&self) -> &Ty {
        match self {
            Ty::List(e) | Ty::Set(e) | Ty::Map(e) => e,
            _ => &Ty::Dynamic,
        }
    }
}

impl Val {
    /// The value's type.
    pub fn ty(&self) -> Ty {
        match self {
            Val::Null => Ty::Dynamic,
            Val::Unknown(t) => t.clone(),
            Val::Bool(_) => Ty::Bool,
            Val::Number(_) | Val::Num(_) => Ty::Number,
            Val::String(_) => Ty::String,
            Val::Tuple(items) => Ty::Tuple(items.iter().map(Val::ty).collect()),
            Val::Object(attrs) => Ty::Object(
                attrs
                    .iter()
                    .map(|(k, v)| (k.clone(), v.ty(), false))
                    .collect(),
            ),
        }
    }
}

/// Whether type `from` converts to `to` (cty's unsafe conversions, as `convert.Convert`
/// uses).
pub fn converts(from: &Ty, to: &Ty) -> Verdict {
    use Verdict::*;
    match (from, to) {
        (_, Ty::Dynamic) | (Ty::Dynamic, _) => Yes,
        (a, b) if a.is_primitive() && b.is_primitive() => {
            // Every primitive converts to string; strings to numbers and bools (unsafe);
            // numbers and bools never to each other.
            if a == b || *b == Ty::String || *a == Ty::String {
                Yes
            } else {
                No
            }
        }
        (Ty::Object(got), Ty::Object(want)) => {
            all(want.iter().map(|(name, wty, optional)| {
                match got.iter().find(|(n, _, _)| n == name) {
                    Some((_, gty, _)) => converts(gty, wty),
                    None if *optional => Yes,
                    None => No,
                }
            }))
        }
        (Ty::Tuple(got), Ty::Tuple(want)) => {
            if got.len() != want.len() {
                return No;
            }
            all(got.iter().zip(want).map(|(g, w)| converts(g, w)))
        }
        (Ty::Tuple(items), Ty::List(e) | Ty::Set(e)) => elements_convert(items.iter(), e),
        (Ty::Object(attrs), Ty::Map(e)) => elements_convert(attrs.iter().map(|(_, t, _)| t), e),
        _ => No,
    }
}

fn all(verdicts: impl Iterator<Item = Verdict>) -> Verdict {
    let mut out = Verdict::Yes;
    for v in verdicts {
        match v {
            Verdict::No => return Verdict::No,
            Verdict::Unsure => out = Verdict::Unsure,
            Verdict::Yes => {}
        }
    }
    out
}

/// Structural elements into a collection of `e`; for `any` elements, first the type they
/// unify to.
fn elements_convert<'a>(items: impl Iterator<Item = &'a Ty> + Clone, e: &Ty) -> Verdict {
    if items.clone().next().is_none() {
        return Verdict::Yes;
    }
    if *e != Ty::Dynamic && e.has_dynamic() && items.clone().nth(1).is_some() {
        // The converted elements keep their own types where the element type says `any`,
        // and cty then requires them to unify: not modelled.
        return Verdict::Unsure;
    }
    let target = if *e == Ty::Dynamic {
        match unify(items.clone()) {
            Unified::Ty(t) => t,
            Unified::None => return Verdict::No,
            Unified::Unsure => return Verdict::Unsure,
        }
    } else {
        e.clone()
    };
    all(items.map(|t| {
        if *t == target {
            Verdict::Yes
        } else {
            converts(t, &target)
        }
    }))
}

enum Unified {
    Ty(Ty),
    None,
    Unsure,
}

/// cty's `unify` (unsafe) for the types constant values have.
fn unify<'a>(types: impl Iterator<Item = &'a Ty>) -> Unified {
    let known: Vec<&Ty> = types.filter(|t| **t != Ty::Dynamic).collect();
    let Some(first) = known.first() else {
        return Unified::Ty(Ty::Dynamic);
    };
    if known.iter().all(|t| t == first) {
        return Unified::Ty((*first).clone());
    }
    if known.iter().all(|t| t.is_primitive()) {
        // String is the one primitive every other converts to; numbers and bools do not
        // convert to each other.
        return if known.contains(&&Ty::String) {
            Unified::Ty(Ty::String)
        } else {
            Unified::None
        };
    }
    if known.iter().any(|t| t.is_primitive()) {
        // A primitive and a structural type have no common type.
        return Unified::None;
    }
    let tuples = known.iter().filter(|t| matches!(t, Ty::Tuple(_))).count();
    if tuples > 0 && tuples < known.len() {
        // Tuples and objects together.
        return Unified::None;
    }
    Unified::Unsure
}

/// cty's `MismatchMessage`: why type `got` does not convert to `want`.
pub fn mismatch_message(got: &Ty, want: &Ty) -> String {
    match (got, want) {
        (Ty::Object(_), Ty::Object(_)) => mismatch_objects(got, want),
        (Ty::Tuple(_), Ty::List(e)) if **e == Ty::Dynamic => {
            "all list elements must have the same type".into()
        }
        (Ty::Tuple(_), Ty::Set(e)) if **e == Ty::Dynamic => {
            "all set elements must have the same type".into()
        }
        (Ty::Object(_), Ty::Map(e)) if **e == Ty::Dynamic => {
            "all map elements must have the same type".into()
        }
        (Ty::Tuple(_) | Ty::Object(_), w) if w.is_collection() => mismatch_from_structural(got, w),
        _ if !likely_to_confuse(got, want) => format!(
            "{} required, but have {}",
            want.friendly_name(),
            got.friendly_name()
        ),
        _ => format!("{} required", want.friendly_for_constraint()),
    }
}

fn likely_to_confuse(got: &Ty, want: &Ty) -> bool {
    if got.is_primitive() != want.is_primitive() {
        return false;
    }
    if *want == Ty::String {
        return false;
    }
    if matches!((got, want), (Ty::Bool, Ty::Number) | (Ty::Number, Ty::Bool)) {
        return false;
    }
    // cty tests "object and tuple" for the reverse direction, which is never true.
    !matches!((got, want), (Ty::Tuple(_), Ty::Object(_)))
}

fn mismatch_objects(got: &Ty, want: &Ty) -> String {
    let (Ty::Object(got), Ty::Object(want)) = (got, want) else {
        return "incorrect object attributes".into();
    };
    let mut missing: Vec<&str> = Vec::new();
    let mut mismatch: Option<String> = None;
    for (name, wty, optional) in want {
        match got.iter().find(|(n, _, _)| n == name) {
            None if !optional => missing.push(name),
            None => {}
            Some((_, gty, _))
                if gty != wty && mismatch.is_none() && converts(gty, wty) == Verdict::No =>
            {
                mismatch = Some(format!(
                    "attribute {name:?}: {}",
                    mismatch_message(gty, wty)
                ));
            }
            Some(_) => {}
        }
    }
    match missing.as_slice() {
        [] => mismatch.unwrap_or_else(|| "incorrect object attributes".into()),
        [one] => format!("attribute {one:?} is required"),
        [a, b] => format!("attributes {a:?} and {b:?} are required"),
        [init @ .., last] => {
            let init: Vec<String> = init.iter().map(|n| format!("{n:?}")).collect();
            format!("attributes {}, and {last:?} are required", init.join(", "))
        }
    }
}

fn mismatch_from_structural(got: &Ty, want: &Ty) -> String {
    let required = || format!("{} required", want.friendly_for_constraint());
    let ety = want.element();
    match (got, want) {
        (Ty::Tuple(items), Ty::List(_) | Ty::Set(_)) => {
            for (i, t) in items.iter().enumerate() {
                if t != ety && converts(t, ety) == Verdict::No {
                    return format!("element {i}: {}", mismatch_message(t, ety));
                }
            }
            format!("all elements must be {}", ety.friendly_for_constraint())
        }
        (Ty::Object(attrs), Ty::Map(_)) => {
            for (name, t, _) in attrs {
                if t != ety && converts(t, ety) == Verdict::No {
                    return format!("element {name:?}: {}", mismatch_message(t, ety));
                }
            }
            format!("all elements must be {}", ety.friendly_for_constraint())
        }
        _ => required(),
    }
}

/// One step of a cty path, as `format.CtyPath` prints it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    Attr(String),
    Index(usize),
    Key(String),
}

/// `convert.Convert(v, want)` as `tfdiags.FormatError` words its failure; `Ok` when it
/// converts, `Err(None)` when this cannot be decided here.
pub fn convert(v: &Val, want: &Ty) -> Result<(), Option<String>> {
    match converts(&v.ty(), want) {
        Verdict::Unsure => return Err(None),
        Verdict::No => return Err(Some(mismatch_message(&v.ty(), want))),
        Verdict::Yes => {}
    }
    let mut path = Vec::new();
    match convert_value(v, want, &mut path) {
        Ok(()) => Ok(()),
        Err(msg) if path.is_empty() => Err(Some(msg)),
        Err(msg) => Err(Some(format!("{}: {msg}", path_text(&path)))),
    }
}

/// `convert.Convert(v, want)`'s error as `err.Error()` gives it (no path).
pub fn convert_plain(v: &Val, want: &Ty) -> Result<(), Option<String>> {
    match converts(&v.ty(), want) {
        Verdict::Unsure => Err(None),
        Verdict::No => Err(Some(mismatch_message(&v.ty(), want))),
        Verdict::Yes => convert_value(v, want, &mut Vec::new()).map_err(Some),
    }
}

fn path_text(path: &[Step]) -> String {
    path.iter()
        .map(|s| match s {
            Step::Attr(a) => format!(".{a}"),
            Step::Index(i) => format!("[{i}]"),
            Step::Key(k) => format!("[{k:?}]"),
        })
        .collect()
}

/// The value-level part of a conversion whose types convert: strings that are not numbers
/// or bools. `path` is left at the failing element.
fn convert_value(v: &Val, want: &Ty, path: &mut Vec<Step>) -> Result<(), String> {
    match (v, want) {
        (Val::Null | Val::Unknown(_), _) | (_, Ty::Dynamic) => Ok(()),
        (Val::String(s), Ty::Number) => {
            if crate::config::types::is_decimal_number(s) {
                Ok(())
            } else {
                Err("a number is required".into())
            }
        }
        (Val::String(s), Ty::Bool) => match s.as_str() {
            "true" | "false" | "1" | "0" => Ok(()),
            _ => Err(match crate::gotext::to_lower(s).as_str() {
                "true" => {
                    "a bool is required; to convert from string, use lowercase \"true\"".into()
                }
                "false" => {
                    "a bool is required; to convert from string, use lowercase \"false\"".into()
                }
                _ => "a bool is required".into(),
            }),
        },
        (Val::Tuple(items), Ty::Tuple(tys)) => {
            for (i, (item, t)) in items.iter().zip(tys).enumerate() {
                path.push(Step::Index(i));
                convert_value(item, t, path)?;
                path.pop();
            }
            Ok(())
        }
        (Val::Tuple(items), Ty::List(e) | Ty::Set(e)) => {
            let target = element_target(items.iter().map(Val::ty), e);
            for (i, item) in items.iter().enumerate() {
                path.push(Step::Index(i));
                convert_value(item, &target, path)?;
                path.pop();
            }
            Ok(())
        }
        (Val::Object(attrs), Ty::Map(e)) => {
            let target = element_target(attrs.iter().map(|(_, v)| v.ty()), e);
            for (k, item) in attrs {
                path.push(Step::Key(k.clone()));
                convert_value(item, &target, path)?;
                path.pop();
            }
            Ok(())
        }
        (Val::Object(attrs), Ty::Object(want)) => {
            for (name, t, _) in want {
                if let Some((_, item)) = attrs.iter().find(|(k, _)| k == name) {
                    path.push(Step::Attr(name.clone()));
                    convert_value(item, t, path)?;
                    path.pop();
                }
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// The element type values convert to for a collection of `e` (`any`: what they unify to).
fn element_target(types: impl Iterator<Item = Ty>, e: &Ty) -> Ty {
    if *e != Ty::Dynamic {
        return e.clone();
    }
    let types: Vec<Ty> = types.collect();
    match unify(types.iter()) {
        Unified::Ty(t) => t,
        _ => Ty::Dynamic,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(x: &str) -> Val {
        Val::String(x.into())
    }
    fn n(x: &str) -> Val {
        Val::Number(x.into())
    }

    #[test]
    fn messages_are_ctys() {
        let list = |t: Ty| Ty::List(Box::new(t));
        assert_eq!(
            convert(
                &Val::Tuple(vec![n("1"), Val::Tuple(vec![n("2")])]),
                &list(Ty::String)
            ),
            Err(Some("element 1: string required, but have tuple".into()))
        );
        assert_eq!(
            convert(&Val::Tuple(vec![s("1"), s("x")]), &list(Ty::Number)),
            Err(Some("[1]: a number is required".into()))
        );
        assert_eq!(
            convert(
                &Val::Tuple(vec![n("1"), Val::Bool(true)]),
                &list(Ty::Dynamic)
            ),
            Err(Some("all list elements must have the same type".into()))
        );
        assert_eq!(
            convert(&Val::Tuple(vec![n("1"), s("a")]), &list(Ty::Dynamic)),
            Ok(())
        );
        assert_eq!(
            convert(&s("TRUE"), &Ty::Bool),
            Err(Some(
                "a bool is required; to convert from string, use lowercase \"true\"".into()
            ))
        );
        assert_eq!(
            convert(&Val::Object(vec![]), &Ty::Tuple(vec![Ty::String])),
            Err(Some("tuple required".into()))
        );
        let obj = Ty::Object(vec![
            ("a".into(), Ty::Number, false),
            ("b".into(), Ty::String, false),
            ("c".into(), Ty::Bool, false),
        ]);
        assert_eq!(
            convert(&Val::Object(vec![]), &obj),
            Err(Some(
                "attributes \"a\", \"b\", and \"c\" are required".into()
            ))
        );
        assert_eq!(
            convert(&Val::Object(vec![("b".into(), s("x"))]), &obj),
            Err(Some("attributes \"a\" and \"c\" are required".into()))
        );
        assert_eq!(
            convert(&n("1"), &Ty::Bool),
            Err(Some("bool required, but have number".into()))
        );
        assert_eq!(
            convert(&s("a"), &list(Ty::Dynamic)),
            Err(Some("list of dynamic required, but have string".into()))
        );
        // Tuples of different shapes under `any`: not decided here.
        assert_eq!(
            convert(
                &Val::Tuple(vec![Val::Tuple(vec![n("1")]), Val::Tuple(vec![s("a")])]),
                &list(Ty::Dynamic)
            ),
            Err(None)
        );
    }
}
