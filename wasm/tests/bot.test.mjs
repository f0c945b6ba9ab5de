// A dependency bot's bump through the package: `updateProvider()` moves one provider of a
// four-platform lock to a new version against the loopback registry and must write the
// lock `tflock providers lock` writes on the same inputs, byte for byte; `cache` must be the
// CLI's hash cache (same keys, same entries) and save every download on a second run; and
// `metadataHashes` must be the CLI's `-metadata-hashes` (one download per provider).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, readdirSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { loadPackage, cli } from "./helpers.mjs";
import { startRegistry } from "./registry.mjs";
import { startMirror } from "./mirror.mjs";
import { assertType } from "./types.mjs";

const run = promisify(execFile);
const tf = await loadPackage();
const HOST = "registry.example.com";
const DEMO = `${HOST}/acme/demo`;
// The lock covers four platforms; the registry also publishes a fifth, whose `zh:` the
// signed SHA256SUMS adds.
const platforms = ["darwin_amd64", "darwin_arm64", "linux_amd64", "windows_amd64"];
let reg;
let mirror;

before(async () => {
  reg = await startRegistry({ versions: ["1.0.0", "1.2.0", "2.0.0"], platforms: [...platforms, "linux_arm64"] });
  mirror = await startMirror({ host: HOST, versions: ["1.0.0", "1.2.0"], platforms });
});
after(async () => {
  await reg.close();
  await mirror.close();
  rmSync(reg.dir, { recursive: true, force: true });
  rmSync(mirror.dir, { recursive: true, force: true });
});

/** `fetch` that counts package downloads (`.zip` URLs). */
function counting(base = fetch) {
  const f = (url, init) => {
    if (String(url).endsWith(".zip")) f.downloads++;
    return base(url, init);
  };
  f.downloads = 0;
  return f;
}

const sources = () => ({ hosts: { [HOST]: { "providers.v1": reg.providersUrl } } });

/**
 * `tflock providers lock` in a module requiring `acme/demo` at `constraint`, starting from
 * `lock` (text or null); `cacheDir` is its hash cache. Returns { lock, downloads }.
 * Async: the registry is served from this process.
 */
