//! `cargo xtask bench signature`: verifying a GnuPG-made detached signature over a
//! `SHA256SUMS`-sized document with RSA-2048, RSA-4096 and Ed25519 keys, through the same
//! call the planner makes (`find_signing_key`), against a baseline measured in the same run:
//! the constant-time 8192-bit `s^e mod n` tflock used before (crypto-bigint's residues),
//! the cost that made every lock slower than Terraform's.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use crypto_bigint::modular::runtime_mod::{DynResidue, DynResidueParams};
use crypto_bigint::{Encoding, U64, U8192};
use tflock_core::protocol::signature::{find_signing_key, SigningKey};

fn gpg(home: &Path, args: &[&str]) -> Vec<u8> {
    let out = Command::new("gpg")
        .arg("--homedir")
        .arg(home)
        .args([
            "--batch",
            "--yes",
            "--pinentry-mode",
            "loopback",
            "--passphrase",
            "",
        ])
        .args(args)
        .output()
        .expect("run gpg (cargo xtask setup installs it)");
    assert!(
        out.status.success(),
        "gpg {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// Best time per call over `runs` calls, in microseconds.
fn best(runs: usize, mut f: impl FnMut()) -> f64 {
    let mut best = Duration::MAX;
    for _ in 0..runs {
        let t = Instant::now();
        f();
        best = best.min(t.elapsed());
    }
    best.as_secs_f64() * 1e6
}

/// The old way: `s^e mod n` as an 8192-bit constant-time residue (`n` and `s` random
/// `bits`-bit odd numbers; the cost does not depend on their values).
fn old_rsa(bits: usize) -> f64 {
    let mut n = vec![0xA5u8; bits / 8];
    n[0] |= 0x80;
    *n.last_mut().expect("n") |= 1;
    let s = vec![0x3Cu8; bits / 8];
    let pad = |b: &[u8]| {
        let mut v = vec![0u8; 1024 - b.len()];
        v.extend_from_slice(b);
        U8192::from_be_slice(&v)
    };
    let (n, s) = (pad(&n), pad(&s));
    let e = U64::from_u64(65537);
    best(5, || {
        let params = DynResidueParams::new(&n);
        let r = DynResidue::new(&s, params)
            .pow_bounded_exp(&e, 64)
            .retrieve();
        std::hint::black_box(r.to_be_bytes());
    })
}

fn main() {
    let doc: Vec<u8> = (0..12)
        .map(|i| {
            format!(
                "{:064x}  terraform-provider-x_1.0.0_os{i}_arch.zip\n",
                i * 7919
            )
        })
        .collect::<String>()
        .into_bytes();
    println!(
        "{:<10} {:>14} {:>16} {:>8}",
        "key", "tflock µs", "old RSA µs", "ratio"
    );
    for (algo, bits) in [("rsa2048", 2048), ("rsa4096", 4096), ("ed25519", 0)] {
        let home = tempfile::tempdir().expect("tempdir");
        gpg(
            home.path(),
            &[
                "--quick-gen-key",
                "Bench <b@example.com>",
                algo,
                "cert,sign",
                "never",
            ],
        );
        let armored = String::from_utf8(gpg(home.path(), &["--armor", "--export"])).expect("utf8");
        let file = home.path().join("SHA256SUMS");
        std::fs::write(&file, &doc).expect("doc");
        let sig_path = home.path().join("SHA256SUMS.sig");
        let (f, s) = (
            file.to_str().expect("path"),
            sig_path.to_str().expect("path"),
        );
        gpg(
            home.path(),
            &["--digest-algo", "SHA256", "-o", s, "--detach-sign", f],
        );
        let sig = std::fs::read(&sig_path).expect("sig");
        let keys = [SigningKey {
            ascii_armor: armored,
            ..Default::default()
        }];
        find_signing_key(&doc, &sig, &keys).expect("verifies");
        let ours = best(50, || {
            std::hint::black_box(find_signing_key(&doc, &sig, &keys).expect("verifies"));
        });
        tflock_tests::bench_summary(
            "signature",
            &format!("{algo}: read the key ring and verify one SHA256SUMS signature"),
            &format!("{ours:.0} µs"),
            "< 1 ms",
        );
        if bits == 0 {
            println!("{algo:<10} {ours:>14.1} {:>16} {:>8}", "-", "-");
        } else {
            let old = old_rsa(bits);
            println!("{algo:<10} {ours:>14.1} {old:>16.1} {:>7.1}x", old / ours);
        }
    }
    println!("(tflock: reading the key ring, which checks its self-signature, and verifying; old RSA: one s^e mod n alone)");
}
