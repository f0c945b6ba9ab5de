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

/** Runs `args` with both binaries, each in its own copy of `dir` with its own hash cache. */
async function both(dir, args, cache = {}) {
  const results = [];
  for (const [name, command] of [["native", [cli]], ["npm", [process.execPath, bin]]]) {
    const copy = join(home, `${name}-${results.length}-${Math.random().toString(36).slice(2)}`);
    cpSync(dir, copy, { recursive: true });
    const env = { ...process.env, HOME: home, TF_CLI_CONFIG_FILE: join(home, "cli.tfrc"), TFLOCK_CACHE_DIR: cache[name] ?? join(copy, ".cache") };
    delete env.TF_PLUGIN_CACHE_DIR;
    delete env.TFLOCK_FLAVOR;
    delete env.TFLOCK_PLATFORMS;
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
