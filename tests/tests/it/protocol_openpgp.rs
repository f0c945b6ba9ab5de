//! The core's OpenPGP verifier against keys and signatures made by GnuPG (an independent
//! implementation): every supported algorithm, primary and subkey signers, binary and text
//! signatures, each digest algorithm; tampered documents and unknown signers are refused.

use std::path::{Path, PathBuf};
use std::process::Command;

use rand::{Rng, SeedableRng};
use tflock_core::protocol::openpgp::{
    check_detached, read_armored_keyring, read_signature, Check, PgpError,
};
use tflock_core::protocol::signature::{find_signing_key, primary_fingerprint, SigningKey};

/// A throwaway GnuPG home with one key.
struct GpgKey {
    home: tempfile::TempDir,
    fingerprint: String,
    armored: String,
}

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
        .expect("run gpg");
    assert!(
        out.status.success(),
        "gpg {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn have_gpg() -> bool {
    let ok = Command::new("gpg").arg("--version").output().is_ok();
    if !ok {
        eprintln!("gpg is not installed: skipping (cargo xtask setup installs it)");
    }
    ok
}

impl GpgKey {
    /// A key of `algo` (gpg's names); with `subkey`, the primary only certifies and a
    /// subkey of the same algorithm signs.
    fn new(algo: &str, subkey: bool) -> GpgKey {
        let home = tempfile::tempdir().expect("tempdir");
        let usage = if subkey { "cert" } else { "cert,sign" };
        gpg(
            home.path(),
            &[
                "--quick-gen-key",
                "Test <t@example.com>",
                algo,
                usage,
                "never",
            ],
        );
        let colons =
            String::from_utf8(gpg(home.path(), &["--with-colons", "--list-keys"])).unwrap();
        let fingerprint = colons
            .lines()
            .find_map(|l| l.strip_prefix("fpr:"))
            .map(|l| l.trim_matches(':').to_string())
            .expect("fingerprint");
        if subkey {
            // A bare curve name means ECDH to `--quick-add-key`; ask for ECDSA.
            let sub_algo = if algo.starts_with("nistp") {
                format!("{algo}/ecdsa")
            } else {
                algo.to_string()
            };
            gpg(
                home.path(),
                &["--quick-add-key", &fingerprint, &sub_algo, "sign", "never"],
            );
        }
        let armored =
            String::from_utf8(gpg(home.path(), &["--armor", "--export", &fingerprint])).unwrap();
        GpgKey {
            home,
            fingerprint,
            armored,
        }
    }

    fn sign(&self, doc: &[u8], digest: &str, text: bool, armor: bool) -> Vec<u8> {
        let file: PathBuf = self.home.path().join("doc");
        std::fs::write(&file, doc).unwrap();
        let sig = self.home.path().join("doc.sig");
        let mut args = vec!["--digest-algo", digest, "-u", &self.fingerprint];
        if text {
            args.push("--textmode");
        }
        if armor {
            args.push("--armor");
        }
        let (f, s) = (file.to_str().unwrap(), sig.to_str().unwrap());
        args.extend(["-o", s, "--detach-sign", f]);
        gpg(self.home.path(), &args);
        std::fs::read(&sig).unwrap()
    }
}

fn document(rng: &mut rand::rngs::StdRng) -> Vec<u8> {
    let lines = rng.gen_range(0..20);
    let mut doc = Vec::new();
    for _ in 0..lines {
        let hex: String = (0..64)
            .map(|_| char::from(b"0123456789abcdef"[rng.gen_range(0..16)]))
            .collect();
        doc.extend_from_slice(
            format!(
                "{hex}  terraform-provider-x_{}_linux_amd64.zip",
                rng.gen::<u16>()
            )
            .as_bytes(),
        );
        // Lone CRs are left out: GnuPG's and go-crypto's text canonicalisation differ there.
        if rng.gen_bool(0.2) {
            doc.push(b'\r');
        }
        doc.push(b'\n');
        if rng.gen_bool(0.1) {
            doc.push(b'\n');
        }
    }
    doc
}

fn check(key: &GpgKey, doc: &[u8], sig: &[u8]) -> Check {
    let ring = read_armored_keyring(&key.armored).expect("read key ring");
    check_detached(&ring, doc, &read_signature(sig).expect("read signature"))
}

