// `require("tflock")` from CommonJS, as the package's `engines` (Node >= 20.19, where
// require(esm) is on by default) promises: the package installed in a node_modules, loaded
// by a .cjs file in a fresh Node process.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pkgDir } from "./helpers.mjs";

const manifest = JSON.parse(readFileSync(new URL("package.json", pkgDir), "utf8"));

test("engines names the first Node whose require() loads the package", () => {
  assert.equal(manifest.engines.node, ">=20.19");
});

test("require(\"tflock\") from a CommonJS file works and gives the whole API", () => {
  const dir = mkdtempSync(join(tmpdir(), "tflock-require-"));
  try {
    const installed = join(dir, "node_modules", "tflock");
    mkdirSync(installed, { recursive: true });
    for (const f of [...manifest.files, "package.json"]) cpSync(new URL(f, pkgDir), join(installed, f));
    writeFileSync(
      join(dir, "main.cjs"),
      `const tf = require("tflock");
console.log(JSON.stringify({ c: tf.canonicalConstraints(">=1.0,<2.0"), h1: tf.hashFiles([{ path: "a", bytes: "x" }]).h1, lock: typeof tf.lock }));
`,
    );
    const r = spawnSync(process.execPath, ["main.cjs"], { cwd: dir, encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.c, ">= 1.0.0, < 2.0.0");
    assert.match(out.h1, /^h1:/);
    assert.equal(out.lock, "function");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
