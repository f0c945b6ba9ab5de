// The package as a JS tool ships it: a tiny page importing `tflock` is built with esbuild,
// webpack 5, Vite and Rollup (the versions pinned in wasm/tools/package.json, which `cargo xtask
// wasm` installs), each with its defaults and nothing more than the line the README gives
// for it, and run in headless Chromium; what the page computes must equal what the Node
// entry computes. The package is copied into the page's node_modules as npm installs it
// (the files package.json lists), so its `exports` and `sideEffects` are what the bundlers
// read.
//
//   node --test wasm/tests/bundlers/   (after `cargo xtask wasm`; `cargo xtask wasm --hosts`
//                                       installs chromium and the bundlers)
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, existsSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, extname, normalize } from "node:path";
import { root, pkgDir, loadPackage, zipOf, tools } from "../helpers.mjs";
import { launchChromium } from "../hosts.mjs";
import { compute } from "./page.js";

const chromium = process.env.CHROMIUM ?? "/usr/bin/chromium";
const manifest = JSON.parse(readFileSync(new URL("package.json", pkgDir), "utf8"));
const zip = zipOf([
  ["terraform-provider-demo_v1.0.0", Buffer.from("#!/bin/sh\necho demo\n".repeat(50)), 8],
  ["LICENSE", Buffer.from("MPL-2.0\n"), 0],
]).toString("base64");
const expected = await compute(await loadPackage(), zip);

const work = mkdtempSync(join(tmpdir(), "tflock-bundlers-"));
let context;
let profile;
before(async () => {
  profile = mkdtempSync(join(tmpdir(), "tflock-chromium-"));
  context = await launchChromium(chromium, profile);
});
after(async () => {
  await context?.close();
  rmSync(profile, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

/** A project directory: the page's entry and the package installed in node_modules. */
function project(name) {
  const dir = join(work, name);
  const installed = join(dir, "node_modules", "tflock");
  mkdirSync(installed, { recursive: true });
  for (const f of [...manifest.files, "package.json"]) cpSync(new URL(f, pkgDir), join(installed, f));
  mkdirSync(join(dir, "src"));
  cpSync(new URL("page.js", import.meta.url), join(dir, "src", "page.js"));
  writeFileSync(
    join(dir, "src", "index.js"),
    // Named imports, as tools write them: with them a bundler that believes the entry file
    // has no side effects skips it (and its \`await init()\`) and binds straight to the glue.
    `import { hashZip, hashFiles, formatLock, parseLock, canonicalConstraints, selectVersion, version, Planner } from "tflock";
import { compute } from "./page.js";
const tf = { hashZip, hashFiles, formatLock, parseLock, canonicalConstraints, selectVersion, version, Planner };
compute(tf, ${JSON.stringify(zip)}).then(
  (results) => (window.__results = { ok: true, results }),
  (e) => (window.__results = { ok: false, error: String(e) + "\\n" + (e && e.stack) }),
);
`,
  );
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: `page-${name}`, private: true, type: "module" }));
  return dir;
}

const html = (script) => `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body>${script}</body></html>\n`;

const TYPES = { ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".html": "text/html" };

