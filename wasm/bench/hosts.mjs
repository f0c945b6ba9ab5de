// Benchmark (not a test): h1:/zh: throughput of the wasm package in headless Chromium and in
// workerd, beside the native `tflock hash` (release build) on the same zip, in one run.
//
//   node wasm/bench/hosts.mjs [MiB=64]    (after `cargo xtask wasm`, `cargo build --release -p tflock`;
//                                           `cargo xtask bench wasm` does both, then runs h1.mjs and this)
//
// Both hosts run the package's built-in wasm SHA-256 (WebCrypto cannot digest incrementally).
// Chromium times itself with performance.now(); workerd freezes its clocks while a request
// computes, so its runs are timed from outside, one request per run, with the zip already
// held by the Worker (the first request loads it through a service binding).
import { createServer } from "node:http";
import { readFileSync, writeFileSync, rmSync, mkdtempSync, existsSync, appendFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { root, zipOf } from "../tests/helpers.mjs";
import { tools, manifest, launchChromium, workerdOptions } from "../tests/hosts.mjs";
import { content, nativeCli } from "./common.mjs";

const native = nativeCli();
const chromium = process.env.CHROMIUM ?? "/usr/bin/chromium";
const mib = Number(process.argv[2] ?? 64);
const RUNS = 3;

const dir = mkdtempSync(join(tmpdir(), "tflock-bench-hosts-"));
const zipPath = join(dir, "terraform-provider-bench_1.0.0_linux_amd64.zip");
const big = content(mib * 1024 * 1024, 42);
writeFileSync(zipPath, zipOf([["terraform-provider-bench_v1.0.0", big, 8], ["LICENSE", Buffer.from("MPL-2.0\n"), 8]]));
const zipBytes = readFileSync(zipPath);
const uncompressed = big.length + 8;

function nativeRun() {
  const t = process.hrtime.bigint();
  const h1 = execFileSync(native, ["hash", zipPath], { encoding: "utf8" }).trim().split("\n")[0].split(/\s+/)[0];
  return { s: Number(process.hrtime.bigint() - t) / 1e9, h1 };
}

/** Best of RUNS in headless Chromium: the page fetches the zip once, then hashes it RUNS times. */
async function chromiumRuns() {
  const importMap = JSON.stringify({ imports: { tflock: "/pkg/" + manifest.exports["."].browser.replace(/^\.\//, "") } });
  const page = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="importmap">${importMap}</script>
<script type="module">
  import * as tf from "tflock";
  try {
    const bytes = new Uint8Array(await (await fetch("/bench.zip")).arrayBuffer());
    const runs = [];
    for (let i = 0; i < ${RUNS}; i++) {
      const t = performance.now();
      const h = tf.hashZip(bytes);
      runs.push({ s: (performance.now() - t) / 1000, h1: h.h1 });
    }
    window.__bench = { ok: true, runs };
  } catch (e) {
    window.__bench = { ok: false, error: String(e) };
  }
</script></head><body></body></html>`;
  const types = { ".js": "text/javascript", ".wasm": "application/wasm" };
  const server = createServer((req, res) => {
    const path = new URL(req.url, "http://x").pathname;
    if (path === "/") return res.writeHead(200, { "content-type": "text/html" }).end(page);
    if (path === "/bench.zip") return res.writeHead(200, { "content-type": "application/zip" }).end(zipBytes);
    const file = root + "wasm/pkg/" + path.replace(/^\/pkg\//, "");
    if (!path.startsWith("/pkg/") || path.includes("..") || !existsSync(file)) return res.writeHead(404).end();
    const type = types[file.slice(file.lastIndexOf("."))] ?? "application/octet-stream";
    res.writeHead(200, { "content-type": type }).end(readFileSync(file));
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const profile = mkdtempSync(join(tmpdir(), "tflock-chromium-"));
  const context = await launchChromium(chromium, profile);
  try {
    const tab = await context.newPage();
    await tab.goto(`http://127.0.0.1:${server.address().port}/`);
    await tab.waitForFunction(() => window.__bench !== undefined, null, { timeout: 600_000 });
    const out = await tab.evaluate(() => window.__bench);
    if (!out.ok) throw new Error(`chromium: ${out.error}`);
    return out.runs;
  } finally {
    await context.close();
    server.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

/** Best of RUNS in workerd: one request loads the zip, each further request hashes it. */
async function workerdRuns() {
  const { Miniflare, Response } = tools("miniflare");
  const script = fileURLToPath(new URL("worker.mjs", import.meta.url));
  const mf = new Miniflare(workerdOptions(script, { ZIP: () => new Response(zipBytes) }));
  try {
    const load = await (await mf.dispatchFetch("http://localhost/load")).json();
    if (!load.ok) throw new Error(`workerd: ${load.error}`);
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      const t = process.hrtime.bigint();
      const r = await (await mf.dispatchFetch("http://localhost/hash")).json();
      if (!r.ok) throw new Error(`workerd: ${r.error}`);
      runs.push({ s: Number(process.hrtime.bigint() - t) / 1e9, h1: r.h1 });
    }
    return runs;
  } finally {
    await mf.dispose();
  }
}

const nativeRuns = [];
for (let i = 0; i < RUNS; i++) nativeRuns.push(nativeRun());
const results = [
  ["native tflock hash", nativeRuns],
  ["Chromium, wasm (hashZip)", await chromiumRuns()],
  ["workerd, wasm (hashZip)", await workerdRuns()],
];
const h1s = new Set(results.flatMap(([, runs]) => runs.map((r) => r.h1)));
if (h1s.size !== 1) throw new Error(`hashes differ: ${[...h1s].join(", ")}`);
console.log(`zip: ${(zipBytes.length / 2 ** 20).toFixed(1)} MiB compressed, ${(uncompressed / 2 ** 20).toFixed(1)} MiB uncompressed; h1 (all agree): ${[...h1s][0]}`);
const nat = Math.min(...nativeRuns.map((r) => r.s));
for (const [label, runs] of results) {
  const s = Math.min(...runs.map((r) => r.s));
  console.log(`${label.padEnd(40)} best of ${RUNS}: wall ${s.toFixed(2)} s, ${(uncompressed / 2 ** 20 / s).toFixed(0)} MiB/s (uncompressed), ${(nat / s).toFixed(2)}x native`);
  if (process.env.TFLOCK_BENCH_SUMMARY && label !== "native tflock hash") {
    appendFileSync(process.env.TFLOCK_BENCH_SUMMARY, `wasm\t${label}, ${mib} MiB: wasm / native throughput\t${(nat / s).toFixed(2)}x\t-\n`);
  }
}
rmSync(dir, { recursive: true, force: true });
