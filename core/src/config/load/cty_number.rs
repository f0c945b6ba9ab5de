//! cty's numbers (Go `big.Float`s of 512 bits, rounded to nearest even) as far as HCL's
//! operators on constants need them: exact rationals over `i128`, with what is known of how
//! far the float cty holds is from the rational, so that a comparison is answered only
//! when the float comparison surely agrees. Anything out of range is `None`: the callers
//! then say nothing rather than guess.

use std::cmp::Ordering;

/// How the float cty holds relates to the rational.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exactness {
    /// The float is the rational (a dyadic rational well inside 512 bits).
    Exact,
    /// The float is the rational rounded once (a parsed literal, a quotient of exact
    /// numbers): two of these with equal rationals are equal floats.
    Rounded,
    /// Rounded more than once: equal rationals say nothing of the floats.
    Inexact,
}

/// A number value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Num {
    /// A finite number `num / den` (`den > 0`, reduced); a zero's sign is `neg_zero`.
    Finite {
        /// Numerator.
        num: i128,
        /// Denominator.
        den: i128,
        /// Whether a zero is `-0`.
        neg_zero: bool,
        /// How the float relates to the rational.
        exact: Exactness,
    },
    /// An infinity (`neg`: negative), as `x / 0` gives.
    Inf {
        /// Whether it is negative.
        neg: bool,
    },
}

/// What an operation gives: a number, a Go `big.ErrNaN` panic (cty's function turns it into
/// its own message), or `None` when not modelled.
pub type Outcome = Option<Result<Num, Nan>>;

/// A `big.ErrNaN`: the operation has no defined result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Nan;

