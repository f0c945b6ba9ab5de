// parseLock / formatLock / diffLock / mergeLock against `tflock lockfile ...` on the
// shared lock file fixtures (same bytes in, same bytes out).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync, existsSync, mkdtempSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadPackage, runCli, fixtures, camelKeys } from "./helpers.mjs";

const tf = await loadPackage();
const dir = fixtures + "lockfile/";
const lockFiles = [];
for (const c of readdirSync(dir).sort()) {
  for (const f of [".terraform.lock.hcl", "old.terraform.lock.hcl", "new.terraform.lock.hcl"]) {
    if (existsSync(join(dir, c, f))) lockFiles.push(join(dir, c, f));
  }
}

test("formatLock equals `tflock lockfile fmt` and parseLock's errors equal `lockfile check`'s", () => {
  let formatted = 0;
  let rejected = 0;
  assert.ok(lockFiles.length >= 15);
  for (const path of lockFiles) {
    const text = readFileSync(path, "utf8");
    const parsed = tf.parseLock(text, { filename: path });
    const errors = parsed.diagnostics.filter((d) => d.severity === "error");
    const fmt = runCli(["lockfile", "fmt", path]);
    if (fmt.status === 0) {
      assert.equal(errors.length, 0, path);
      assert.equal(tf.formatLock(parsed.lock), fmt.stdout, path);
      assert.equal(tf.formatLock(text), fmt.stdout, path);
      formatted++;
    } else {
      assert.ok(errors.length > 0, path);
      for (const d of errors) {
        assert.ok(fmt.stderr.includes(d.summary), `${path}: ${d.summary}`);
        assert.equal(d.file, path);
        assert.equal(d.range?.filename, path);
      }
      assert.throws(() => tf.formatLock(text), (e) => e instanceof Error && e.summary === errors[0].summary);
      // What the file's valid parts hold is not the file: no lock to format, diff or merge.
      assert.equal(parsed.lock, null, path);
      rejected++;
    }
  }
  assert.ok(formatted > 5 && rejected > 2, `${formatted} formatted, ${rejected} rejected`);
});

test("parseLock returns the providers with their versions and hashes", () => {
  const text = readFileSync(lockFiles.find((p) => p.includes("valid-terraform")), "utf8");
  const { lock, diagnostics } = tf.parseLock(text);
  assert.equal(lock.flavor, "terraform");
  assert.ok(lock.providers.length > 0);
  for (const p of lock.providers) {
    assert.ok(text.includes(`"${p.provider}"`), p.provider);
    assert.ok(text.includes(`"${p.version}"`), p.version);
    for (const h of p.hashes) assert.ok(text.includes(h), h);
  }
  assert.ok(diagnostics.every((d) => d.severity !== "error"));
});