async function nativeLock({ constraint, lock, cacheDir, args = [], env: extra = {} }) {
  const home = mkdtempSync(join(tmpdir(), "tflock-wasm-bot-"));
  const work = join(home, "work");
  try {
    mkdirSync(work, { recursive: true });
    writeFileSync(join(home, "cli.tfrc"), `host "${HOST}" {\n  services = {\n    "providers.v1" = "${reg.providersUrl}"\n  }\n}\n`);
    writeFileSync(
      join(work, "main.tf"),
      `terraform {\n  required_providers {\n    demo = {\n      source  = "${DEMO}"\n      version = "${constraint}"\n    }\n  }\n}\n`,
    );
    if (lock) writeFileSync(join(work, ".terraform.lock.hcl"), lock);
    const env = { ...process.env, HOME: home, TF_CLI_CONFIG_FILE: join(home, "cli.tfrc"), TFLOCK_CACHE_DIR: cacheDir ?? join(home, "cache"), ...extra };
    delete env.TF_PLUGIN_CACHE_DIR;
    delete env.TFLOCK_FLAVOR;
    const before = reg.requests.length;
    const r = await run(cli, ["providers", "lock", ...platforms.map((p) => `-platform=${p}`), ...args], { cwd: work, env }).catch((e) => e);
    assert.equal(r.code ?? 0, 0, `${r.stdout}${r.stderr}`);
    const downloads = reg.requests.slice(before).filter((q) => q.path.endsWith(".zip")).length;
    return { lock: readFileSync(join(work, ".terraform.lock.hcl"), "utf8"), downloads };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** A lock file with another provider the bump must leave alone, and `acme/demo` as given. */
async function startingLock(version, lockPlatforms, cache) {
  const out = await tf.lock({ requirements: { [DEMO]: version }, platforms: lockPlatforms, fetch, cache, ...sources() });
  assert.deepEqual(out.diagnostics, []);
  const other = `provider "registry.terraform.io/hashicorp/null" {\n  version     = "3.2.1"\n  constraints = "~> 3.0"\n  hashes = [\n    "h1:${"A".repeat(43)}=",\n    "zh:${"b".repeat(64)}",\n  ]\n}\n`;
  return tf.formatLock(out.lockText + "\n" + other);
}

/** `lockText` without `provider`'s block: what a bot leaves for `providers lock` to fill. */
function without(lockText, provider) {
  const { lock } = tf.parseLock(lockText);
  lock.providers = lock.providers.filter((p) => p.provider !== provider);
  return tf.formatLock(lock);
}

test("updateProvider() bumps one provider of a four-platform lock as `tflock providers lock` does", async () => {
  const old = await startingLock("1.0.0", platforms);
  const f = counting();
  const out = await tf.updateProvider(old, { provider: DEMO, version: "1.2.0", constraints: "~> 1.0", platforms, fetch: f, ...sources() });
  assertType(out, "PlanOutcome");
  assert.deepEqual(out.diagnostics, []);
  assert.equal(f.downloads, 4);
  // The configuration now says `~> 1.0`, and the bot removed the old selection: the CLI
  // picks 1.2.0, the newest it allows.
  const native = await nativeLock({ constraint: "~> 1.0", lock: without(old, DEMO) });
  assert.equal(out.lockText, native.lock);
  const demo = out.lock.providers.find((p) => p.provider === DEMO);
  assert.equal(demo.version, "1.2.0");
  assert.equal(demo.hashes.filter((h) => h.startsWith("h1:")).length, 4);
  assert.equal(demo.hashes.filter((h) => h.startsWith("zh:")).length, 5);
  // The other provider is untouched, and the changes are measured from the bot's lock.
  assert.deepEqual(
    out.lock.providers.find((p) => p.provider !== DEMO),
    tf.parseLock(old).lock.providers.find((p) => p.provider !== DEMO),
  );
  assert.deepEqual(out.changes, tf.diffLock(old, out.lockText));
  assert.equal(out.writeLock, true);
});

test("updateProvider() on the locked version keeps its hashes and completes the missing platforms", async () => {
  const old = await startingLock("1.2.0", ["linux_amd64", "darwin_arm64"]);
  const out = await tf.updateProvider(old, { provider: DEMO, version: "1.2.0", platforms, fetch, ...sources() });
  assert.deepEqual(out.diagnostics, []);
  const native = await nativeLock({ constraint: "1.2.0", lock: old });
  assert.equal(out.lockText, native.lock);
  const before = tf.parseLock(old).lock.providers.find((p) => p.provider === DEMO).hashes;
  const after = out.lock.providers.find((p) => p.provider === DEMO).hashes;
  assert.ok(before.every((h) => after.includes(h)));
  assert.equal(after.filter((h) => h.startsWith("h1:")).length, 4);
});

test("updateProvider() refuses a version the recorded constraints exclude, and returns the lock unchanged", async () => {
  const old = await startingLock("1.0.0", platforms);
  const out = await tf.updateProvider(old, { provider: DEMO, version: "2.0.0", platforms, fetch, ...sources() });
  assert.equal(out.diagnostics[0]?.severity, "error", JSON.stringify(out.diagnostics));
  assert.equal(out.lockText, old);
  assert.equal(out.writeLock, false);
  assert.deepEqual(out.changes, { providers: [] });
});

test("the cache is the CLI's hash cache: same keys and entries, and a warm cache downloads nothing", async () => {
  const old = await startingLock("1.0.0", platforms);
  const bump = (f, cache) =>
    tf.updateProvider(old, { provider: DEMO, version: "1.2.0", constraints: "~> 1.0", platforms, fetch: f, cache, ...sources() });
  const store = new Map();
  // `get` answers synchronously here (a store loaded before the run); `put` returns a promise.
  const cache = { get: (k) => store.get(k), put: async (k, v) => void store.set(k, v) };
  const counts = {};
  for (const [name, c] of [["noCache", undefined], ["coldCache", cache], ["warmCache", cache]]) {
    const f = counting();
    const out = await bump(f, c);
    assert.deepEqual(out.diagnostics, []);
    counts[name] = f.downloads;
  }
  assert.deepEqual(counts, { noCache: 4, coldCache: 4, warmCache: 0 });
  assert.equal(store.size, 4);

  // The native CLI, with its own hash cache directory, on the same bump.
  const cacheDir = mkdtempSync(join(tmpdir(), "tflock-wasm-bot-cache-"));
  try {
    const cold = await nativeLock({ constraint: "~> 1.0", lock: without(old, DEMO), cacheDir: join(cacheDir, "zh") });
    const warm = await nativeLock({ constraint: "~> 1.0", lock: without(old, DEMO), cacheDir: join(cacheDir, "zh") });
    assert.deepEqual([cold.downloads, warm.downloads], [4, 0]);
    const files = readdirSync(join(cacheDir, "zh", "zh")).sort();
    assert.deepEqual(files, [...store.keys()].map((k) => `${k}.json`).sort());
    for (const file of files) {
      const entry = JSON.parse(readFileSync(join(cacheDir, "zh", "zh", file), "utf8"));
      const js = store.get(file.replace(/\.json$/, ""));
      assert.deepEqual({ h1: js.h1, h1_archive: js.h1Archive, size: js.size }, entry);
    }
    // And the warm JS run wrote the same lock as the CLI.
    const out = await bump(counting(), cache);
    assert.equal(out.lockText, warm.lock);
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
});

test("lock() takes the cache too, and an entry the storage damaged is a miss", async () => {
  const store = new Map();
  const cache = { get: (k) => store.get(k), put: (k, v) => void store.set(k, v) };
  const opts = (f) => ({ requirements: { [DEMO]: "1.2.0" }, platforms, fetch: f, cache, ...sources() });
  const cold = counting();
  const first = await tf.lock(opts(cold));
  const warm = counting();
  const second = await tf.lock(opts(warm));
  assert.deepEqual([cold.downloads, warm.downloads], [4, 0]);
  assert.equal(second.lockText, first.lockText);
  // An entry the caller's storage damaged is a miss, not an error: that package is fetched.
  const [key] = [...store.keys()];
  store.set(key, { h1: "not a hash" });
  const damaged = counting();
  const third = await tf.lock(opts(damaged));
  assert.equal(damaged.downloads, 1);
  assert.equal(third.lockText, first.lockText);
});

test("metadataHashes is -metadata-hashes: one download per provider from a mirror, the same lock", async () => {
  const lockOpts = (f, metadataHashes) => ({
    requirements: { [DEMO]: "1.2.0" },
    platforms,
    fetch: f,
    networkMirror: mirror.base,
    metadataHashes,
  });
  const full = counting(mirror.fetch);
  const meta = counting(mirror.fetch);
  const a = await tf.lock(lockOpts(full, false));
  const b = await tf.lock(lockOpts(meta, true));
  assert.deepEqual(b.diagnostics, []);
  assert.deepEqual([full.downloads, meta.downloads], [4, 1]);
  assert.equal(b.lockText, a.lockText);
  assert.equal(b.providers[0].hashes.filter((h) => h.fromMetadata).length, 3);
  // The CLI's -metadata-hashes on the same mirror.
  const native = await nativeLock({
    constraint: "1.2.0",
    lock: null,
    args: [`-net-mirror=${mirror.base}`, "-metadata-hashes"],
    env: { SSL_CERT_FILE: mirror.caFile },
  });
  assert.equal(native.lock, b.lockText);
  // updateProvider() offers the same mode.
  const m = counting(mirror.fetch);
  const bumped = await tf.updateProvider(a.lockText.replaceAll("1.2.0", "1.0.0"), {
    provider: DEMO,
    version: "1.2.0",
    constraints: "1.2.0",
    platforms,
    fetch: m,
    networkMirror: mirror.base,
    metadataHashes: true,
  });
  assert.deepEqual(bumped.diagnostics, []);
  assert.equal(m.downloads, 1);
  assert.equal(bumped.lockText, a.lockText);
});

/**
 * A cache whose storage answers later, as a file, IndexedDB or a KV store does: `get` and
 * `put` return promises settled on a later turn of the event loop. Counts its reads.
 */
function asyncCache(store = new Map()) {
  const later = () => new Promise((r) => setTimeout(r, 1));
  const cache = {
    store,
    gets: 0,
    async get(k) {
      cache.gets++;
      await later();
      return store.get(k);
    },
    async put(k, v) {
      await later();
      store.set(k, v);
    },
  };
  return cache;
}

test("updateProvider() without platforms keeps the four the lock covers, named through an async cache", async () => {
  // The bot's cache saw the packages of the version locked today (its last run).
  const cache = asyncCache();
  const old = await startingLock("1.0.0", platforms, cache);
  await new Promise((r) => setTimeout(r, 10));
  assert.equal(cache.store.size, 4);
  const bump = (f) => tf.updateProvider(old, { provider: DEMO, version: "1.2.0", constraints: "~> 1.0", fetch: f, cache, ...sources() });
  const cold = counting();
  const out = await bump(cold);
  assert.deepEqual(out.diagnostics, []);
  // The registry's signed SHA256SUMS has every platform's zh:, the cache each one's h1:.
  assert.deepEqual(out.platforms, platforms);
  assert.equal(out.platformNote, null);
  const native = await nativeLock({ constraint: "~> 1.0", lock: without(old, DEMO) });
  assert.equal(out.lockText, native.lock);
  await new Promise((r) => setTimeout(r, 10));
  const warm = counting();
  const again = await bump(warm);
  assert.equal(again.lockText, out.lockText);
  assert.deepEqual([cold.downloads, warm.downloads], [4, 0]);
  assert.equal(cache.store.size, 8);
  assert.ok(cache.gets > 0);
  // A platform named beside `locked` is completed too.
  const more = await tf.updateProvider(old, { provider: DEMO, version: "1.2.0", constraints: "~> 1.0", platforms: ["locked", "linux_arm64"], fetch, cache, ...sources() });
  assert.deepEqual(more.diagnostics, []);
  assert.deepEqual(more.platforms, [...platforms, "linux_arm64"]);
  assert.equal(more.lock.providers.find((p) => p.provider === DEMO).hashes.filter((h) => h.startsWith("h1:")).length, 5);
});

test("updateProvider() without platforms and nothing to name the lock's h1: by refuses, in the CLI's words", async () => {
  const old = await startingLock("1.0.0", platforms);
  await assert.rejects(
    tf.updateProvider(old, { provider: DEMO, version: "1.2.0", fetch, cache: asyncCache(), ...sources() }),
    (e) => e.summary === "No platforms to lock",
  );
});

test("a cache whose get rejects or answers junk later is a miss, not an error", async () => {
  const cache = { get: async () => { throw new Error("storage offline"); }, put: async () => {} };
  const f = counting();
  const out = await tf.lock({ requirements: { [DEMO]: "1.2.0" }, platforms, fetch: f, cache, ...sources() });
  assert.deepEqual(out.diagnostics, []);
  assert.equal(f.downloads, 4);
  const junk = { get: async () => ({ h1: 42 }), put: () => {} };
  const g = counting();
  const again = await tf.lock({ requirements: { [DEMO]: "1.2.0" }, platforms, fetch: g, cache: junk, ...sources() });
  assert.equal(again.lockText, out.lockText);
  assert.equal(g.downloads, 4);
});
