// `lock()` against a network mirror (HTTPS on 127.0.0.1): the lock file and the error texts
// must be the ones `tflock providers lock` gives for the same mirror, with the mirror given
// as an option (`-net-mirror`) or through a CLI config's `provider_installation`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { loadPackage, cli } from "./helpers.mjs";
import { startMirror } from "./mirror.mjs";

const run = promisify(execFile);
const tf = await loadPackage();
const HOST = "registry.example.com";
const platforms = ["linux_amd64", "darwin_arm64"];
let mirror;

before(async () => {
  mirror = await startMirror({ host: HOST, versions: ["1.0.0", "1.3.0", "2.0.0"], platforms: [...platforms, "windows_amd64"] });
});
after(async () => {
  await mirror.close();
  rmSync(mirror.dir, { recursive: true, force: true });
});

const installation = () =>
  `provider_installation {\n  network_mirror {\n    url     = "${mirror.base}"\n    include = ["${HOST}/acme/*"]\n  }\n  direct {\n    exclude = ["${HOST}/acme/*"]\n  }\n}\n`;

// The native CLI on the same mirror; async because the mirror is served from this process.
async function cliLock({ provider = `${HOST}/acme/demo`, constraint, viaConfig = false, inspect = () => {} }) {
  const home = mkdtempSync(join(tmpdir(), "tflock-wasm-mirror-cli-"));
  const work = join(home, "work");
  try {
    mkdirSync(work, { recursive: true });
    writeFileSync(join(home, "cli.tfrc"), viaConfig ? installation() : "");
    writeFileSync(
      join(work, "main.tf"),
      `terraform {\n  required_providers {\n    demo = {\n      source  = "${provider}"\n      version = "${constraint}"\n    }\n  }\n}\n`,
    );
    const env = {
      ...process.env,
      HOME: home,
      TF_CLI_CONFIG_FILE: join(home, "cli.tfrc"),
      TFLOCK_CACHE_DIR: join(home, "cache"),
      SSL_CERT_FILE: mirror.caFile,
    };
    delete env.TF_PLUGIN_CACHE_DIR;
    delete env.TFLOCK_FLAVOR;
    // `providers lock` ignores provider_installation (like Terraform): `mirror` honours it,
    // and `-net-mirror` names the mirror directly.
    const args = viaConfig
      ? ["providers", "mirror", ...platforms.map((p) => `-platform=${p}`), join(home, "out")]
      : ["providers", "lock", `-net-mirror=${mirror.base}`, ...platforms.map((p) => `-platform=${p}`)];
    const r = await run(cli, args, { cwd: work, env }).catch((e) => e);
    inspect(home);
    const lockFile = join(work, ".terraform.lock.hcl");
    return {
      code: r.code ?? 0,
      output: `${r.stdout}${r.stderr}`,
      lock: existsSync(lockFile) ? readFileSync(lockFile, "utf8") : null,
    };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

const options = (constraint, extra) => ({
  requirements: { [`${HOST}/acme/demo`]: constraint },
  platforms,
  fetch: mirror.fetch,
  networkMirror: mirror.base,
  ...extra,
});

test("lock() with networkMirror writes the lock file `tflock providers lock -net-mirror` writes", async () => {
  for (const constraint of ["~> 1.0", "2.0.0"]) {
    const out = await tf.lock(options(constraint));
    assert.deepEqual(out.diagnostics.filter((d) => d.severity === "error"), [], constraint);
    const native = await cliLock({ constraint });
    assert.equal(native.code, 0, native.output);
    assert.equal(out.lockText, native.lock, constraint);
    // Every requested platform's h1: is the one the mirror lists (computed independently).
    const version = tf.selectVersion(constraint, ["1.0.0", "1.3.0", "2.0.0"]).version;
    assert.equal(out.lock.providers[0].version, version);
    for (const p of platforms) {
      const [h1] = mirror.hashes.get(`terraform-provider-demo_${version}_${p}.zip`);
      assert.ok(out.lock.providers[0].hashes.includes(h1), `${p} ${h1}`);
    }
  }
});

test("lock() with a cliConfig provider_installation routes the provider to the mirror", async () => {
  const viaOption = await tf.lock(options("~> 1.0"));
  const viaConfig = await tf.lock(options("~> 1.0", { networkMirror: undefined, cliConfig: installation() }));
  assert.deepEqual(viaConfig.diagnostics.filter((d) => d.severity === "error"), []);
  assert.equal(viaConfig.lockText, viaOption.lockText);
  // The native CLI's `providers mirror` honours the same config: it mirrors the same
  // version from our mirror, and its <version>.json lists the h1: lock() recorded.
  let mirrored;
  const native = await cliLock({
    constraint: "~> 1.0",
    viaConfig: true,
    inspect: (home) => {
      const f = join(home, "out", HOST, "acme", "demo", "1.3.0.json");
      mirrored = existsSync(f) ? JSON.parse(readFileSync(f, "utf8")) : null;
    },
  });
  assert.equal(native.code, 0, native.output);
  assert.ok(mirrored, native.output);
  const h1s = viaConfig.lock.providers[0].hashes.filter((h) => h.startsWith("h1:"));
  assert.equal(h1s.length, platforms.length);
  for (const p of platforms) {
    assert.ok(mirrored.archives[p].hashes.some((h) => h1s.includes(h)), `${p}: ${JSON.stringify(mirrored.archives[p])}`);
  }
});

test("a provider the mirror lacks fails with the CLI's text naming the mirror", async () => {
  const provider = `${HOST}/acme/nope`;
  const out = await tf.lock({ ...options(">= 1.0"), requirements: { [provider]: ">= 1.0" } });
  const err = out.diagnostics.find((d) => d.severity === "error");
  assert.ok(err, JSON.stringify(out.diagnostics));
  assert.match(err.detail, new RegExp(`provider ${provider.replaceAll(".", "\\.")} was not found in any of the search locations\\n\\n- provider mirror at ${mirror.base.replaceAll(".", "\\.")}`));
  assert.deepEqual(out.lock.providers, []);
  const native = await cliLock({ provider, constraint: ">= 1.0" });
  assert.notEqual(native.code, 0);
  const cliText = native.output.replace(/\s+/g, " ");
  assert.ok(cliText.includes(`provider ${provider} was not found in any of the search locations`), native.output);
  assert.ok(cliText.includes(`- provider mirror at ${mirror.base}`), native.output);
});

test("a version document served with the wrong content type is the CLI's query failure", async () => {
  const path = `${mirror.prefix}2.0.0.json`;
  const good = mirror.files.get(path);
  mirror.files.set(path, { ...good, type: "text/plain" });
  try {
    const out = await tf.lock(options("2.0.0"));
    const err = out.diagnostics.find((d) => d.severity === "error");
    assert.ok(err, JSON.stringify(out.diagnostics));
    const expected = `failed to query provider mirror ${mirror.base} for ${HOST}/acme/demo: response has invalid Content-Type: must be application/json`;
    assert.ok(err.detail.includes(expected), err.detail);
    const native = await cliLock({ constraint: "2.0.0" });
    assert.notEqual(native.code, 0);
    assert.ok(native.output.replace(/\s+/g, " ").includes(expected), native.output);
  } finally {
    mirror.files.set(path, good);
  }
});

test("networkMirror must be an https: URL", async () => {
  await assert.rejects(tf.lock(options("", { networkMirror: "http://127.0.0.1:9/" })), (e) => e.summary === "Invalid network mirror URL");
  await assert.rejects(
    tf.lock(options("", { networkMirror: undefined, cliConfig: 'provider_installation {\n  network_mirror {\n    url = "http://x/"\n  }\n}\n' })),
    (e) => /https/.test(e.message),
  );
});
