// The package README's examples for a bot and an editor extension, called as their users
// would call them (readme.test.mjs only checks that every example loads and runs).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pkgDir, loadPackage } from "./helpers.mjs";
import { startRegistry } from "./registry.mjs";

const tf = await loadPackage();
const dir = mkdtempSync(join(tmpdir(), "tflock-examples-"));
const HOST = "registry.example.com";
const DEMO = `${HOST}/acme/demo`;
const platforms = ["linux_amd64", "darwin_arm64", "windows_amd64", "darwin_amd64"];
let reg;

before(async () => {
  reg = await startRegistry({ versions: ["1.0.0", "1.2.0", "2.0.0"], platforms });
});
after(async () => {
  await reg.close();
  rmSync(reg.dir, { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
});

/** The README's `js` example containing `marker`, imported against the built package. */
async function example(marker) {
  const readme = readFileSync(new URL("README.md", pkgDir), "utf8");
  const blocks = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]).filter((b) => b.includes(marker));
  assert.equal(blocks.length, 1, marker);
  const file = join(dir, `example-${blocks[0].length}.mjs`);
  writeFileSync(file, blocks[0].replaceAll('from "tflock"', `from ${JSON.stringify(new URL("node.js", pkgDir).href)}`));
  return import(file);
}

test("the bot example bumps a provider, and reports a version the constraints exclude", async () => {
  const { bump } = await example("export async function bump(");
  const hosts = { [HOST]: { "providers.v1": reg.providersUrl } };
  const start = await tf.lock({ requirements: { [DEMO]: "1.0.0" }, platforms, fetch, hosts });
  const old = start.lockText.replace('constraints = "1.0.0"', 'constraints = "~> 1.0"');
  const store = new Map();
  const cache = { get: (k) => store.get(k), put: (k, v) => void store.set(k, v) };
  const done = await bump(old, DEMO, "1.2.0", { platforms, fetch, cache, hosts });
  assert.equal(done.summary, DEMO);
  const direct = await tf.updateProvider(old, { provider: DEMO, version: "1.2.0", platforms, fetch, hosts });
  assert.equal(done.lockText, direct.lockText);
  assert.equal(store.size, 4);
  const refused = await bump(old, DEMO, "2.0.0", { platforms, fetch, cache, hosts });
  assert.equal(refused.lockText, undefined);
  assert.equal(refused.errors.length, 1);
  assert.match(refused.errors[0], /2\.0\.0/);
});

test("the editor example turns diagnostics into 0-based lines and UTF-16 characters", async () => {
  const { check, position } = await example("export function editorDiagnostics(");
  // "🙂" is 4 bytes in UTF-8 and 2 UTF-16 units: a column count of either kind would be off.
  const main = 'terraform {\n  required_providers {\n    demo = { source = "acme/demo", version = "~>> 1" } # 🙂\n  }\n}\nlocals {\n  smile = "🙂"\n}\n';
  const got = check({ "main.tf": main }, null);
  assert.deepEqual(Object.keys(got), ["main.tf"]);
  const [first] = got["main.tf"];
  assert.equal(first.severity, 0);
  assert.match(first.message, /^Invalid version constraint/);
  // Terraform's range is the property's value (fixture init-diagnostics/required-providers-version-points-at-the-value).
  const line = main.split("\n")[first.range.start.line];
  assert.equal(first.range.start.line, 2);
  assert.ok(line.slice(first.range.start.character).startsWith('"~>> 1" }'), line.slice(first.range.start.character));
  // After the emoji, characters and bytes differ: the position counts UTF-16 units.
  const after = main.indexOf('"\n}', main.indexOf("smile"));
  assert.deepEqual(position(main, Buffer.byteLength(main.slice(0, after))), { line: 6, character: 13 });
  assert.equal(Buffer.byteLength('  smile = "🙂'), 15);
  // With a lock file that lacks the provider: the lock check's diagnostic, in the lock file.
  const lockText = tf.formatLock({ providers: [] });
  const withLock = check({ "main.tf": main.replace("~>> 1", "~> 1.0") }, lockText);
  const lockDiags = Object.values(withLock).flat();
  assert.ok(lockDiags.some((d) => d.severity === 0 && /Inconsistent dependency lock file/.test(d.message)), JSON.stringify(withLock));
});
