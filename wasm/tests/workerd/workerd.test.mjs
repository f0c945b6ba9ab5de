// The built package in workerd (Cloudflare's runtime, run by miniflare): a Worker imports the
// package's `workerd` entry, hashes zips streamed through a service binding, parses lock
// files and selects versions; results are checked against the native CLI and go-versions.
//
//   node --test wasm/tests/workerd/    (after `cargo xtask wasm`, `cargo build -p tflock`;
//                                        `cargo xtask wasm --hosts` installs what it needs)
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { createReadStream, rmSync } from "node:fs";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { tools, manifest, makeCases, checkResults, workerdOptions } from "../hosts.mjs";

const { Miniflare, Response } = tools("miniflare");
const made = makeCases();
after(() => rmSync(made.dir, { recursive: true, force: true }));

test("the package works in workerd and agrees with the native CLI", { timeout: 120_000 }, async () => {
  // worker.mjs imports ../../pkg/workerd.js: keep that in step with the exports map.
  assert.equal(manifest.exports["."].workerd, "./workerd.js");
  const mf = new Miniflare(
    workerdOptions(fileURLToPath(new URL("worker.mjs", import.meta.url)), {
      ZIPS: (request) => {
        const file = made.files.get(new URL(request.url).pathname);
        if (!file) return new Response("not found", { status: 404 });
        return new Response(Readable.toWeb(createReadStream(file, { highWaterMark: 64 * 1024 })));
      },
    }),
  );
  try {
    const r = await mf.dispatchFetch("http://localhost/", { method: "POST", body: JSON.stringify(made.cases) });
    const { ok, results, error } = await r.json();
    assert.ok(ok, `the Worker failed: ${error}`);
    checkResults(results, made);
    console.log(`workerd: ${results.zips.length} zips, ${results.locks.length} lock files, ${results.selections.length} constraints agree with the CLI`);
  } finally {
    await mf.dispose();
  }
});
