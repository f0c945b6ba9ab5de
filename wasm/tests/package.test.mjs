// The built package itself: exports map, types, and "nothing native leaked" (the module
// imports only wasm-bindgen's glue, never WASI, `env` or other host modules).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, existsSync } from "node:fs";
import { pkgDir, loadPackage } from "./helpers.mjs";

const manifest = JSON.parse(readFileSync(new URL("package.json", pkgDir), "utf8"));

test("each module imports only its wasm-bindgen glue", async () => {
  for (const name of ["tflock", "tflock_lock"]) {
    const module = await WebAssembly.compile(readFileSync(new URL(`${name}_bg.wasm`, pkgDir)));
    const imports = WebAssembly.Module.imports(module);
    const modules = [...new Set(imports.map((i) => i.module))];
    assert.deepEqual(modules, [`./${name}_bg.js`]);
    // Every import is a wasm-bindgen shim (`__wbg_*` / `__wbindgen_*`), not a libc or WASI call.
    for (const i of imports) assert.match(i.name, /^__wbg|^__wbindgen/, i.name);
  }
});

test("the module import loads has no lock exports; the second module has only them and setSha256", async () => {
  const exportsOf = async (name) => {
    const module = await WebAssembly.compile(readFileSync(new URL(`${name}_bg.wasm`, pkgDir)));
    return WebAssembly.Module.exports(module).map((e) => e.name);
  };
  const main = await exportsOf("tflock");
  const second = await exportsOf("tflock_lock");
  for (const name of ["lock", "verifySha256Sums", "planner_new"]) {
    assert.ok(!main.includes(name), `tflock_bg.wasm exports ${name}`);
    assert.ok(second.includes(name), `tflock_lock_bg.wasm lacks ${name}`);
  }
  for (const name of ["parseLock", "loadModule", "hashZip"]) assert.ok(!second.includes(name), `tflock_lock_bg.wasm exports ${name}`);
  assert.ok(main.includes("setSha256") && second.includes("setSha256"));
});

test("every file the exports map and `files` name exists", () => {
  for (const target of Object.values(manifest.exports["."])) assert.ok(existsSync(new URL(target, pkgDir)), target);
  for (const f of manifest.files) assert.ok(existsSync(new URL(f, pkgDir)), f);
  assert.equal(manifest.type, "module");
});

test("the Node entry exports the whole API and the types declare it", async () => {
  const tf = await loadPackage();
  const dts = readFileSync(new URL("tflock.d.ts", pkgDir), "utf8");
  const index = readFileSync(new URL("index.d.ts", pkgDir), "utf8");
  // The second module's exports (locking.js) are declared in index.d.ts, as promises.
  assert.match(index, /export declare function lock\(options: LockOptions\): Promise<PlanOutcome>/);
  assert.match(index, /export declare function verifySha256Sums\([^)]*\): Promise<VerifiedSums>/);
  assert.match(index, /export declare const Planner: \{\s*create\(options: PlannerOptions\): Promise<Planner>/);
  const api = ["hashZip", "hashFiles", "ZipHasher", "parseConstraints", "canonicalConstraints", "selectVersion", "parseLock", "formatLock", "diffLock", "mergeLock", "lockCoverage", "loadModule", "checkLock", "version"];
  for (const name of ["verifySha256Sums", "Planner", "lock"]) assert.ok(name in tf, `missing export ${name}`);
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
