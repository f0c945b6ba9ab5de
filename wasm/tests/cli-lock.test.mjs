// `npx tflock providers lock` (the package's bin) against the native `tflock providers lock`:
// the same module, CLI configuration and loopback registry give the same stdout, stderr,
// exit status and lock file; and the two share the native CLI's hash cache.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, rmSync, cpSync, existsSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { pkgDir, cli } from "./helpers.mjs";
import { startRegistry } from "./registry.mjs";

const run = promisify(execFile);
const bin = fileURLToPath(new URL("cli.js", pkgDir));
const HOST = "registry.example.com";
const DEMO = `${HOST}/acme/demo`;
let reg;
let home;

before(async () => {
  reg = await startRegistry({ versions: ["1.0.0", "1.2.0", "2.0.0"], platforms: ["linux_amd64", "darwin_arm64", "windows_amd64"] });
  home = mkdtempSync(join(tmpdir(), "tflock-bin-lock-"));
  // provider_installation is ignored by `providers lock` (as by Terraform): both must skip it.
  writeFileSync(
    join(home, "cli.tfrc"),
    `host "${HOST}" {\n  services = {\n    "providers.v1" = "${reg.providersUrl}"\n  }\n}\nprovider_installation {\n  network_mirror {\n    url = "https://mirror.invalid/{x}/"\n  }\n}\n`,
  );
});
after(async () => {
  await reg.close();
  rmSync(reg.dir, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

const requires = (constraint) =>
  `terraform {\n  required_providers {\n    demo = {\n      source  = "${DEMO}"\n      version = "${constraint}"\n    }\n  }\n}\n`;

/** A root module requiring acme/demo at `root`, with a local child module requiring `child`. */
function module(name, root, child) {
  const dir = join(home, name);
  mkdirSync(join(dir, "modules", "child"), { recursive: true });
  writeFileSync(join(dir, "main.tf"), requires(root) + `module "child" {\n  source = "./modules/child"\n}\n`);
  writeFileSync(join(dir, "modules", "child", "main.tf"), requires(child));
  return dir;
}

/**
 * Runs `args` with both binaries, each in its own copy of `dir` with its own hash cache
 * (`cache.native` / `cache.npm` name one; `env` adds variables).
 */
async function both(dir, args, cache = {}, extraEnv = {}) {
  const results = [];
  for (const [name, command] of [["native", [cli]], ["npm", [process.execPath, bin]]]) {
    const copy = join(home, `${name}-${results.length}-${Math.random().toString(36).slice(2)}`);
    cpSync(dir, copy, { recursive: true });
    const env = { ...process.env, HOME: home, TF_CLI_CONFIG_FILE: join(home, "cli.tfrc"), TFLOCK_CACHE_DIR: cache[name] ?? join(copy, ".cache") };
    delete env.TF_PLUGIN_CACHE_DIR;
    delete env.TFLOCK_FLAVOR;
    delete env.TFLOCK_PLATFORMS;
    Object.assign(env, extraEnv);
    const r = await run(command[0], [...command.slice(1), ...args], { cwd: copy, env }).catch((e) => e);
    const lockFile = join(copy, ".terraform.lock.hcl");
    results.push({ status: r.code ?? 0, stdout: r.stdout, stderr: r.stderr, lock: existsSync(lockFile) ? readFileSync(lockFile, "utf8") : null });
  }
  const [native, npm] = results;
  assert.deepEqual(npm, native, `tflock ${args.join(" ")}`);
  return native;
}

const platformFlags = (...ps) => ps.map((p) => `-platform=${p}`);

test("providers lock: a new lock for a module tree, then a platform more, as the native CLI", async () => {
  const dir = module("tree", "~> 1.0", ">= 1.0.0");
  const first = await both(dir, ["providers", "lock", ...platformFlags("linux_amd64", "darwin_arm64")]);
  assert.equal(first.status, 0);
  assert.match(first.lock, /version\s+= "1\.2\.0"/);
  writeFileSync(join(dir, ".terraform.lock.hcl"), first.lock);
  const more = await both(dir, ["providers", "lock", "--platform", "linux_amd64", "-platform=darwin_arm64", "-platform=windows_amd64"]);
  assert.equal(more.status, 0);
  assert.notEqual(more.lock, first.lock);
  assert.match(more.stdout, /windows_amd64/);
  // The same again: nothing to add.
  writeFileSync(join(dir, ".terraform.lock.hcl"), more.lock);
  assert.equal((await both(dir, ["providers", "lock", ...platformFlags("windows_amd64")])).status, 0);
});

test("providers lock: -metadata-hashes and -no-hash-cache are accepted alike", async () => {
  const dir = module("flags", "1.0.0", ">= 1.0.0");
  assert.equal((await both(dir, ["providers", "lock", "-metadata-hashes", "-no-hash-cache", ...platformFlags("linux_amd64")])).status, 0);
});

test("providers lock: failures are the native CLI's texts and exit 1", async () => {
  // No version satisfies both constraints.
  const conflict = await both(module("conflict", "~> 1.0", ">= 2.0.0"), ["providers", "lock", ...platformFlags("linux_amd64")]);
  assert.equal(conflict.status, 1);
  assert.match(conflict.stderr, /^Error: /m);
  // A configuration error stops before any request.
  const dir = module("invalid", "~> 1.0", ">= 1.0.0");
  writeFileSync(join(dir, "versions.tf"), requires("~> 1.0"));
  const invalid = await both(dir, ["providers", "lock", ...platformFlags("linux_amd64")]);
  assert.equal(invalid.status, 1);
  assert.equal(invalid.lock, null);
});

test("the npm bin and the native CLI share one hash cache", async () => {
  const dir = module("cache", "1.2.0", ">= 1.0.0");
  const cache = join(home, "shared-cache");
  await both(dir, ["providers", "lock", ...platformFlags("linux_amd64", "darwin_arm64")], { native: cache, npm: cache });
  assert.equal(readdirSync(join(cache, "zh")).length, 2);
  // With the native CLI's entries in place, the bin downloads nothing.
  const before = reg.requests.length;
  const copy = join(home, "cache-npm");
  cpSync(dir, copy, { recursive: true });
  const env = { ...process.env, HOME: home, TF_CLI_CONFIG_FILE: join(home, "cli.tfrc"), TFLOCK_CACHE_DIR: cache };
  await run(process.execPath, [bin, "providers", "lock", ...platformFlags("linux_amd64", "darwin_arm64")], { cwd: copy, env });
  assert.deepEqual(reg.requests.slice(before).filter((r) => r.path.endsWith(".zip")), []);
});

/**
 * `dir` locked by the native CLI for `platforms` (its lock file written into `dir`), and
 * two copies of the hash cache that run filled: the only place a registry's platforms get
 * an `h1:` without a download, so what lets either binary name the lock's platforms.
 */
async function lockedWithCache(dir, platforms) {
  const cache = join(home, `cache-${Math.random().toString(36).slice(2)}`);
  const env = { ...process.env, HOME: home, TF_CLI_CONFIG_FILE: join(home, "cli.tfrc"), TFLOCK_CACHE_DIR: cache };
  delete env.TFLOCK_PLATFORMS;
  const r = await run(cli, ["providers", "lock", ...platformFlags(...platforms)], { cwd: dir, env }).catch((e) => e);
  assert.equal(r.code ?? 0, 0, r.stderr);
  const copies = {};
  for (const name of ["native", "npm"]) {
    copies[name] = `${cache}-${name}`;
    cpSync(cache, copies[name], { recursive: true });
  }
  return copies;
}

const h1s = (lock) => (lock.match(/"h1:/g) ?? []).length;

test("providers lock -platform=locked keeps the platforms the lock covers, with the ones given, as the native CLI", async () => {
  const dir = module("locked", "1.2.0", ">= 1.0.0");
  const cache = await lockedWithCache(dir, ["darwin_arm64", "windows_amd64"]);
  const r = await both(dir, ["providers", "lock", "-platform=locked", "--platform", "linux_amd64"], cache);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(h1s(r.lock), 3);
  // `locked` alone: nothing to add.
  const again = await both(dir, ["providers", "lock", "--platform=locked"], cache);
  assert.equal(again.status, 0, again.stderr);
  assert.equal(h1s(again.lock), 2);
});

test("providers lock without -platform keeps a several-platform lock's platforms and says so, as the native CLI", async () => {
  const dir = module("default", "1.2.0", ">= 1.0.0");
  const cache = await lockedWithCache(dir, ["darwin_arm64", "windows_amd64"]);
  const r = await both(dir, ["providers", "lock"], cache);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /^tflock: keeping the 3 platforms the lock file covers \(/m);
  assert.equal(h1s(r.lock), 3);
  // Without the cache no h1: can be placed: this machine's platform only, and a note.
  const cold = await both(dir, ["providers", "lock"]);
  assert.equal(cold.status, 0, cold.stderr);
  assert.match(cold.stderr, /^tflock: the lock file has 2 h1: checksum\(s\) of platforms tflock cannot name/m);
  // A module without a lock file: this machine's platform, nothing said.
  const fresh = await both(module("default-fresh", "1.2.0", ">= 1.0.0"), ["providers", "lock"]);
  assert.equal(fresh.status, 0, fresh.stderr);
  assert.equal(fresh.stderr, "");
  assert.equal(h1s(fresh.lock), 1);
});

test("providers lock takes TFLOCK_PLATFORMS, then the CLI configuration's tflock_platforms, as the native CLI", async () => {
  const dir = module("env", "1.2.0", ">= 1.0.0");
  const env = await both(dir, ["providers", "lock"], {}, { TFLOCK_PLATFORMS: " darwin_arm64, windows_amd64 ," });
  assert.equal(env.status, 0, env.stderr);
  assert.match(env.stderr, /^tflock: platforms from TFLOCK_PLATFORMS: darwin_arm64, windows_amd64$/m);
  assert.equal(h1s(env.lock), 2);
  const config = join(home, "platforms.tfrc");
  writeFileSync(config, readFileSync(join(home, "cli.tfrc"), "utf8") + `tflock_platforms = ["windows_amd64"]\n`);
  const cfg = await both(dir, ["providers", "lock"], {}, { TF_CLI_CONFIG_FILE: config });
  assert.equal(cfg.status, 0, cfg.stderr);
  assert.match(cfg.stderr, /^tflock: platforms from the CLI configuration's tflock_platforms: windows_amd64$/m);
  // The flags win over both.
  const flags = await both(dir, ["providers", "lock", "-platform=linux_amd64"], {}, { TFLOCK_PLATFORMS: "darwin_arm64", TF_CLI_CONFIG_FILE: config });
  assert.equal(flags.status, 0, flags.stderr);
  assert.equal(h1s(flags.lock), 1);
});

test("providers lock refuses a bad platform and `locked` with nothing locked, in the native CLI's words", async () => {
  const dir = module("bad-platforms", "1.2.0", ">= 1.0.0");
  for (const [args, env, summary] of [
    [["-platform=linux"], {}, "Invalid target platform"],
    [[], { TFLOCK_PLATFORMS: "linux_amd64,darwin" }, "Invalid target platform"],
    [["-platform=locked"], {}, "No platforms to lock"],
  ]) {
    const r = await both(dir, ["providers", "lock", ...args], {}, env);
    assert.equal(r.status, 1);
    assert.ok(r.stderr.startsWith(`\nError: ${summary}\n`), r.stderr);
    assert.equal(r.lock, null);
  }
});

test("lockfile coverage: covered, missing and unchecked platforms, text and JSON, exit 0/2/1, as the native CLI", async () => {
  const dir = module("coverage", "1.2.0", ">= 1.0.0");
  const cache = await lockedWithCache(dir, ["linux_amd64", "darwin_arm64"]);
  // `lockfile coverage` honours provider_installation, as the native command does: this
  // configuration sends the provider to its registry.
  const config = join(home, "coverage.tfrc");
  writeFileSync(config, `host "${HOST}" {\n  services = {\n    "providers.v1" = "${reg.providersUrl}"\n  }\n}\n`);
  const cover = (args, c = cache) => both(dir, ["lockfile", "coverage", ...args], c, { TF_CLI_CONFIG_FILE: config });
  const ok = await cover(["-platform=linux_amd64", "--platform", "darwin_arm64"]);
  assert.equal(ok.status, 0, ok.stderr);
  assert.match(ok.stdout, /^registry\.example\.com\/acme\/demo 1\.2\.0: covers .* — ok$/m);
  // linux_arm64 is not published: missing, a finding (2).
  const missing = await cover(["-platform=linux_amd64", "-platform=linux_arm64"]);
  assert.equal(missing.status, 2, missing.stderr);
  assert.match(missing.stdout, /missing linux_arm64/);
  const json = await cover(["-platform=linux_arm64", "-platform=windows_amd64", "--json"]);
  assert.equal(json.status, 2, json.stderr);
  assert.equal(JSON.parse(json.stdout).providers[0].provider, DEMO);
  // The default is this machine's platform; without the cache the h1: are unknown.
  assert.equal((await cover([])).status, 0);
  assert.equal((await cover(["-platform=windows_amd64"], {})).status, 0);
  // Usage errors.
  for (const args of [["-platform=linux"], ["-platform=locked"], ["--flavor=nope"]]) {
    const r = await cover(args);
    assert.equal(r.status, 1, r.stderr);
  }
  // The configuration the other tests use sends every provider to an unreachable mirror: the
  // platforms are unchecked, an error (1). The transport's own words differ (Node's fetch,
  // the CLI's HTTP client), so those are compared without them: from the mirror's URL to
  // the end of their paragraph (the detail is word-wrapped, so they span lines).
  const results = [];
  await both(dir, ["lockfile", "coverage", "-platform=linux_amd64"], cache).catch((e) => {
    results.push(e.actual, e.expected);
  });
  assert.equal(results.length, 2, "the transport errors differ in wording only");
  const [npm, native] = results.map((r) => ({ ...r, stderr: r.stderr.replace(/(failed\sto\squery\sprovider\smirror)\s[\s\S]*?\n\n/g, "$1 (transport error)\n\n") }));
  assert.deepEqual(npm, native);
  assert.equal(native.status, 1);
  assert.match(native.stderr, /^Error: Failed to query provider package metadata$/m);
  assert.match(native.stdout, /not checked linux_amd64 \(see the errors\)/);
});
