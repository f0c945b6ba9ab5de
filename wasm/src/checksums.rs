//! `verifySha256Sums`: a signed `SHA256SUMS` document checked against registry keys.

use crate::convert::{array, bytes, opt_string, to_js};
use crate::error::{error, JsResult};
use serde::Serialize;
use tflock_core::api::checksums::{classify_signer, find_signing_key, Signer};
use tflock_core::api::checksums::{Sha256Sums, SigningKey, TrustRoots};
use wasm_bindgen::prelude::*;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SumJs {
    filename: String,
    sha256: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct VerifiedJs {
    signer: &'static str,
    key_id: String,
    key_index: usize,
    hashes: Vec<String>,
    files: Vec<SumJs>,
}

/// A registry `signing_keys.gpg_public_keys` entry, in either spelling
/// (`asciiArmor`/`ascii_armor`, `trustSignature`/`trust_signature`, `keyId`/`key_id`).
fn key_arg(v: &JsValue) -> JsResult<SigningKey> {
    let either = |a: &str, b: &str| -> JsResult<Option<String>> {
        Ok(opt_string(v, a)?.or(opt_string(v, b)?))
    };
    Ok(SigningKey {
        key_id: either("keyId", "key_id")?,
        ascii_armor: either("asciiArmor", "ascii_armor")?.unwrap_or_default(),
        trust_signature: either("trustSignature", "trust_signature")?.unwrap_or_default(),
        source: opt_string(v, "source")?,
        source_url: either("sourceUrl", "source_url")?,
    })
}

/// `verifySha256Sums(sums, signature, keys)`: parses the document strictly, finds the key
/// that signed it (Terraform's `findSigningKey`), classifies the signer against the real
/// HashiCorp trust roots, and returns the `zh:` hashes the signature makes acceptable.
/// Throws with Terraform's texts when the document or the signature does not check out.
#[wasm_bindgen(js_name = verifySha256Sums, unchecked_return_type = "VerifiedSums")]
pub fn verify_sha256_sums(
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] sums: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] signature: JsValue,
    #[wasm_bindgen(unchecked_param_type = "SigningKey[]")] keys: JsValue,
) -> JsResult<JsValue> {
    let document = bytes(&sums, "the SHA256SUMS document")?;
    let signature = bytes(&signature, "the signature")?;
    let keys = array(&keys, "keys")?
        .iter()
        .map(key_arg)
        .collect::<JsResult<Vec<_>>>()?;
    let parsed = Sha256Sums::parse(&document)
        .map_err(|e| error("Invalid SHA256SUMS document", e.to_string()))?;
    let fail = |e: &dyn std::fmt::Display| error("Failed to authenticate package", e.to_string());
    let found = find_signing_key(&document, &signature, &keys).map_err(|e| fail(&e))?;
    let signer = classify_signer(
        &document,
        &signature,
        &keys[found.index],
        &TrustRoots::hashicorp(),
    )
    .map_err(|e| fail(&e))?;
    to_js(&VerifiedJs {
        signer: match signer {
            Signer::HashiCorp => "hashicorp",
            Signer::Partner => "partner",
            Signer::Community => "community",
        },
        key_id: found.key_id,
        key_index: found.index,
        hashes: parsed.acceptable_hashes(),
        files: parsed
            .lines()
            .iter()
            .map(|l| SumJs {
                filename: l.filename.clone(),
                sha256: l.sha256.iter().map(|b| format!("{b:02x}")).collect(),
            })
            .collect(),
    })
}
