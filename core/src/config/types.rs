//! Variable type constraints and the value conversions Terraform (cty) applies to defaults,
//! with cty's error texts, for checking a merged variable's default against its type.

use crate::config::literal::Literal as Value;
use hcl_edit::expr::Expression;

/// A type constraint (`string`, `list(number)`, `object({...})`, ...).
#[derive(Debug, Clone, PartialEq)]
pub enum Type {
    /// `any`: anything converts.
    Any,
    /// `string`
    String,
    /// `number`
    Number,
    /// `bool`
    Bool,
    /// `list(T)`
    List(Box<Type>),
    /// `set(T)`
    Set(Box<Type>),
    /// `map(T)`
    Map(Box<Type>),
    /// `tuple([...])`
    Tuple(Vec<Type>),
    /// `object({...})`: attribute name, type, optional.
    Object(Vec<(String, Type, bool)>),
}

impl Type {
    /// Parses a type expression; `None` for anything that is not a type constraint.
    pub fn parse(expr: &Expression) -> Option<Type> {
        if let Some(v) = expr.as_variable() {
            return Some(match v.as_str() {
                "any" => Type::Any,
                "string" => Type::String,
                "number" => Type::Number,
                "bool" => Type::Bool,
                _ => return None,
            });
        }
        if let Some(p) = expr.as_parenthesis() {
            return Type::parse(p.inner());
        }
        let call = expr.as_func_call()?;
        let name = call.name.name.as_str();
        let args: Vec<&Expression> = call.args.iter().collect();
        match (name, args.as_slice()) {
            ("list", [t]) => Some(Type::List(Box::new(Type::parse(t)?))),
            ("set", [t]) => Some(Type::Set(Box::new(Type::parse(t)?))),
            ("map", [t]) => Some(Type::Map(Box::new(Type::parse(t)?))),
            ("tuple", [t]) => {
                let arr = t.as_array()?;
                arr.iter()
                    .map(Type::parse)
                    .collect::<Option<Vec<_>>>()
                    .map(Type::Tuple)
            }
            ("object", [t]) => {
                let obj = t.as_object()?;
                let mut attrs = Vec::new();
                for (k, v) in obj.iter() {
                    let key = object_key(k)?;
                    let (ty, optional) = match v.expr().as_func_call() {
                        Some(c) if c.name.name.as_str() == "optional" => {
                            (Type::parse(c.args.iter().next()?)?, true)
                        }
                        _ => (Type::parse(v.expr())?, false),
                    };
                    attrs.push((key, ty, optional));
                }
                Some(Type::Object(attrs))
            }
            _ => None,
        }
    }

    /// cty's `FriendlyNameForConstraint`.
    pub fn friendly(&self) -> String {
        match self {
            Type::Any => "any type".into(),
            Type::String => "string".into(),
            Type::Number => "number".into(),
            Type::Bool => "bool".into(),
            Type::List(t) => format!("list of {}", t.friendly()),
            Type::Set(t) => format!("set of {}", t.friendly()),
            Type::Map(t) => format!("map of {}", t.friendly()),
            Type::Tuple(_) => "tuple".into(),
            Type::Object(_) => "object".into(),
        }
    }

    /// Converts `v` to this type as cty's `convert.Convert` would; `Err` carries cty's message.
    pub fn check(&self, v: &Value) -> Result<(), String> {
        let required = || format!("{} required", self.friendly());
        match (self, v) {
            (_, Value::Null) | (Type::Any, _) => Ok(()),
            (Type::String, Value::String(_) | Value::Number(_) | Value::Bool(_)) => Ok(()),
            (Type::Number, Value::Number(_)) => Ok(()),
            (Type::Number, Value::String(s)) => {
                if s.trim() == s && is_decimal_number(s) {
                    Ok(())
                } else {
                    Err("a number is required".into())
                }
            }
            (Type::Bool, Value::Bool(_)) => Ok(()),
            (Type::Bool, Value::String(s)) => match s.as_str() {
                "true" | "false" | "1" | "0" => Ok(()),
                _ => Err("a bool is required".into()),
            },
            (Type::List(t) | Type::Set(t), Value::Array(items)) => {
                items.iter().try_for_each(|i| t.check(i))
            }
            (Type::Map(t), Value::Object(m)) => m.values().try_for_each(|i| t.check(i)),
            (Type::Tuple(ts), Value::Array(items)) => {
                if ts.len() != items.len() {
                    return Err(required());
                }
                ts.iter().zip(items).try_for_each(|(t, i)| t.check(i))
            }
            (Type::Object(attrs), Value::Object(m)) => {
                for (name, t, optional) in attrs {
                    match m.get(name) {
                        Some(val) => t.check(val)?,
                        None if *optional => {}
                        None => return Err(format!("attribute {name:?} is required")),
                    }
                }
                Ok(())
            }
            _ => Err(required()),
        }
    }
}

fn object_key(k: &hcl_edit::expr::ObjectKey) -> Option<String> {
    match k {
        hcl_edit::expr::ObjectKey::Ident(i) => Some(i.as_str().to_string()),
        hcl_edit::expr::ObjectKey::Expression(e) => e.as_str().map(str::to_string),
    }
}

/// Whether `s` is a number as cty's string conversion reads it (Go's `big.ParseFloat` in
/// base 10): a signed decimal with optional fraction and exponent, or an infinity.
fn is_decimal_number(s: &str) -> bool {
    let s = s.strip_prefix(['+', '-']).unwrap_or(s);
    if s == "Inf" || s == "inf" {
        return true;
    }
    let (mantissa, exponent) = match s.find(['e', 'E']) {
        Some(at) => (&s[..at], Some(&s[at + 1..])),
        None => (s, None),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok = digits(int) && digits(frac) && !(int.is_empty() && frac.is_empty());
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['+', '-']).unwrap_or(e);
        !e.is_empty() && digits(e)
    });
    mantissa_ok && exponent_ok
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::literal::eval_literal;

    fn ty(s: &str) -> Type {
        Type::parse(&hcl_edit::parser::parse_expr(s).unwrap()).unwrap()
    }

    #[test]
    fn decimal_numbers_are_what_big_parse_float_reads() {
        for ok in ["1", "-1.5", "+.5", "5.", "1e3", "2.5E-7", "Inf", "-inf"] {
            assert!(is_decimal_number(ok), "{ok}");
        }
        for bad in [
            "", ".", "e3", "1e", "1.2.3", "0x10", "nan", "infinity", "1_000", " 1",
        ] {
            assert!(!is_decimal_number(bad), "{bad}");
        }
    }

    #[test]
    fn conversions_follow_cty() {
        let v = |s: &str| eval_literal(s).unwrap();
        assert_eq!(ty("number").check(&v("\"12\"")), Ok(()));
        assert_eq!(
            ty("number").check(&v("\"x\"")),
            Err("a number is required".into())
        );
        assert_eq!(ty("string").check(&v("[1]")), Err("string required".into()));
        assert_eq!(
            ty("list(string)").check(&v("\"a\"")),
            Err("list of string required".into())
        );
        assert_eq!(
            ty("object({a = string})").check(&v("{}")),
            Err("attribute \"a\" is required".into())
        );
        assert_eq!(ty("object({a = optional(string)})").check(&v("{}")), Ok(()));
        assert_eq!(
            ty("bool").check(&v("\"yes\"")),
            Err("a bool is required".into())
        );
    }
}