fn gcd(mut a: i128, mut b: i128) -> i128 {
    a = a.abs();
    b = b.abs();
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

fn is_pow2(d: i128) -> bool {
    d > 0 && d & (d - 1) == 0
}

fn worst(a: Exactness, b: Exactness) -> Exactness {
    use Exactness::*;
    match (a, b) {
        (Exact, Exact) => Exact,
        _ => Inexact,
    }
}

impl Num {
    /// A reduced finite number; a non-dyadic rational from exact inputs is rounded once.
    fn finite(num: i128, den: i128, neg_zero: bool, exact: Exactness) -> Option<Num> {
        if den == 0 {
            return None;
        }
        let (mut num, mut den) = if den < 0 {
            (num.checked_neg()?, den.checked_neg()?)
        } else {
            (num, den)
        };
        let g = gcd(num, den).max(1);
        num /= g;
        den /= g;
        let exact = match exact {
            Exactness::Exact if !is_pow2(den) => Exactness::Rounded,
            Exactness::Rounded if is_pow2(den) => Exactness::Exact,
            e => e,
        };
        Some(Num::Finite {
            num,
            den,
            neg_zero: num == 0 && neg_zero,
            exact,
        })
    }

    /// `cty.ParseNumberVal` of a decimal literal (`-1.5e3`); `None` when out of range.
    pub fn parse(text: &str) -> Option<Num> {
        let (neg, s) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text.strip_prefix('+').unwrap_or(text)),
        };
        let (mantissa, exp) = match s.find(['e', 'E']) {
            Some(at) => (&s[..at], s[at + 1..].parse::<i32>().ok()?),
            None => (s, 0),
        };
        let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        if int.is_empty() && frac.is_empty()
            || !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit())
        {
            return None;
        }
        let digits = format!("{int}{frac}");
        let digits = digits.trim_start_matches('0');
        let mut num: i128 = if digits.is_empty() {
            0
        } else {
            digits.parse().ok()?
        };
        let scale = exp.checked_sub(i32::try_from(frac.len()).ok()?)?;
        let mut den: i128 = 1;
        let pow = 10i128.checked_pow(scale.unsigned_abs())?;
        if scale >= 0 {
            num = num.checked_mul(pow)?;
        } else {
            den = pow;
        }
        if neg {
            num = -num;
        }
        Num::finite(num, den, neg, Exactness::Exact)
    }

    /// Whether this is a zero or an infinity of negative sign.
    fn negative(&self) -> bool {
        match *self {
            Num::Finite { num, neg_zero, .. } => num < 0 || (num == 0 && neg_zero),
            Num::Inf { neg } => neg,
        }
    }

    /// A finite number's numerator, denominator and exactness; `None` for an infinity (the
    /// operations match infinities first, so their finite arms always get `Some`).
    fn fraction(&self) -> Option<(i128, i128, Exactness)> {
        match *self {
            Num::Finite {
                num, den, exact, ..
            } => Some((num, den, exact)),
            Num::Inf { .. } => None,
        }
    }

    fn is_zero(&self) -> bool {
        matches!(self, Num::Finite { num: 0, .. })
    }

    /// `-x`.
    pub fn neg(self) -> Num {
        match self {
            Num::Finite {
                num,
                den,
                neg_zero,
                exact,
            } => Num::Finite {
                num: -num,
                den,
                neg_zero: num == 0 && !neg_zero,
                exact,
            },
            Num::Inf { neg } => Num::Inf { neg: !neg },
        }
    }

    /// `x + y`.
    pub fn add(self, y: Num) -> Outcome {
        Some(Ok(match (self, y) {
            (Num::Inf { neg: a }, Num::Inf { neg: b }) if a != b => return Some(Err(Nan)),
            (i @ Num::Inf { .. }, _) | (_, i @ Num::Inf { .. }) => i,
            (a, b) => {
                let ((an, ad, ae), (bn, bd, be)) = (a.fraction()?, b.fraction()?);
                let num = an.checked_mul(bd)?.checked_add(bn.checked_mul(ad)?)?;
                let den = ad.checked_mul(bd)?;
                // Round to nearest gives +0 for a sum of opposites; -0 only from two -0s.
                let neg_zero = self.negative() && y.negative();
                Num::finite(num, den, neg_zero, worst(ae, be))?
            }
        }))
    }

    /// `x * y`.
    pub fn mul(self, y: Num) -> Outcome {
        let neg = self.negative() != y.negative();
        Some(Ok(match (self, y) {
            (Num::Inf { .. }, o) | (o, Num::Inf { .. }) => {
                if o.is_zero() {
                    return Some(Err(Nan));
                }
                Num::Inf { neg }
            }
            (a, b) => {
                let ((an, ad, ae), (bn, bd, be)) = (a.fraction()?, b.fraction()?);
                Num::finite(an.checked_mul(bn)?, ad.checked_mul(bd)?, neg, worst(ae, be))?
            }
        }))
    }

    /// `x / y`.
    pub fn div(self, y: Num) -> Outcome {
        let neg = self.negative() != y.negative();
        Some(Ok(match (self, y) {
            (Num::Inf { .. }, Num::Inf { .. }) => return Some(Err(Nan)),
            (Num::Inf { .. }, _) => Num::Inf { neg },
            (_, Num::Inf { .. }) => Num::finite(0, 1, neg, Exactness::Exact)?,
            (a, b) => {
                let ((an, ad, ae), (bn, bd, be)) = (a.fraction()?, b.fraction()?);
                if bn == 0 {
                    if be == Exactness::Inexact {
                        return None;
                    }
                    if an == 0 {
                        return Some(Err(Nan));
                    }
                    Num::Inf { neg }
                } else {
                    let exact = match (ae, be) {
                        (Exactness::Exact, Exactness::Exact) => Exactness::Exact,
                        _ => Exactness::Inexact,
                    };
                    Num::finite(an.checked_mul(bd)?, ad.checked_mul(bn)?, neg, exact)?
                }
            }
        }))
    }

    /// cty's `Modulo`: by zero `x` itself; otherwise `x` minus `y` times the quotient
    /// truncated. cty's infinity check compares pointers, so a computed infinity goes on to
    /// the truncation: as `x` a nil pointer panic in Terraform (not modelled), as `y` a
    /// product of zero and infinity.
    pub fn modulo(self, y: Num) -> Outcome {
        if matches!(self, Num::Inf { .. }) {
            return None;
        }
        if matches!(y, Num::Inf { .. }) {
            return Some(Err(Nan));
        }
        if y.is_zero() {
            if y.exactness() == Exactness::Inexact {
                return None;
            }
            return Some(Ok(self));
        }
        let Ok(Num::Finite { num, den, .. }) = self.div(y)? else {
            return None;
        };
        let whole = den == 1;
        if whole && (self.exactness() != Exactness::Exact || y.exactness() != Exactness::Exact) {
            // The float quotient may fall just short of the integer.
            return None;
        }
        let t = Num::finite(num / den, 1, false, Exactness::Exact)?;
        let product = y.mul(t)?.ok()?;
        self.add(product.neg())
    }

    fn exactness(&self) -> Exactness {
        match *self {
            Num::Finite { exact, .. } => exact,
            Num::Inf { .. } => Exactness::Exact,
        }
    }

    /// `big.Float.Cmp`, when the floats surely compare as the rationals do.
    pub fn cmp(&self, y: &Num) -> Option<Ordering> {
        match (*self, *y) {
            (Num::Inf { neg: a }, Num::Inf { neg: b }) => Some(b.cmp(&a)),
            (Num::Inf { neg }, _) => Some(if neg {
                Ordering::Less
            } else {
                Ordering::Greater
            }),
            (_, Num::Inf { neg }) => Some(if neg {
                Ordering::Greater
            } else {
                Ordering::Less
            }),
            (a, b) => {
                let ((an, ad, ae), (bn, bd, be)) = (a.fraction()?, b.fraction()?);
                let o = an.checked_mul(bd)?.cmp(&bn.checked_mul(ad)?);
                let inexact = ae == Exactness::Inexact || be == Exactness::Inexact;
                (o != Ordering::Equal || !inexact).then_some(o)
            }
        }
    }

    /// The decimal text `big.Float.Text('f', -1)` gives, when the float is the rational
    /// and the text fits.
    pub fn text(&self) -> Option<String> {
        let Num::Finite {
            num,
            den,
            neg_zero,
            exact: Exactness::Exact,
        } = *self
        else {
            return None;
        };
        if num == 0 {
            return Some(if neg_zero { "-0" } else { "0" }.to_string());
        }
        let k = den.trailing_zeros();
        let scaled = num.unsigned_abs().checked_mul(5u128.checked_pow(k)?)?;
        let digits = scaled.to_string();
        let k = k as usize;
        let sign = if num < 0 { "-" } else { "" };
        if k == 0 {
            return Some(format!("{sign}{digits}"));
        }
        let padded = format!("{digits:0>width$}", width = k + 1);
        let (int, frac) = padded.split_at(padded.len() - k);
        Some(format!("{sign}{int}.{}", frac.trim_end_matches('0')))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(s: &str) -> Num {
        Num::parse(s).expect(s)
    }

    #[test]
    fn arithmetic_follows_big_float() {
        let sum = n("1.5").add(n("2")).unwrap().unwrap();
        assert_eq!(sum.text().as_deref(), Some("3.5"));
        assert_eq!(n("1").div(n("0")), Some(Ok(Num::Inf { neg: false })));
        assert_eq!(n("-1").div(n("0")), Some(Ok(Num::Inf { neg: true })));
        assert_eq!(n("0").div(n("0")), Some(Err(Nan)));
        let inf = Num::Inf { neg: false };
        assert_eq!(inf.add(inf.neg()), Some(Err(Nan)));
        assert_eq!(inf.mul(n("0")), Some(Err(Nan)));
        assert_eq!(n("5").modulo(n("0")), Some(Ok(n("5"))));
        assert_eq!(
            n("7").modulo(n("-2")).unwrap().unwrap().text().as_deref(),
            Some("1")
        );
        assert_eq!(
            n("-7").modulo(n("2")).unwrap().unwrap().text().as_deref(),
            Some("-1")
        );
        assert_eq!(n("0").neg().text().as_deref(), Some("-0"));
        assert_eq!(n("1e3").text().as_deref(), Some("1000"));
    }

    #[test]
    fn comparisons_are_answered_only_when_the_floats_surely_agree() {
        assert_eq!(n("0.1").cmp(&n("0.1")), Some(Ordering::Equal));
        assert_eq!(n("0.1").cmp(&n("0.2")), Some(Ordering::Less));
        let sum = n("0.1").add(n("0.2")).unwrap().unwrap();
        assert_eq!(sum.cmp(&n("0.3")), None);
        assert_eq!(sum.cmp(&n("0.4")), Some(Ordering::Less));
        assert_eq!(n("1").div(n("3")).unwrap().unwrap().text(), None);
        assert_eq!(n("1e30"), n("1e30"));
        assert_eq!(Num::parse("1e60"), None);
    }
}
