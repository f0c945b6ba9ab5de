// The planner from JavaScript: `lock()` with the global fetch against a loopback registry,
// compared byte for byte with `tflock providers lock` against the same server; and the
// `Planner` class driven by hand.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { loadPackage, runCli, cli } from "./helpers.mjs";
import { assertType } from "./types.mjs";

const run = promisify(execFile);
import { startRegistry } from "./registry.mjs";

const tf = await loadPackage();
const HOST = "registry.example.com";
const platforms = ["linux_amd64", "darwin_arm64"];
let reg;

before(async () => {
  reg = await startRegistry({ versions: ["1.0.0", "1.2.0", "2.0.0"], platforms: [...platforms, "windows_amd64"] });
});
after(async () => {
  await reg.close();
  rmSync(reg.dir, { recursive: true, force: true });
});

// Async: the registry is served from this process, so the event loop must keep running.
async function cliLock(constraint, previous) {
  const home = mkdtempSync(join(tmpdir(), "tflock-wasm-cli-"));
  const work = join(home, "work");
  try {
    mkdirSync(work, { recursive: true });
    writeFileSync(join(home, "cli.tfrc"), `host "${HOST}" {\n  services = {\n    "providers.v1" = "${reg.providersUrl}"\n  }\n}\n`);
    writeFileSync(
      join(work, "main.tf"),
      `terraform {\n  required_providers {\n    demo = {\n      source  = "${HOST}/acme/demo"\n      version = "${constraint}"\n    }\n  }\n}\n`,
    );
    if (previous) writeFileSync(join(work, ".terraform.lock.hcl"), previous);
    const env = { ...process.env, HOME: home, TF_CLI_CONFIG_FILE: join(home, "cli.tfrc"), TFLOCK_CACHE_DIR: join(home, "cache") };
    delete env.TF_PLUGIN_CACHE_DIR;
    delete env.TFLOCK_FLAVOR;
    const args = ["providers", "lock", ...platforms.map((p) => `-platform=${p}`)];
    const r = await run(cli, args, { cwd: work, env }).catch((e) => e);
    assert.equal(r.code ?? 0, 0, `${r.stdout}${r.stderr}`);
    return readFileSync(join(work, ".terraform.lock.hcl"), "utf8");
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}


const options = (constraint, lock) => ({
  requirements: { [`${HOST}/acme/demo`]: constraint },
  lock,
  platforms,
  fetch,
  hosts: { [HOST]: { "providers.v1": reg.providersUrl } },
});

test("lock() with the global fetch writes the lock file `tflock providers lock` writes", async () => {
  for (const constraint of ["~> 1.0", ">= 1.0, < 2.0.0", "2.0.0"]) {
    const out = await tf.lock(options(constraint));
    assertType(out, "PlanOutcome");
    assert.deepEqual(out.diagnostics.filter((d) => d.severity === "error"), [], constraint);
    assert.equal(out.lockText, await cliLock(constraint), constraint);
    assert.equal(out.lock.providers[0].version, tf.selectVersion(constraint, ["1.0.0", "1.2.0", "2.0.0"]).version);
  }
});

test("lock() records the h1: that `tflock hash` computes for each platform's zip", async () => {
  const out = await tf.lock(options("1.2.0"));
  assert.equal(out.lock.providers.length, 1, JSON.stringify(out.diagnostics));
  const hashes = out.lock.providers[0].hashes;
  const dir = mkdtempSync(join(tmpdir(), "tflock-wasm-zips-"));
  try {
    for (const p of platforms) {
      const name = `terraform-provider-demo_1.2.0_${p}.zip`;
      writeFileSync(join(dir, name), reg.zips.get(name));
      const r = runCli(["hash", join(dir, name)]);
      const [h1, zh] = r.stdout.trim().split("\n");
      assert.ok(hashes.includes(h1), `${p} ${h1}`);
      assert.ok(hashes.includes(zh), `${p} ${zh}`);
    }
    // Unrequested platforms are covered only by their signed zh: line.
    assert.equal(hashes.filter((h) => h.startsWith("h1:")).length, 2);
    assert.equal(hashes.filter((h) => h.startsWith("zh:")).length, 3);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("lock() reports each progress line and each package's bytes to onProgress", async () => {
  const events = [];
  const out = await tf.lock({ ...options("1.2.0"), onProgress: (e) => events.push(e) });
  for (const e of events) assertType(e, "LockProgress");
  // Each line is one of the outcome's messages, heard while the run was going.
  const lines = events.filter((e) => e.kind === "message").map((e) => e.text);
  assert.ok(lines.length > 0);
  for (const line of lines) assert.ok(out.messages.includes(line), line);
  for (const p of platforms) {
    const name = `terraform-provider-demo_1.2.0_${p}.zip`;
    const mine = events.filter((e) => e.kind === "package" && e.platform === p);
    assert.ok(mine.length >= 1, p);
    const last = mine.at(-1);
    assert.deepEqual(
      { provider: last.provider, version: last.version, received: last.received, total: last.total, done: last.done },
      { provider: `${HOST}/acme/demo`, version: "1.2.0", received: reg.zips.get(name).length, total: reg.zips.get(name).length, done: true },
    );
    assert.equal(mine.filter((e) => e.done).length, 1, p);
  }
});

test("a fetch that rejects (refused, untrusted TLS, CORS) is named with its URL and what to check", async () => {
  const failing = (url) => Promise.reject(new TypeError("Failed to fetch"));
  const out = await tf.lock({ ...options("1.2.0"), fetch: failing });
  const errors = out.diagnostics.filter((d) => d.severity === "error");
  assert.equal(errors.length, 1, JSON.stringify(out.diagnostics));
  assert.match(errors[0].detail, new RegExp(`request to ${reg.providersUrl}acme/demo/versions failed: Failed to fetch`));
  assert.match(errors[0].detail, /TLS certificate is not trusted, or it does not allow this origin by CORS/);
});

test("lock() sends a host's token with its registry documents only, never with downloads", async () => {
  const seen = [];
  const recording = (url, init) => {
    seen.push({ url: String(url), auth: init?.headers?.Authorization ?? null });
    return fetch(url, init);
  };
  const cliConfig = `credentials "${HOST}" {\n  token = "from-config"\n}\n`;
  const out = await tf.lock({ ...options("1.2.0"), fetch: recording, cliConfig, credentials: { "Registry.Example.COM": "explicit" } });
  assert.equal(out.lockText, await cliLock("1.2.0"));
  const documents = seen.filter((r) => r.url.startsWith(reg.providersUrl));
  const others = seen.filter((r) => !r.url.startsWith(reg.providersUrl));
  assert.ok(documents.length >= 2 && others.length >= 2, JSON.stringify(seen));
  assert.deepEqual([...new Set(documents.map((r) => r.auth))], ["Bearer explicit"]);
  assert.deepEqual([...new Set(others.map((r) => r.auth))], [null]);
  const fromConfig = [];
  await tf.lock({ ...options("1.2.0"), cliConfig, fetch: (url, init) => (fromConfig.push(init?.headers?.Authorization ?? null), fetch(url, init)) });
  assert.ok(fromConfig.includes("Bearer from-config"), JSON.stringify(fromConfig));
  await assert.rejects(tf.lock({ ...options("1.2.0"), credentials: { "https://bad": "x" } }), /invalid hostname/);
});

test("lock() keeps a locked version and reports unchanged, like the CLI", async () => {
  const first = await tf.lock(options("~> 1.0"));
  const again = await tf.lock(options("~> 1.0", first.lockText));
  assert.equal(again.lockText, first.lockText);
  assert.equal(again.lockText, await cliLock("~> 1.0", first.lockText));
  assert.deepEqual(again.changes.providers, []);
});

test("lock() reports an unknown provider and an unreachable host as diagnostics", async () => {
  const missing = await tf.lock({ ...options(""), requirements: { [`${HOST}/acme/nope`]: "" } });
  const err = missing.diagnostics.find((d) => d.severity === "error");
  assert.ok(err, JSON.stringify(missing.diagnostics));
  assert.match(err.detail, /does not have a provider named registry\.example\.com\/acme\/nope/);
  const down = await tf.lock({ ...options(""), hosts: { [HOST]: { "providers.v1": "http://127.0.0.1:9/v1/providers/" } } });
  assert.ok(down.diagnostics.some((d) => d.severity === "error"));
  await assert.rejects(tf.lock({ ...options(""), fetch: 42 }), (e) => e.summary === "Invalid argument");
});

test("the Planner class driven by hand gives the same lock as lock()", async () => {
  const planner = await tf.Planner.create({ requirements: { [`${HOST}/acme/demo`]: "~> 1.0" }, platforms });
  assert.ok(planner instanceof tf.Planner);
  const get = async (path) => {
    const r = await fetch(reg.base + path);
    return { status: r.status, url: r.url, bytes: new Uint8Array(await r.arrayBuffer()) };
  };
  const kinds = new Set();
  for (let req = planner.next(); req; req = planner.next()) {
    kinds.add(req.kind);
    const [, ns, type] = req.provider.split("/");
    if (req.kind === "versions") {
      const r = await get(`/v1/providers/${ns}/${type}/versions`);
      planner.answer(req.id, { versions: JSON.parse(new TextDecoder().decode(r.bytes)).versions.map((v) => v.version) });
    } else if (req.kind === "packageMeta") {
      const [os, arch] = req.platform.split("_");
      const r = await get(`/v1/providers/${ns}/${type}/${req.version}/download/${os}/${arch}`);
      const meta = JSON.parse(new TextDecoder().decode(r.bytes));
      const sums = await get(new URL(meta.shasums_url).pathname);
      const sig = await get(new URL(meta.shasums_signature_url).pathname);
      planner.answer(req.id, { registry: { url: r.url, download: r.bytes, sha256sums: sums.bytes, signature: sig.bytes } });
    } else if (req.kind === "package") {
      const r = await get(new URL(req.location.value).pathname);
      planner.answer(req.id, { bytes: r.bytes });
    } else {
      planner.answer(req.id, { h1: null });
    }
  }
  assert.ok(planner.isDone());
  assert.deepEqual([...kinds].sort(), ["package", "packageMeta", "versions"]);
  const out = planner.finish();
  assertType(out, "PlanOutcome");
  assert.ok(out.providers[0].hashes.some((h) => h.signedBy && h.reportedByRegistry), JSON.stringify(out.providers));
  assert.equal(out.lockText, (await tf.lock(options("~> 1.0"))).lockText);
  assert.throws(() => planner.next(), (e) => e.summary === "Invalid argument");
});

test("Planner answers of the wrong shape throw and leave the request outstanding", async () => {
  const planner = await tf.Planner.create({ requirements: { [`${HOST}/acme/demo`]: "" }, platforms });
  const req = planner.next();
  assert.equal(req.kind, "versions");
  assert.throws(() => planner.answer(req.id, { versions: "1.0.0" }), (e) => e.summary === "Invalid argument");
  assert.throws(() => planner.answer(999, { versions: [] }), (e) => /no outstanding request/.test(e.detail));
  planner.answer(req.id, { error: { message: "boom" } });
  const out = planner.finish();
  assertType(out, "PlanOutcome");
  assert.ok(out.diagnostics.some((d) => d.severity === "error" && /boom/.test(d.detail)));
  await assert.rejects(tf.Planner.create({ requirements: {}, platforms: ["nope"] }), (e) => e.summary === "Invalid target platform");
});

test("a Planner is made by Planner.create: its module loads on first use, so new Planner() throws", () => {
  assert.throws(() => new tf.Planner({ requirements: {}, platforms }), (e) => e instanceof TypeError && /Planner\.create/.test(e.message));
  assert.equal({} instanceof tf.Planner, false);
});

test("setSha256 reaches the second module: lock() hashes its downloads on the digest given", async () => {
  let made = 0;
  tf.setSha256(() => {
    made++;
    return createHash("sha256");
  });
  try {
    const out = await tf.lock(options("~> 1.0"));
    assert.deepEqual(out.diagnostics.filter((d) => d.severity === "error"), []);
    // One digest for setSha256's own check, then at least one per downloaded package.
    assert.ok(made > 1 + platforms.length, `the digest was made ${made} times`);
  } finally {
    tf.setSha256(() => createHash("sha256"));
  }
});
