// The README's examples run against the built package.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { pkgDir } from "./helpers.mjs";

test("every js example in the package README runs", async () => {
  const readme = readFileSync(new URL("README.md", pkgDir), "utf8");
  const blocks = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
  assert.ok(blocks.length >= 5);
  const node = new URL("node.js", pkgDir).href;
  const dir = mkdtempSync(join(tmpdir(), "tflock-wasm-readme-"));
  const log = console.log;
  try {
    console.log = () => {};
    for (const [i, code] of blocks.entries()) {
      const file = join(dir, `example${i}.mjs`);
      writeFileSync(file, code.replaceAll('from "tflock"', `from ${JSON.stringify(node)}`));
      await import(file);
    }
  } finally {
    console.log = log;
    rmSync(dir, { recursive: true, force: true });
  }
});

test("every cjs example in the package README runs under require()", () => {
  const readme = readFileSync(new URL("README.md", pkgDir), "utf8");
  const blocks = [...readme.matchAll(/```cjs\n([\s\S]*?)```/g)].map((m) => m[1]);
  assert.ok(blocks.length >= 1);
  const node = fileURLToPath(new URL("node.js", pkgDir));
  const dir = mkdtempSync(join(tmpdir(), "tflock-wasm-readme-cjs-"));
  try {
    for (const [i, code] of blocks.entries()) {
      assert.match(code, /require\("tflock"\)/);
      const file = join(dir, `example${i}.cjs`);
      writeFileSync(file, code.replaceAll('require("tflock")', `require(${JSON.stringify(node)})`));
      const r = spawnSync(process.execPath, [file], { encoding: "utf8" });
      assert.equal(r.status, 0, r.stderr);
      // Each `console.log(x); // value` line printed its value.
      const said = [...code.matchAll(/console\.log\(.*\); \/\/ (.*)/g)].map((m) => m[1].replace(/^"|"$/g, ""));
      assert.deepEqual(r.stdout.trim().split("\n"), said);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
