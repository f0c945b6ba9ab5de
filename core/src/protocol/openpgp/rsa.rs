//! RSA public-key operation `s^e mod n` for signature verification.
//!
//! Everything here is public data (key, signature, digest), so the arithmetic is variable
//! time: Montgomery multiplication sized to the key, and `R² mod n` found with a few
//! doublings and squarings instead of a constant-time wide division. That division (what a
//! general constant-time residue type does) dominated verification at about 60 ms per
//! signature; this takes well under a millisecond for RSA-4096 with e = 65537.

/// `base^exp mod modulus` for big-endian byte strings; the result is big-endian, as long as
/// `modulus`. `None` when the modulus is even or zero, or `base >= modulus`.
pub fn mod_pow(base: &[u8], exp: &[u8], modulus: &[u8]) -> Option<Vec<u8>> {
    let n = limbs(modulus);
    let len = n.len();
    if len == 0 || n[0] & 1 == 0 {
        return None;
    }
    if n == [1] {
        return Some(vec![0; modulus.len()]);
    }
    let mut s = limbs(base);
    if s.len() > len || compare(&pad_limbs(&s, len), &n) != std::cmp::Ordering::Less {
        return None;
    }
    s.resize(len, 0);
    let m = Montgomery::new(n);
    let result = m.pow(&s, exp);
    let mut out = vec![0u8; modulus.len().saturating_sub(len * 8)];
    for limb in result.iter().rev() {
        out.extend_from_slice(&limb.to_be_bytes());
    }
    Some(out.split_off(out.len() - modulus.len()))
}

/// Little-endian 64-bit limbs of a big-endian byte string, without high zero limbs.
fn limbs(be: &[u8]) -> Vec<u64> {
    let mut out: Vec<u64> = be
        .rchunks(8)
        .map(|chunk| chunk.iter().fold(0u64, |acc, &b| (acc << 8) | u64::from(b)))
        .collect();
    while out.last() == Some(&0) {
        out.pop();
    }
    out
}

fn pad_limbs(x: &[u64], len: usize) -> Vec<u64> {
    let mut v = x.to_vec();
    v.resize(len, 0);
    v
}

fn compare(a: &[u64], b: &[u64]) -> std::cmp::Ordering {
    a.iter().rev().cmp(b.iter().rev())
}

/// `a -= b` over equal-length limbs; returns the borrow.
fn sub_assign(a: &mut [u64], b: &[u64]) -> bool {
    let mut borrow = false;
    for (x, &y) in a.iter_mut().zip(b) {
        let (d1, b1) = x.overflowing_sub(y);
        let (d2, b2) = d1.overflowing_sub(u64::from(borrow));
        *x = d2;
        borrow = b1 || b2;
    }
    borrow
}

/// Arithmetic modulo one odd modulus in Montgomery form with `R = 2^(64·len)`.
struct Montgomery {
    n: Vec<u64>,
    /// `-n⁻¹ mod 2^64`.
    n0_inv: u64,
}

