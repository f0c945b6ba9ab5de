//! Variable type constraints as override merging reads them, and the values cty's
//! conversions make of literal defaults (whether they convert, and cty's words when not, is
//! `config::load::cty`).

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
}

impl Type {
    /// The value cty's `convert.Convert` makes of literal `v` for this type, as a literal;
    /// `None` when it does not convert. Sets become sorted, duplicate-free arrays (the order
    /// cty iterates a set of primitives in) and objects lose attributes their type lacks.
    pub fn convert(&self, v: &Value) -> Option<Value> {
        Some(match (self, v) {
            (_, Value::Null) | (Type::Any, _) => v.clone(),
            (Type::String, Value::String(_)) => v.clone(),
            (Type::String, Value::Number(n)) => Value::String(number_text(n)?),
            (Type::String, Value::Bool(b)) => Value::String(b.to_string()),
            (Type::Number, Value::Number(_)) => v.clone(),
            (Type::Number, Value::String(s)) if s.trim() == s && is_decimal_number(s) => {
                Value::Number(s.clone())
            }
            (Type::Bool, Value::Bool(_)) => v.clone(),
            (Type::Bool, Value::String(s)) => match s.as_str() {
                "true" | "1" => Value::Bool(true),
                "false" | "0" => Value::Bool(false),
                _ => return None,
            },
            (Type::List(t), Value::Array(items)) => {
                Value::Array(items.iter().map(|i| t.convert(i)).collect::<Option<_>>()?)
            }
            (Type::Set(t), Value::Array(items)) => {
                let mut out: Vec<Value> =
                    items.iter().map(|i| t.convert(i)).collect::<Option<_>>()?;
                if !out.iter().all(|i| matches!(i, Value::String(_))) {
                    return Some(Value::Array(out));
                }
                crate::collections::sort_by(&mut out, |a, b| match (a, b) {
                    (Value::String(a), Value::String(b)) => a.cmp(b),
                    _ => std::cmp::Ordering::Equal,
                });
                out.dedup();
                Value::Array(out)
            }
            (Type::Map(t), Value::Object(m)) => Value::Object(
                m.iter()
                    .map(|(k, i)| Some((k.clone(), t.convert(i)?)))
                    .collect::<Option<_>>()?,
            ),
            (Type::Tuple(ts), Value::Array(items)) if ts.len() == items.len() => Value::Array(
                ts.iter()
                    .zip(items)
                    .map(|(t, i)| t.convert(i))
                    .collect::<Option<_>>()?,
            ),
            (Type::Object(attrs), Value::Object(m)) => Value::Object(
                attrs
                    .iter()
                    .map(|(name, t, optional)| match m.get(name) {
                        Some(val) => Some((name.clone(), t.convert(val)?)),
                        None if *optional => Some((name.clone(), Value::Null)),
                        None => None,
                    })
                    .collect::<Option<_>>()?,
            ),
            _ => return None,
        })
    }
}

/// A number literal as cty prints it when converting to a string (`big.Float.Text('f', -1)`):
/// plain decimal digits, no exponent, no trailing fractional zeros.
fn number_text(n: &str) -> Option<String> {
    let (negative, s) = match n.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, n.strip_prefix('+').unwrap_or(n)),
    };
    let (mantissa, exponent) = match s.find(['e', 'E']) {
        Some(at) => (&s[..at], s[at + 1..].parse::<i64>().ok()?),
        None => (s, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if !(int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit())) || exponent.abs() > 4096 {
        return None;
    }
    let digits = format!("{int}{frac}");
    // The decimal point sits after `point` digits of `digits`.
    let point = int.len() as i64 + exponent;
    let (whole, fraction) = if point <= 0 {
        (
            String::new(),
            format!("{}{digits}", "0".repeat((-point) as usize)),
        )
    } else if point as usize >= digits.len() {
        (
            format!("{digits}{}", "0".repeat(point as usize - digits.len())),
            String::new(),
        )
    } else {
        (
            digits[..point as usize].to_string(),
            digits[point as usize..].to_string(),
        )
    };
    let whole = whole.trim_start_matches('0');
    let fraction = fraction.trim_end_matches('0');
    let whole = if whole.is_empty() { "0" } else { whole };
    let zero = whole == "0" && fraction.is_empty();
    let sign = if negative && !zero { "-" } else { "" };
    Some(match fraction.is_empty() {
        true => format!("{sign}{whole}"),
        false => format!("{sign}{whole}.{fraction}"),
    })
}

fn object_key(k: &hcl_edit::expr::ObjectKey) -> Option<String> {
    match k {
        hcl_edit::expr::ObjectKey::Ident(i) => Some(i.as_str().to_string()),
        hcl_edit::expr::ObjectKey::Expression(e) => e.as_str().map(str::to_string),
    }
}

/// Whether `s` is a number as cty's string conversion reads it (Go's `big.ParseFloat` in
/// base 10): a signed decimal with optional fraction and exponent, or an infinity.
pub(crate) fn is_decimal_number(s: &str) -> bool {
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
    fn converted_literals_are_what_cty_makes() {
        let v = |s: &str| eval_literal(s).unwrap();
        let s = |x: &str| Value::String(x.into());
        assert_eq!(ty("string").convert(&v("1e3")), Some(s("1000")));
        assert_eq!(ty("string").convert(&v("-0.50")), Some(s("-0.5")));
        assert_eq!(ty("string").convert(&v("2.5e-3")), Some(s("0.0025")));
        assert_eq!(ty("string").convert(&v("true")), Some(s("true")));
        assert_eq!(ty("bool").convert(&v("\"1\"")), Some(Value::Bool(true)));
        assert_eq!(
            ty("set(string)").convert(&v("[\"b\", \"a\", \"b\"]")),
            Some(Value::Array(vec![s("a"), s("b")]))
        );
        assert_eq!(ty("number").convert(&v("\"x\"")), None);
    }
}