/** Serves `dir` on 127.0.0.1 (as any static host would). */
function serve(dir) {
  const server = createServer((req, res) => {
    let path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    if (path.endsWith("/")) path += "index.html";
    const file = join(dir, normalize(path));
    if (normalize(path).includes("..") || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end("not found");
      return;
    }
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

/** Opens the built page in Chromium; its results, and what went wrong on the way. */
async function runPage(dist) {
  const server = await serve(dist);
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(`pageerror: ${e}`));
  page.on("console", (m) => m.type() === "error" && problems.push(`console.error: ${m.text()}`));
  page.on("requestfailed", (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
  const wasm = [];
  page.on("response", (r) => r.url().endsWith(".wasm") && wasm.push(`${r.status()} ${r.headers()["content-type"]}`));
  try {
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    await page.waitForFunction(() => window.__results !== undefined, null, { timeout: 30_000 }).catch(() => {});
    const outcome = await page.evaluate(() => window.__results);
    return { outcome, problems, wasm };
  } finally {
    await page.close();
    server.close();
  }
}

function assertSame({ outcome, problems, wasm }, name) {
  assert.ok(outcome, `${name}: the page never finished:\n${problems.join("\n")}`);
  assert.ok(outcome.ok, `${name}: the page failed: ${outcome.error}\n${problems.join("\n")}`);
  assert.deepEqual(problems, [], name);
  // The module `import` loads, then the second one on the planner's first call.
  assert.deepEqual(wasm, ["200 application/wasm", "200 application/wasm"], `${name}: the page fetched each .wasm once`);
  assert.deepEqual(outcome.results, expected, name);
}

/** The README's `cp node_modules/tflock/*.wasm dist/`: both modules next to the bundle. */
function copyWasm(dir, dist) {
  const installed = join(dir, "node_modules/tflock");
  const modules = readdirSync(installed).filter((f) => f.endsWith(".wasm"));
  assert.deepEqual(modules.sort(), ["tflock_bg.wasm", "tflock_lock_bg.wasm"]);
  for (const f of modules) cpSync(join(installed, f), join(dist, f));
}

function wasmFiles(dir) {
  return readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith(".wasm"));
}

test("the Node entry computes what the pages are compared with", () => {
  assert.equal(expected.duplicated.lock, null);
  assert.equal(expected.duplicated.refused, "Duplicate provider lock");
  assert.equal(expected.constraints, ">= 1.0.0, < 2.0.0");
  assert.equal(expected.selected, "1.2.7");
  assert.match(expected.zip.h1, /^h1:/);
  assert.equal(expected.platform.summary, "Invalid target platform");
});

test("esbuild: --bundle --format=esm plus the .wasm files copied next to the bundle", { timeout: 120_000 }, async () => {
  const dir = project("esbuild");
  const dist = join(dir, "dist");
  const esbuild = tools("esbuild");
  const built = await esbuild.build({
    absWorkingDir: dir,
    entryPoints: ["src/index.js"],
    bundle: true,
    format: "esm",
    outdir: "dist",
    logLevel: "silent",
  });
  assert.deepEqual(built.errors, []);
  // The README's one line for esbuild: it leaves `new URL("./tflock_bg.wasm",
  // import.meta.url)` alone, so both modules must sit next to the bundle.
  const readme = readFileSync(new URL("README.md", pkgDir), "utf8");
  assert.ok(
    readme.includes("esbuild src/index.js --bundle --format=esm --outdir=dist && cp node_modules/tflock/*.wasm dist/"),
    "the README gives the line this test runs",
  );
  copyWasm(dir, dist);
  writeFileSync(join(dist, "index.html"), html(`<script type="module" src="./index.js"></script>`));
  assertSame(await runPage(dist), "esbuild");
});

test("webpack 5 with its defaults emits both .wasm files and keeps the entry's init", { timeout: 120_000 }, async () => {
  const dir = project("webpack");
  const webpack = tools("webpack");
  // Only where the project is (what running `webpack` in it gives): entry ./src/index.js,
  // output dist/main.js and production mode are webpack's defaults.
  const config = { context: dir, output: { path: join(dir, "dist") }, mode: "production" };
  const stats = await new Promise((resolve, reject) => webpack(config, (e, s) => (e ? reject(e) : resolve(s))));
  const info = stats.toJson({ all: false, errors: true, warnings: true, orphanModules: true });
  assert.deepEqual(info.errors.map((e) => e.message), []);
  const dist = join(dir, "dist");
  assert.equal(wasmFiles(dist).length, 2, `webpack emitted ${wasmFiles(dist)}`);
  writeFileSync(join(dist, "index.html"), html(`<script src="main.js"></script>`));
  assertSame(await runPage(dist), "webpack");
});

test("Vite with its defaults (vite build) emits both .wasm files and keeps the entry's init", { timeout: 120_000 }, async () => {
  const dir = project("vite");
  writeFileSync(join(dir, "index.html"), html(`<script type="module" src="/src/index.js"></script>`));
  const vite = await import(tools.resolve("vite"));
  await vite.build({ root: dir, configFile: false, logLevel: "silent" });
  const dist = join(dir, "dist");
  assert.equal(wasmFiles(dist).length, 2, `vite emitted ${wasmFiles(dist)}`);
  assertSame(await runPage(dist), "vite");
});

test("Rollup with node-resolve (browser), format es, plus the .wasm files copied next to the bundle", { timeout: 120_000 }, async () => {
  const dir = project("rollup");
  const dist = join(dir, "dist");
  const { rollup } = tools("rollup");
  const { nodeResolve } = tools("@rollup/plugin-node-resolve");
  // What the README gives for Rollup: resolve npm packages for the browser (Rollup alone
  // resolves no bare imports), ES module output (top-level await), and the .wasm next to
  // the bundle, which Rollup does not emit for `new URL(..., import.meta.url)`.
  const readme = readFileSync(new URL("README.md", pkgDir), "utf8");
  assert.ok(readme.includes("plugins: [nodeResolve({ browser: true })]") && readme.includes('format: "es"'), "the README gives the config this test runs");
  const warnings = [];
  const bundle = await rollup({ input: join(dir, "src/index.js"), plugins: [nodeResolve({ browser: true })], onwarn: (w) => warnings.push(w.message) });
  await bundle.write({ dir: dist, format: "es" });
  await bundle.close();
  assert.deepEqual(warnings, []);
  copyWasm(dir, dist);
  writeFileSync(join(dist, "index.html"), html(`<script type="module" src="./index.js"></script>`));
  assertSame(await runPage(dist), "rollup");
});
