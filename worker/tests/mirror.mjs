// Shared by the Worker's node tests: the Worker in workerd (Miniflare) and the native CLI's
// hashes of a zip, which the tests expect the Worker to list.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
// Not hosts.mjs: it reads the built npm package, which the Worker and its bench do not need.
import { root, runCli, tools } from "../../wasm/tests/helpers.mjs";

const { Miniflare } = tools("miniflare");

/** The built Worker with an in-memory R2 bucket `MIRROR`; `options` adds bindings, queues. */
export function startMirror(options) {
  return new Miniflare({
    modules: true,
    scriptPath: root + "worker/entry.mjs",
    modulesRules: [
      { type: "CompiledWasm", include: ["**/*.wasm"], fallthrough: true },
      { type: "ESModule", include: ["**/*.js"], fallthrough: true },
    ],
    compatibilityDate: "2026-04-01",
    // node:crypto's native SHA-256 (src/edge/sha.rs), as wrangler.toml sets it.
    compatibilityFlags: ["nodejs_compat"],
    r2Buckets: ["MIRROR"],
    cf: false,
    ...options,
  });
}

/** Points every download answer of the fake `registry` (its archive, sums and signature
 * URLs) at the server listening on `at` (`host:port`), which the test controls. */
export function pointDownloadsAt(registry, at) {
  for (const [path, body] of registry.files) {
    if (!path.includes("/download/")) continue;
    const answer = JSON.parse(body);
    for (const field of ["download_url", "shasums_url", "shasums_signature_url"]) {
      answer[field] = `http://${at}${new URL(answer[field]).pathname}`;
    }
    registry.files.set(path, Buffer.from(JSON.stringify(answer)));
  }
}

/** GET `path` under `base`: the response, and a promise of its body (bytes, or the error
 * that ended it), so a test can watch the first bytes arrive before the body ends. */
export function streamGet(base, path) {
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(path, base), (res) => {
      const chunks = [];
      let got = 0;
      const firstBytes = new Promise((r) => res.once("data", () => r()));
      const body = new Promise((done) => {
        res.on("data", (c) => (chunks.push(c), (got += c.length)));
        res.on("end", () => done({ bytes: Buffer.concat(chunks) }));
        res.on("error", (error) => done({ error, got }));
        res.on("close", () => done({ error: new Error("closed"), got }));
      });
      resolve({ req, res, firstBytes, body, received: () => got });
    });
    req.on("error", reject);
    req.end();
  });
}

/** `tflock hash --json` of `bytes`, written into the directory `work`. */
export function cliHashes(work, bytes) {
  const path = join(work, `z${Math.random().toString(16).slice(2)}.zip`);
  writeFileSync(path, bytes);
  const r = runCli(["hash", "--json", path]);
  assert.equal(r.status, 0, r.stderr);
  const [h] = JSON.parse(r.stdout).files;
  return { h1: h.h1, zh: h.zh };
}
