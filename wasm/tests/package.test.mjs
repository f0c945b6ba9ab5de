// The built package itself: exports map, types, and "nothing native leaked" (the module
// imports only wasm-bindgen's glue, never WASI, `env` or other host modules).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, existsSync } from "node:fs";
import { pkgDir, loadPackage } from "./helpers.mjs";

const manifest = JSON.parse(readFileSync(new URL("package.json", pkgDir), "utf8"));

test("the module imports only the wasm-bindgen glue", async () => {
  const module = await WebAssembly.compile(readFileSync(new URL("tflock_bg.wasm", pkgDir)));
  const imports = WebAssembly.Module.imports(module);
  const modules = [...new Set(imports.map((i) => i.module))];
  assert.deepEqual(modules, ["./tflock_bg.js"]);
  // Every import is a wasm-bindgen shim (`__wbg_*` / `__wbindgen_*`), not a libc or WASI call.
  for (const i of imports) assert.match(i.name, /^__wbg|^__wbindgen/, i.name);
});

test("every file the exports map and `files` name exists", () => {
  for (const target of Object.values(manifest.exports["."])) assert.ok(existsSync(new URL(target, pkgDir)), target);
  for (const f of manifest.files) assert.ok(existsSync(new URL(f, pkgDir)), f);
  assert.equal(manifest.type, "module");
});

test("the Node entry exports the whole API and the types declare it", async () => {
  const tf = await loadPackage();
  const dts = readFileSync(new URL("tflock.d.ts", pkgDir), "utf8");
  const api = ["hashZip", "hashFiles", "ZipHasher", "parseConstraints", "canonicalConstraints", "selectVersion", "parseLock", "formatLock", "diffLock", "mergeLock", "lockCoverage", "loadModule", "checkLock", "verifySha256Sums", "Planner", "lock", "version"];
  for (const name of api) {
    assert.ok(name in tf, `missing export ${name}`);
    assert.match(dts, new RegExp(`export (function|class) ${name}\\b`), `missing declaration ${name}`);
  }
  // updateProvider is the JS wrapper over lock() (update.js), declared in index.d.ts.
  assert.equal(typeof tf.updateProvider, "function");
  assert.match(readFileSync(new URL("index.d.ts", pkgDir), "utf8"), /export declare function updateProvider\b/);
  for (const shape of ["UpdateProviderOptions", "HashCache", "CachedHashes", "ZipHashes", "Diagnostic", "Lock", "LockDiff", "LoadedModule", "LockCheck", "PlanOutcome", "VerifiedSums"]) {
    assert.match(dts, new RegExp(`export (interface|type) ${shape}\\b`), shape);
  }
});
