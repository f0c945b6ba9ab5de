// The built package in a real headless browser (Debian's chromium driven by playwright-core):
// a page imports `tflock` through an import map pointing at the package's `browser` entry
// (top-level await fetches the .wasm), hashes zips from a streamed fetch with ZipHasher and
// hashZip, parses and formats lock files and selects versions; the results are checked
// against the native CLI and the go-versions oracle.
//
//   node --test wasm/tests/browser/    (after `cargo xtask wasm`, `cargo build -p tflock`;
//                                        `cargo xtask wasm --hosts` installs what it needs)
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { Transform } from "node:stream";
import { createReadStream, readFileSync, rmSync, statSync, mkdtempSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, extname, normalize } from "node:path";
import { root } from "../helpers.mjs";
import { manifest, makeCases, checkResults, launchChromium } from "../hosts.mjs";

const chromium = process.env.CHROMIUM ?? "/usr/bin/chromium";
const made = makeCases();
after(() => rmSync(made.dir, { recursive: true, force: true }));

const TYPES = { ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".json": "application/json", ".html": "text/html" };

/** Passes chunks on one per millisecond. */
function paced() {
  return new Transform({
    transform(chunk, _enc, done) {
      setTimeout(() => done(null, chunk), 1);
    },
  });
}

/** Serves the page, the package (/pkg/), the shared case runner and the zips, on 127.0.0.1. */
function serve() {
  const pkg = root + "wasm/pkg/";
  const importMap = JSON.stringify({ imports: { tflock: "/pkg/" + manifest.exports["."].browser.replace(/^\.\//, "") } });
  const index = readFileSync(new URL("index.html", import.meta.url), "utf8").replace(
    "<!--IMPORTMAP-->",
    `<script type="importmap">${importMap}</script>`,
  );
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    let file = null;
    if (path === "/") {
      res.writeHead(200, { "content-type": TYPES[".html"] }).end(index);
      return;
    } else if (path === "/cases.json") {
      res.writeHead(200, { "content-type": TYPES[".json"] }).end(JSON.stringify(made.cases));
      return;
    } else if (path === "/tests/run-cases.mjs") {
      file = root + "wasm/tests/run-cases.mjs";
    } else if (path.startsWith("/pkg/") && !normalize(path).includes("..")) {
      file = pkg + path.slice(5);
    } else if (made.files.has(path)) {
      file = made.files.get(path);
    }
    if (!file || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end("not found");
      return;
    }
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
    // Small read chunks, paced: the page's fetch sees a stream, not one buffer (unpaced on a
    // fast loopback, Chromium may hand a slow reader the whole body in a few chunks).
    createReadStream(file, { highWaterMark: 64 * 1024 }).pipe(paced()).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

test("the package works in headless Chromium and agrees with the native CLI", { timeout: 120_000 }, async () => {
  assert.ok(existsSync(chromium), `${chromium} is missing (apt-get install chromium; cargo xtask wasm --hosts does it)`);
  const server = await serve();
  const profile = mkdtempSync(join(tmpdir(), "tflock-chromium-"));
  const context = await launchChromium(chromium, profile);
  try {
    const page = await context.newPage();
    const problems = [];
    page.on("pageerror", (e) => problems.push(`pageerror: ${e}`));
    page.on("console", (m) => m.type() === "error" && problems.push(`console.error: ${m.text()}`));
    page.on("requestfailed", (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
    const wasmType = [];
    page.on("response", (r) => r.url().endsWith(".wasm") && wasmType.push(r.headers()["content-type"]));
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    await page.waitForFunction(() => window.__results !== undefined, null, { timeout: 90_000 });
    const { ok, results, error, fetchedOnImport } = await page.evaluate(() => window.__results);
    const version = context.browser()?.version() ?? (await page.evaluate(() => navigator.userAgent));
    assert.ok(ok, `the page failed: ${error}\n${problems.join("\n")}`);
    assert.deepEqual(problems, []);
    // The module `import` loads, then the second one on the cases' first planner call.
    assert.deepEqual(wasmType, ["application/wasm", "application/wasm"], "the browser entry fetched each .wasm once");
    assert.deepEqual(fetchedOnImport?.map((u) => u.split("/").pop()), ["tflock_bg.wasm"], "import fetched the first module only");
    checkResults(results, made);
    console.log(`chromium ${version}: ${results.zips.length} zips, ${results.locks.length} lock files, ${results.selections.length} constraints agree with the CLI`);
  } finally {
    await context.close();
    server.close();
    rmSync(profile, { recursive: true, force: true });
  }
});
