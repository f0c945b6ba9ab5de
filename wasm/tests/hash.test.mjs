// hashZip / hashFiles / ZipHasher against the native CLI and the committed golden file.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync, mkdtempSync, writeFileSync, mkdirSync, createReadStream, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { createHash } from "node:crypto";
import { loadPackage, runCli, fixtures, root, zipOf } from "./helpers.mjs";

const tf = await loadPackage();
const samplesDir = fixtures + "hash/samples/";
const samples = readdirSync(samplesDir).filter((n) => n.endsWith(".zip")).sort();

function cliHashes(path) {
  const r = runCli(["hash", "--json", path]);
  assert.equal(r.status, 0, r.stderr);
  const [h] = JSON.parse(r.stdout).files;
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

// A deflate zip of several entries (and one stored).
function mixedZip(seed) {
  let x = seed >>> 0;
  const rand = (n) => {
    const out = Buffer.alloc(n);
    for (let i = 0; i < n; i++) {
      x = (x * 1103515245 + 12345) >>> 0;
      out[i] = i % 7 === 0 ? x >>> 24 : 0x41 + (i % 13);
    }
    return out;
  };
  const entries = [
    ["terraform-provider-mixed_v1.0.0", rand(300_000 + (seed % 5000)), 8],
    ["LICENSE", Buffer.from("MPL-2.0\n"), 0],
    ["docs/README.md", rand(4099), 8],
    ["empty", Buffer.alloc(0), 8],
  ];
  return zipOf(entries);
}

function streamed(bytes, chunk) {
  const hasher = new tf.ZipHasher();
  for (let at = 0; at < bytes.length; at += chunk) hasher.update(bytes.subarray(at, at + chunk));
  return hasher.finish();
}

test("node:crypto SHA-256 (the Node default) and the wasm SHA-256 give the CLI's hashes", () => {
  const dir = mkdtempSync(join(tmpdir(), "tflock-wasm-sha-"));
  try {
    const zips = samples.map((n) => samplesDir + n);
    for (const seed of [1, 2, 3]) {
      const path = join(dir, `mixed${seed}.zip`);
      writeFileSync(path, mixedZip(seed));
      zips.push(path);
    }
    for (const path of zips) {
      const bytes = readFileSync(path);
      const want = cliHashes(path);
      for (const backend of ["node:crypto", "wasm"]) {
        tf.setSha256(backend === "wasm" ? null : () => createHash("sha256"));
        const label = `${path} with ${backend}`;
        assert.deepEqual(tf.hashZip(bytes), want, label);
        for (const chunk of [1013, 65536, 1 << 20]) assert.deepEqual(streamed(bytes, chunk), want, `${label}, ${chunk}-byte chunks`);
      }
    }
  } finally {
    tf.setSha256(() => createHash("sha256"));
    rmSync(dir, { recursive: true, force: true });
  }
});

test("setSha256 refuses a wrong digest up front and a failing one makes hashing throw", () => {
  const wrong = () => ({ update() {}, digest: () => new Uint8Array(32) });
  assert.throws(() => tf.setSha256(wrong), (e) => e.summary === "Invalid argument" && /abc/.test(e.detail));
  assert.throws(() => tf.setSha256(42), (e) => e.summary === "Invalid argument");
  let calls = 0;
  const flaky = () => {
    const h = createHash("sha256");
    return {
      update(b) {
        if (++calls > 2) throw new Error("digest went away");
        h.update(b);
      },
      digest: () => h.digest(),
    };
  };
  tf.setSha256(flaky); // passes the "abc" check (one update)
  try {
    const bytes = readFileSync(samplesDir + samples[0]);
    assert.throws(() => tf.hashZip(bytes), (e) => e.summary === "Cannot hash provider package" && /digest went away/.test(e.detail));
  } finally {
    tf.setSha256(() => createHash("sha256"));
  }
  // The next hash is clean again.
  assert.deepEqual(tf.hashZip(readFileSync(samplesDir + samples[0])), cliHashes(samplesDir + samples[0]));
});
