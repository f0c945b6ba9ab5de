// hashZip / hashFiles / ZipHasher against the native CLI and the committed golden file.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync, mkdtempSync, writeFileSync, mkdirSync, createReadStream, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { loadPackage, runCli, fixtures, root } from "./helpers.mjs";

const tf = await loadPackage();
const samplesDir = fixtures + "hash/samples/";
const samples = readdirSync(samplesDir).filter((n) => n.endsWith(".zip")).sort();

function cliHashes(path) {
  const r = runCli(["hash", "--json", path]);
  assert.equal(r.status, 0, r.stderr);
  const [h] = JSON.parse(r.stdout);
  const out = { h1: h.h1, zh: h.zh };
  if (h.h1_archive !== h.h1) out.h1Archive = h.h1_archive;
  return out;
}

test("hashZip matches `tflock hash` on every sample zip", () => {
  assert.ok(samples.length >= 3);
  for (const name of samples) {
    const bytes = readFileSync(samplesDir + name);
    assert.deepEqual(tf.hashZip(bytes), cliHashes(samplesDir + name), name);
  }
});

test("hashZip matches the committed golden file (tests/fixtures/hash/samples.golden)", () => {
  const golden = readFileSync(fixtures + "hash/samples.golden", "utf8").trim().split("\n");
  const want = new Map();
  for (const line of golden) {
    const [hash, path] = line.split(/\s+/);
    const name = path.split("/").pop();
    if (!want.has(name)) want.set(name, []);
    want.get(name).push(hash);
  }
  for (const name of samples) {
    const h = tf.hashZip(readFileSync(samplesDir + name));
    const got = [h.h1, h.zh, ...(h.h1Archive ? [h.h1Archive] : [])];
    assert.deepEqual(got, want.get(name), name);
  }
});

test("ZipHasher fed a file stream in small chunks equals hashZip on the whole file", async () => {
  for (const name of samples) {
    const hasher = new tf.ZipHasher();
    let chunks = 0;
    for await (const chunk of createReadStream(samplesDir + name, { highWaterMark: 97 })) {
      hasher.update(chunk);
      chunks++;
    }
    assert.ok(chunks > 1);
    assert.equal(hasher.bytesSeen, readFileSync(samplesDir + name).length);
    assert.deepEqual(hasher.finish(), cliHashes(samplesDir + name), name);
    assert.throws(() => hasher.finish(), (e) => e instanceof Error && e.severity === "error");
  }
});

test("hashFiles matches `tflock hash DIR` on the same files", () => {
  const dir = mkdtempSync(join(tmpdir(), "tflock-wasm-files-"));
  try {
    const files = [
      { path: "terraform-provider-x_v1.0.0", bytes: new TextEncoder().encode("#!/bin/sh\necho x\n") },
      { path: "LICENSE", bytes: "Mozilla Public License 2.0\n" },
      { path: "docs/ü nicode.md", bytes: new Uint8Array([0, 1, 2, 255]) },
      { path: "empty", bytes: new Uint8Array() },
    ];
    for (const f of files) {
      mkdirSync(dirname(join(dir, f.path)), { recursive: true });
      writeFileSync(join(dir, f.path), f.bytes);
    }
    const r = runCli(["hash", dir]);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(tf.hashFiles(files), { h1: r.stdout.trim() });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("bad zips throw Error objects with diagnostic fields, never a trap", () => {
  for (const bad of [new Uint8Array(), new TextEncoder().encode("not a zip"), readFileSync(samplesDir + samples[0]).subarray(0, 100)]) {
    assert.throws(() => tf.hashZip(bad), (e) => {
      assert.ok(e instanceof Error);
      assert.equal(e.severity, "error");
      assert.equal(e.summary, "Cannot hash provider package");
      assert.match(e.detail, /zip/);
      assert.equal(e.file, null);
      return true;
    });
  }
  // The module still works after those errors.
  assert.ok(tf.hashZip(readFileSync(samplesDir + samples[0])).h1.startsWith("h1:"));
  assert.throws(() => tf.hashZip("x".repeat(10)), Error);
  assert.throws(() => tf.hashZip(42), (e) => e.summary === "Invalid argument");
  assert.throws(() => tf.hashFiles([{ path: "a\nb", bytes: "x" }]), (e) => /newlines/.test(e.detail));
});
