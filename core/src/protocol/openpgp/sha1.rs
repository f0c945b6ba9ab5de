//! SHA-1 (FIPS 180-4) for OpenPGP v4 fingerprints and SHA-1 signature digests.
//!
//! The core's own, written as one round loop: the `sha1` crate's unrolled rounds were
//! 3.6 KB of wasm for a hash that runs a few times per key ring (wasm/npm/README.md, "Size").

/// A running SHA-1 hash.
pub struct Sha1 {
    state: [u32; 5],
    block: [u8; 64],
    filled: usize,
    /// Message length in bytes (the padding carries it in bits).
    len: u64,
}

impl Sha1 {
    /// An empty hash.
    pub fn new() -> Sha1 {
        Sha1 {
            state: [0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0],
            block: [0; 64],
            filled: 0,
            len: 0,
        }
    }

    /// Adds `data` to the message.
    pub fn update(&mut self, mut data: &[u8]) {
        self.len = self.len.wrapping_add(data.len() as u64);
        while !data.is_empty() {
            let take = (64 - self.filled).min(data.len());
            self.block[self.filled..self.filled + take].copy_from_slice(&data[..take]);
            self.filled += take;
            data = &data[take..];
            if self.filled == 64 {
                compress(&mut self.state, &self.block);
                self.filled = 0;
            }
        }
    }

    /// The 20-byte digest.
    pub fn finish(mut self) -> [u8; 20] {
        let bits = self.len.wrapping_mul(8).to_be_bytes();
        self.update(&[0x80]);
        while self.filled != 56 {
            self.update(&[0]);
        }
        self.update(&bits);
        let mut out = [0u8; 20];
        for (o, w) in out.chunks_exact_mut(4).zip(self.state) {
            o.copy_from_slice(&w.to_be_bytes());
        }
        out
    }
}

fn compress(state: &mut [u32; 5], block: &[u8; 64]) {
    let mut w = [0u32; 80];
    for (i, chunk) in block.chunks_exact(4).enumerate() {
        w[i] = u32::from_be_bytes(chunk.try_into().expect("4-byte chunk"));
    }
    for i in 16..80 {
        w[i] = (w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]).rotate_left(1);
    }
    let [mut a, mut b, mut c, mut d, mut e] = *state;
    for (i, wi) in w.iter().enumerate() {
        let (f, k) = match i / 20 {
            0 => ((b & c) | (!b & d), 0x5A827999),
            1 => (b ^ c ^ d, 0x6ED9EBA1),
            2 => ((b & c) | (b & d) | (c & d), 0x8F1BBCDC),
            _ => (b ^ c ^ d, 0xCA62C1D6),
        };
        let t = a
            .rotate_left(5)
            .wrapping_add(f)
            .wrapping_add(e)
            .wrapping_add(k)
            .wrapping_add(*wi);
        e = d;
        d = c;
        c = b.rotate_left(30);
        b = a;
        a = t;
    }
    for (s, x) in state.iter_mut().zip([a, b, c, d, e]) {
        *s = s.wrapping_add(x);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sha1::Digest;

    #[test]
    fn sha1_matches_the_sha1_crate_at_every_length_around_the_block_and_padding_edges() {
        let data: Vec<u8> = (0..200u32).map(|i| (i * 11 + 5) as u8).collect();
        for len in 0..data.len() {
            let m = &data[..len];
            let mut h = Sha1::new();
            h.update(&m[..len / 2]);
            h.update(&m[len / 2..]);
            assert_eq!(h.finish().to_vec(), sha1::Sha1::digest(m).to_vec(), "{len}");
        }
    }

    #[test]
    fn sha1_of_abc_is_the_fips_180_example() {
        let mut h = Sha1::new();
        h.update(b"abc");
        assert_eq!(
            hex::encode(h.finish()),
            "a9993e364706816aba3e25717850c26c9cd0d89d"
        );
    }
}