#[test]
fn gnupg_keys_and_signatures_verify_and_tampering_is_caught() {
    if !have_gpg() {
        return;
    }
    let cases = [
        ("rsa2048", false, "RSA"),
        ("rsa2048", true, "RSA"),
        ("rsa4096", false, "RSA"),
        ("ed25519", false, "EdDSA"),
        ("ed25519", true, "EdDSA"),
        ("nistp256", false, "ECDSA"),
        ("nistp256", true, "ECDSA"),
    ];
    let mut rng = rand::rngs::StdRng::seed_from_u64(20261122);
    let other = GpgKey::new("ed25519", false);
    for (algo, subkey, name) in cases {
        let key = GpgKey::new(algo, subkey);
        let primary_id = key.fingerprint[24..].to_string();
        assert_eq!(
            primary_fingerprint(&key.armored).unwrap(),
            key.fingerprint,
            "{algo}"
        );
        // GnuPG refuses digests shorter than the curve for EdDSA and ECDSA.
        let digests: &[&str] = if name == "RSA" {
            &["SHA256", "SHA512", "SHA384", "SHA224", "SHA1"]
        } else {
            &["SHA256", "SHA512", "SHA384"]
        };
        for &digest in digests {
            let text = rng.gen_bool(0.3);
            let armor = rng.gen_bool(0.3);
            let doc = document(&mut rng);
            let sig = key.sign(&doc, digest, text, armor);
            let label = format!("{algo} subkey={subkey} {digest} text={text} armor={armor}");
            assert_eq!(
                check(&key, &doc, &sig),
                Check::Verified(primary_id.clone()),
                "{label}"
            );

            let mut tampered = doc.clone();
            tampered.extend_from_slice(b"0000  evil.zip\n");
            assert_eq!(
                check(&key, &tampered, &sig),
                Check::Invalid(PgpError::BadSignature(format!(
                    "{name} verification failure"
                ))),
                "{label}"
            );
            assert_eq!(check(&other, &doc, &sig), Check::UnknownIssuer, "{label}");

            // Through the registry-facing API: the second listed key is the signer.
            let keys = [
                SigningKey {
                    ascii_armor: other.armored.clone(),
                    ..Default::default()
                },
                SigningKey {
                    ascii_armor: key.armored.clone(),
                    ..Default::default()
                },
            ];
            let found = find_signing_key(&doc, &sig, &keys).expect(&label);
            assert_eq!(
                (found.index, found.key_id.as_str()),
                (1, primary_id.as_str()),
                "{label}"
            );
        }
    }
}

#[test]
fn a_key_ring_with_several_keys_finds_the_signer_among_them() {
    if !have_gpg() {
        return;
    }
    let a = GpgKey::new("ed25519", false);
    let b = GpgKey::new("ed25519", true);
    // Both keys in one armored block: gpg exports them together from one home.
    let ring_home = tempfile::tempdir().unwrap();
    for k in [&a, &b] {
        let file = ring_home.path().join("k.asc");
        std::fs::write(&file, &k.armored).unwrap();
        gpg(ring_home.path(), &["--import", file.to_str().unwrap()]);
    }
    let both = String::from_utf8(gpg(ring_home.path(), &["--armor", "--export"])).unwrap();
    let ring = read_armored_keyring(&both).unwrap();
    assert_eq!(ring.len(), 2);
    let doc = b"abc  x.zip\n";
    let sig = b.sign(doc, "SHA256", false, false);
    let check = check_detached(&ring, doc, &read_signature(&sig).unwrap());
    assert_eq!(check, Check::Verified(b.fingerprint[24..].to_string()));
}

#[test]
fn a_subkey_whose_binding_signature_is_broken_signs_for_nobody() {
    use base64::Engine as _;
    if !have_gpg() {
        return;
    }
    let key = GpgKey::new("ed25519", true);
    let doc = b"abc  x.zip\n";
    let sig = key.sign(doc, "SHA256", false, false);
    assert!(matches!(check(&key, doc, &sig), Check::Verified(_)));

    // The subkey's binding signature is the last packet gpg exports; its last byte is
    // part of the signature value.
    let mut bytes = tflock_core::protocol::openpgp::dearmor(&key.armored).unwrap();
    *bytes.last_mut().unwrap() ^= 0x01;
    let body = base64::engine::general_purpose::STANDARD.encode(&bytes);
    let broken = GpgKey {
        armored: format!(
            "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n{body}\n-----END PGP PUBLIC KEY BLOCK-----\n"
        ),
        ..key
    };
    assert_eq!(check(&broken, doc, &sig), Check::UnknownIssuer);
}