test("a duplicate provider block is refused by parseLock, formatLock and the CLI alike, never dropped", () => {
  const one = readFileSync(join(dir, "valid-terraform/.terraform.lock.hcl"), "utf8");
  const first = one.slice(one.indexOf("provider "));
  const block = first.slice(0, first.indexOf("\n}\n") + 3);
  const text = one + "\n" + block;
  const tmp = mkdtempSync(join(tmpdir(), "tflock-wasm-dup-"));
  try {
    const file = join(tmp, ".terraform.lock.hcl");
    writeFileSync(file, text);
    const cli = runCli(["lockfile", "fmt", file]);
    assert.equal(cli.status, 1);
    assert.match(cli.stderr, /Error: Duplicate provider lock/);
    const parsed = tf.parseLock(text, { filename: file });
    assert.deepEqual(parsed.diagnostics.filter((d) => d.severity === "error").map((d) => d.summary), ["Duplicate provider lock"]);
    // The CLI word-wraps details as Terraform does: compared with white space runs as one.
    const flat = (s) => s.replace(/\s+/g, " ");
    assert.ok(flat(cli.stderr).includes(flat(parsed.diagnostics.find((d) => d.severity === "error").detail)));
    assert.equal(parsed.lock, null);
    assert.throws(() => tf.formatLock(parsed.lock), (e) => e instanceof Error);
    assert.throws(() => tf.formatLock(text), (e) => e.summary === "Duplicate provider lock");
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test("a lock object listing a provider twice is refused by every function taking a lock", () => {
  const { lock } = tf.parseLock(readFileSync(join(dir, "valid-terraform/.terraform.lock.hcl"), "utf8"));
  const twice = structuredClone(lock);
  twice.providers.push({ ...structuredClone(lock.providers[0]), version: "0.0.1" });
  const isDuplicate = (e) => e instanceof Error && e.summary === "Duplicate provider lock" && e.detail.includes(lock.providers[0].provider);
  assert.throws(() => tf.formatLock(twice), isDuplicate);
  assert.throws(() => tf.diffLock(lock, twice), isDuplicate);
  assert.throws(() => tf.mergeLock(lock, lock, twice), isDuplicate);
  assert.throws(() => tf.lockCoverage(twice, {}, ["linux_amd64"]), isDuplicate);
  // The same address spelled two ways is one provider.
  const spelled = structuredClone(lock);
  spelled.providers.push({ ...structuredClone(lock.providers[0]), provider: lock.providers[0].provider.replace("registry.terraform.io/", "") });
  assert.throws(() => tf.formatLock(spelled), isDuplicate);
  assert.equal(tf.formatLock(lock), runCli(["lockfile", "fmt", join(dir, "valid-terraform/.terraform.lock.hcl")]).stdout);
});

test("diffLock equals `tflock lockfile diff --json` on every change fixture", () => {
  let n = 0;
  for (const c of readdirSync(dir).filter((c) => c.startsWith("change-"))) {
    const oldP = join(dir, c, "old.terraform.lock.hcl");
    const newP = join(dir, c, "new.terraform.lock.hcl");
    const r = runCli(["lockfile", "diff", "--json", oldP, newP]);
    assert.equal(r.status, 0, r.stderr);
    // The CLI's document carries its format_version; the npm value is the diff alone.
    const { formatVersion, ...want } = camelKeys(JSON.parse(r.stdout));
    assert.equal(formatVersion, "1.0");
    assert.deepEqual(tf.diffLock(readFileSync(oldP, "utf8"), readFileSync(newP, "utf8")), want, c);
    const o = tf.parseLock(readFileSync(oldP, "utf8")).lock;
    const nn = tf.parseLock(readFileSync(newP, "utf8")).lock;
    assert.deepEqual(tf.diffLock(o, nn), want, c);
    n++;
  }
  assert.ok(n >= 8);
});

test("mergeLock writes the bytes `tflock lockfile merge-driver` writes", () => {
  const tmp = mkdtempSync(join(tmpdir(), "tflock-wasm-merge-"));
  try {
    let n = 0;
    for (const c of readdirSync(dir).filter((c) => c.startsWith("change-"))) {
      const oldT = readFileSync(join(dir, c, "old.terraform.lock.hcl"), "utf8");
      const newT = readFileSync(join(dir, c, "new.terraform.lock.hcl"), "utf8");
      // [base, ours, theirs]: only theirs changed; only ours changed; both sides changed.
      for (const [label, base, ours, theirs] of [
        ["theirs-changed", oldT, oldT, newT],
        ["ours-changed", oldT, newT, oldT],
        ["reverted-by-us", newT, oldT, newT],
      ]) {
        const b = join(tmp, "base"), o = join(tmp, "ours"), t = join(tmp, "theirs");
        writeFileSync(b, base);
        writeFileSync(o, ours);
        writeFileSync(t, theirs);
        const r = runCli(["lockfile", "merge-driver", b, o, t]);
        const merged = tf.mergeLock(base, ours, theirs);
        assert.equal(merged.text, readFileSync(o, "utf8"), `${c} ${label}`);
        assert.equal(merged.clean, r.status === 0, `${c} ${label}`);
        n++;
      }
    }
    assert.ok(n >= 24);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test("mergeLock reports a version conflict", () => {
  const base = readFileSync(join(dir, "change-new-version-terraform/old.terraform.lock.hcl"), "utf8");
  const theirs = readFileSync(join(dir, "change-new-version-terraform/new.terraform.lock.hcl"), "utf8");
  const ours = tf.parseLock(base).lock;
  // Ours picks a third version of the provider theirs upgraded.
  const changed = tf.diffLock(base, theirs).providers[0].provider;
  const p = ours.providers.find((x) => x.provider === changed);
  p.version = "0.0.1";
  p.hashes = [];
  const m = tf.mergeLock(base, ours, theirs);
  assert.equal(m.clean, false);
  assert.equal(m.conflicts[0].provider, changed);
  assert.match(m.text, /<<<<<<< /);
});

test("lockCoverage reports platforms the recorded hashes cover", () => {
  const lock = {
    providers: [{ provider: "hashicorp/null", version: "3.2.1", constraints: "", hashes: ["h1:aaaa", "zh:" + "1".repeat(64)] }],
  };
  const known = {
    "registry.terraform.io/hashicorp/null": { linux_amd64: ["h1:aaaa"], darwin_arm64: ["h1:bbbb"] },
  };
  const c = tf.lockCoverage(lock, known, ["linux_amd64", "darwin_arm64"]);
  assert.equal(c.complete, false);
  assert.equal(c.providers[0].provider, "registry.terraform.io/hashicorp/null");
  assert.deepEqual(c.providers[0].covered, ["linux_amd64"]);
  assert.deepEqual(c.providers[0].missing, ["darwin_arm64"]);
});

test("lock objects with bad fields throw diagnostics-shaped errors", () => {
  const bad = (p) => ({ providers: [{ provider: "hashicorp/null", version: "1.0.0", hashes: [], ...p }] });
  assert.throws(() => tf.formatLock(bad({ version: "v1" })), (e) => e.summary === "Invalid provider version number");
  assert.throws(() => tf.formatLock(bad({ provider: "a/b/c/d" })), (e) => e.summary === "Invalid provider source address");
  assert.throws(() => tf.formatLock(bad({ hashes: ["nope"] })), (e) => e.summary === "Invalid provider hash string");
  assert.throws(() => tf.formatLock(bad({ constraints: "~>  1" })), (e) => e.summary === "Invalid version constraint");
  assert.throws(() => tf.formatLock({}), (e) => e.summary === "Invalid argument");
});