impl Montgomery {
    fn new(n: Vec<u64>) -> Self {
        // Newton's iteration doubles the correct low bits each step: 1 → 64 in 6 steps.
        let mut inv = 1u64;
        for _ in 0..6 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(n[0].wrapping_mul(inv)));
        }
        Montgomery {
            n,
            n0_inv: inv.wrapping_neg(),
        }
    }

    /// `a · b · R⁻¹ mod n` (CIOS), for `a, b < n`.
    fn mul(&self, a: &[u64], b: &[u64]) -> Vec<u64> {
        let len = self.n.len();
        let mut t = vec![0u64; len + 2];
        for &ai in a {
            let mut carry = 0u128;
            for j in 0..len {
                let sum = u128::from(t[j]) + u128::from(ai) * u128::from(b[j]) + carry;
                t[j] = sum as u64;
                carry = sum >> 64;
            }
            let sum = u128::from(t[len]) + carry;
            t[len] = sum as u64;
            t[len + 1] = (sum >> 64) as u64;

            let m = t[0].wrapping_mul(self.n0_inv);
            let mut carry = (u128::from(t[0]) + u128::from(m) * u128::from(self.n[0])) >> 64;
            for j in 1..len {
                let sum = u128::from(t[j]) + u128::from(m) * u128::from(self.n[j]) + carry;
                t[j - 1] = sum as u64;
                carry = sum >> 64;
            }
            let sum = u128::from(t[len]) + carry;
            t[len - 1] = sum as u64;
            t[len] = t[len + 1] + (sum >> 64) as u64;
            t[len + 1] = 0;
        }
        let overflow = t[len] != 0;
        t.truncate(len);
        if overflow || compare(&t, &self.n) != std::cmp::Ordering::Less {
            sub_assign(&mut t, &self.n);
        }
        t
    }

    /// `R² mod n`: doublings from just below `n` up to `2^(64·len + t)` with `t` the odd part
    /// of `len`, then Montgomery squarings, each of which doubles the exponent above `R`.
    fn r_squared(&self) -> Vec<u64> {
        let len = self.n.len();
        let bits = 64 * len - self.n[len - 1].leading_zeros() as usize;
        let mut x = vec![0u64; len];
        x[(bits - 1) / 64] = 1 << ((bits - 1) % 64);
        let squarings = 6 + len.trailing_zeros() as usize;
        let odd_part = len >> len.trailing_zeros();
        for _ in (bits - 1)..(64 * len + odd_part) {
            let carry = x[len - 1] >> 63;
            for i in (1..len).rev() {
                x[i] = (x[i] << 1) | (x[i - 1] >> 63);
            }
            x[0] <<= 1;
            if carry == 1 || compare(&x, &self.n) != std::cmp::Ordering::Less {
                sub_assign(&mut x, &self.n);
            }
        }
        for _ in 0..squarings {
            x = self.mul(&x, &x);
        }
        x
    }

    /// `base^exp mod n`, left-to-right square-and-multiply over the exponent's bits.
    fn pow(&self, base: &[u64], exp: &[u8]) -> Vec<u64> {
        let len = self.n.len();
        let base_m = self.mul(base, &self.r_squared());
        let mut one = vec![0u64; len];
        one[0] = 1;
        let mut acc: Option<Vec<u64>> = None;
        for byte in exp {
            for bit in (0..8).rev() {
                if let Some(a) = acc.take() {
                    acc = Some(self.mul(&a, &a));
                }
                if byte >> bit & 1 == 1 {
                    acc = Some(match acc.take() {
                        Some(a) => self.mul(&a, &base_m),
                        None => base_m.clone(),
                    });
                }
            }
        }
        match acc {
            Some(a) => self.mul(&a, &one),
            // x^0 = 1, reduced (n = 1 gives 0).
            None => self.mul(&self.mul(&one, &self.r_squared()), &one),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::mod_pow;
    use crypto_bigint::modular::runtime_mod::{DynResidue, DynResidueParams};
    use crypto_bigint::{Encoding, U2048};
    use proptest::prelude::*;

    /// crypto-bigint's constant-time residue arithmetic as the reference.
    fn reference(base: &[u8], exp: &[u8], modulus: &[u8]) -> Vec<u8> {
        let pad = |b: &[u8]| {
            let mut v = vec![0u8; 256 - b.len()];
            v.extend_from_slice(b);
            U2048::from_be_slice(&v)
        };
        let params = DynResidueParams::new(&pad(modulus));
        let e = pad(exp);
        let r = DynResidue::new(&pad(base), params)
            .pow(&e)
            .retrieve()
            .to_be_bytes();
        r[256 - modulus.len()..].to_vec()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn mod_pow_matches_crypto_bigint(
            mut n in proptest::collection::vec(any::<u8>(), 1..=256),
            b in proptest::collection::vec(any::<u8>(), 0..=256),
            e in proptest::collection::vec(any::<u8>(), 0..=4),
        ) {
            *n.last_mut().unwrap() |= 1;
            n[0] |= 1;
            let mut b = b;
            b.truncate(n.len());
            // Base below the modulus: a zero top byte when it would be larger.
            if b.len() == n.len() && b >= n {
                b[0] = 0;
            }
            prop_assert_eq!(mod_pow(&b, &e, &n).unwrap(), reference(&b, &e, &n));
        }
    }

    #[test]
    fn even_modulus_and_large_base_are_refused() {
        assert_eq!(mod_pow(&[2], &[3], &[10]), None);
        assert_eq!(mod_pow(&[11], &[3], &[9]), None);
        assert_eq!(mod_pow(&[2], &[10], &[0, 0, 11]), Some(vec![0, 0, 1]));
    }
}
