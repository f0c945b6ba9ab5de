// verifySha256Sums with keys and signatures made by GnuPG (an independent OpenPGP
// implementation): the key ID must be the one gpg reports.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync, readFileSync, rmSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadPackage } from "./helpers.mjs";

const tf = await loadPackage();
let home;
const gpg = (...args) =>
  execFileSync("gpg", ["--homedir", home, "--batch", "--yes", "--pinentry-mode", "loopback", "--passphrase", "", ...args], {
    encoding: "buffer",
    stdio: ["ignore", "pipe", "pipe"],
  });

function makeKey(uid) {
  gpg("--quick-generate-key", uid, "ed25519", "sign", "never");
  const colons = gpg("--with-colons", "--list-keys", uid).toString();
  const keyId = colons.split("\n").find((l) => l.startsWith("pub:")).split(":")[4];
  const armor = gpg("--armor", "--export", uid).toString();
  return { uid, keyId, armor };
}

const sums =
  "4d20a44049d97745d2122a91d6328a9dd95052ad9904b32b5cd1656040b84ba0  terraform-provider-acme_1.0.0_linux_amd64.zip\n" +
  "ff552a6320a83fb3178e37a5b2a3a30396d8b30f5cb9a3fa5e1c71123a8638f8  terraform-provider-acme_1.0.0_darwin_arm64.zip\n";
let signer, other, signature;

before(() => {
  home = mkdtempSync(join(tmpdir(), "tflock-wasm-gpg-"));
  signer = makeKey("Provider Author <author@example.com>");
  other = makeKey("Somebody Else <else@example.com>");
  writeFileSync(join(home, "SHA256SUMS"), sums);
  gpg("--local-user", signer.uid, "--detach-sign", "--output", join(home, "SHA256SUMS.sig"), join(home, "SHA256SUMS"));
  signature = readFileSync(join(home, "SHA256SUMS.sig"));
});
after(() => rmSync(home, { recursive: true, force: true }));

test("a community key's signature verifies and vouches for every line", async () => {
  const r = await tf.verifySha256Sums(sums, signature, [{ keyId: other.keyId, asciiArmor: other.armor }, { key_id: signer.keyId, ascii_armor: signer.armor }]);
  assert.equal(r.signer, "community");
  assert.equal(r.keyId, signer.keyId);
  assert.equal(r.keyIndex, 1);
  assert.deepEqual(r.hashes, sums.trim().split("\n").map((l) => "zh:" + l.split(/\s+/)[0]));
  assert.equal(r.files[1].filename, "terraform-provider-acme_1.0.0_darwin_arm64.zip");
});

test("a tampered document, an unknown key and a malformed list reject", async () => {
  const tampered = sums.replace("4d20", "5d20");
  await assert.rejects(tf.verifySha256Sums(tampered, signature, [{ asciiArmor: signer.armor }]), (e) => {
    assert.equal(e.summary, "Failed to authenticate package");
    assert.match(e.detail, /^error checking signature: /);
    return true;
  });
  await assert.rejects(tf.verifySha256Sums(sums, signature, [{ asciiArmor: other.armor }]), (e) => e.detail === "authentication signature from unknown issuer");
  await assert.rejects(tf.verifySha256Sums("zz  file\n", signature, [{ asciiArmor: signer.armor }]), (e) => e.summary === "Invalid SHA256SUMS document");
  await assert.rejects(tf.verifySha256Sums(sums, signature, [{ asciiArmor: "garbage" }]), (e) => /^error decoding signing key/.test(e.detail));
});
