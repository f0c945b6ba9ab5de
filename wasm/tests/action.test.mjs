// The GitHub Action (action.yml) run as the runner runs it: its composite step's script,
// which runs the package's `tflock-action` bin with npx (here the `npm pack` tarball of the
// build in place of the registry's), with `INPUT_*` variables and GITHUB_OUTPUT /
// GITHUB_STEP_SUMMARY files, against the loopback registry. Its lock file must be the one `tflock providers lock`
// writes on the same module, and its Markdown the change `lockfile diff` describes.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, rmSync, cpSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { root, pkgDir, cli } from "./helpers.mjs";
import { startRegistry } from "./registry.mjs";

const run = promisify(execFile);
const HOST = "registry.example.com";
const DEMO = `${HOST}/acme/demo`;
const platforms = ["linux_amd64", "darwin_arm64"];
let reg;
let home;

let tarball;
let npmCache;

before(async () => {
  reg = await startRegistry({ versions: ["1.0.0", "1.2.0"], platforms: [...platforms, "windows_amd64"] });
  home = mkdtempSync(join(tmpdir(), "tflock-action-"));
  // The package as it would be published: `npm pack` of the build.
  npmCache = join(home, "npm-cache");
  const packed = await run("npm", ["pack", "--pack-destination", home, fileURLToPath(pkgDir)], { env: { ...process.env, npm_config_cache: npmCache } });
  tarball = join(home, packed.stdout.trim().split("\n").pop());
  writeFileSync(join(home, "cli.tfrc"), `host "${HOST}" {\n  services = {\n    "providers.v1" = "${reg.providersUrl}"\n  }\n}\n`);
});
after(async () => {
  await reg.close();
  rmSync(reg.dir, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

const requires = (constraint) => `terraform {\n  required_providers {\n    demo = {\n      source  = "${DEMO}"\n      version = "${constraint}"\n    }\n  }\n}\n`;

/** A root module requiring acme/demo at `constraint` (and `child` in a local module). */
function module(name, constraint, child) {
  const dir = join(home, name);
  mkdirSync(join(dir, "modules", "child"), { recursive: true });
  writeFileSync(join(dir, "main.tf"), requires(constraint) + (child ? `module "child" {\n  source = "./modules/child"\n}\n` : ""));
  if (child) writeFileSync(join(dir, "modules", "child", "main.tf"), requires(child));
  return dir;
}

const env = () => {
  const e = { ...process.env, HOME: home, TF_CLI_CONFIG_FILE: join(home, "cli.tfrc"), TFLOCK_CACHE_DIR: join(home, "cache") };
  delete e.TF_PLUGIN_CACHE_DIR;
  delete e.TFLOCK_FLAVOR;
  return e;
};

/** GITHUB_OUTPUT's `name<<DELIMITER` blocks as an object. */
function outputs(file) {
  const text = readFileSync(file, "utf8");
  return Object.fromEntries([...text.matchAll(/^([\w-]+)<<(\S+)\n([\s\S]*?)\n\2\n/gm)].map((m) => [m[1], m[3]]));
}

/**
 * action.yml's parts the runner reads: each input's default, and the one step's `env` and
 * `run` script (the file is ours, so this reads its layout rather than all of YAML).
 */
function actionMeta() {
  const meta = readFileSync(join(root, "action.yml"), "utf8");
  const section = (name, indent) => {
    const lines = meta.split("\n");
    const at = lines.findIndex((l) => l === `${" ".repeat(indent - 2)}${name}`);
    assert.ok(at >= 0, `action.yml has ${name}`);
    const body = [];
    for (const l of lines.slice(at + 1)) {
      if (l.trim() !== "" && !l.startsWith(" ".repeat(indent))) break;
      body.push(l.slice(indent));
    }
    return body;
  };
  const defaults = {};
  let current;
  for (const l of section("inputs:", 2)) {
    if (/^[\w-]+:$/.test(l)) current = l.slice(0, -1);
    const d = /^  default: "?(.*?)"?$/.exec(l);
    if (d) defaults[current] = d[1];
  }
  const env = Object.fromEntries(section("env:", 8).filter((l) => l.trim()).map((l) => /^([\w-]+): (.*)$/.exec(l).slice(1)));
  const script = section("run: |", 8).join("\n");
  return { meta, defaults, env, script };
}

/** `${{ inputs.x }}` and `${{ github.action_path }}` as the runner expands them. */
const expand = (text, inputs) =>
  text.replace(/\$\{\{ *(inputs\.([\w-]+)|github\.action_path) *\}\}/g, (_, all, name) => (name ? (inputs[name] ?? "") : root));

/**
 * Runs action.yml's step as the runner does — its `run` script under `bash -eo pipefail`
 * with its `env`, `GITHUB_OUTPUT` and `GITHUB_STEP_SUMMARY` — with `package` the tarball of
 * the built package instead of the registry's; returns { code, stdout, outputs, summary }.
 */
async function action(inputs) {
  const { defaults, env: stepEnv, script } = actionMeta();
  const given = { ...defaults, package: tarball, ...inputs };
  const files = mkdtempSync(join(home, "github-"));
  const e = {
    ...env(),
    GITHUB_ACTIONS: "true",
    GITHUB_WORKSPACE: root,
    GITHUB_ACTION_PATH: root,
    GITHUB_OUTPUT: join(files, "output"),
    GITHUB_STEP_SUMMARY: join(files, "summary"),
    npm_config_cache: npmCache,
    npm_config_update_notifier: "false",
    npm_config_fund: "false",
    npm_config_audit: "false",
  };
  // Not the test runner's child: npx's node would report to it instead of running.
  delete e.NODE_TEST_CONTEXT;
  for (const [k, v] of Object.entries(stepEnv)) e[k] = expand(v, given);
  writeFileSync(e.GITHUB_OUTPUT, "");
  writeFileSync(e.GITHUB_STEP_SUMMARY, "");
  writeFileSync(join(files, "step.sh"), expand(script, given));
  const r = await run("bash", ["--noprofile", "--norc", "-eo", "pipefail", join(files, "step.sh")], { cwd: root, env: e }).catch((x) => x);
  return { code: r.code ?? 0, stdout: r.stdout, stderr: r.stderr, outputs: outputs(e.GITHUB_OUTPUT), summary: readFileSync(e.GITHUB_STEP_SUMMARY, "utf8") };
}

/** `tflock providers lock` on a copy of `dir`; returns the lock file it writes. */
async function nativeLock(dir) {
  const copy = mkdtempSync(join(home, "native-"));
  cpSync(dir, copy, { recursive: true });
  const r = await run(cli, ["providers", "lock", ...platforms.map((p) => `-platform=${p}`)], { cwd: copy, env: env() }).catch((x) => x);
  assert.equal(r.code ?? 0, 0, `${r.stdout}${r.stderr}`);
  return readFileSync(join(copy, ".terraform.lock.hcl"), "utf8");
}

test("action.yml is a composite action running the package's tflock-action bin at its own version, nothing built", () => {
  const { meta, env: stepEnv, script } = actionMeta();
  assert.match(meta, /^  using: composite$/m);
  // The version is the checkout's package.json, which git has at every tag.
  assert.match(script, /wasm\/npm\/package\.json/);
  assert.match(script, /npx --yes --package="\$\{TFLOCK_PACKAGE:-tflock@\$version\}" -- tflock-action/);
  const manifest = JSON.parse(readFileSync(fileURLToPath(new URL("package.json", pkgDir)), "utf8"));
  assert.equal(manifest.bin["tflock-action"], "./action.js");
  const entry = readFileSync(fileURLToPath(new URL("action.js", pkgDir)), "utf8");
  assert.ok(entry.startsWith("#!/usr/bin/env node\n"));
  // Every input reaches the entry as the INPUT_* variable it reads, every output comes from it.
  for (const name of [...meta.matchAll(/^  ([\w-]+):\n    description/gm)].map((m) => m[1])) {
    if (["changed", "diff", "lock-file"].includes(name)) {
      assert.match(entry, new RegExp(`setOutput\\("${name}"`), name);
      assert.match(meta, new RegExp(`value: \\$\\{\\{ steps\\.tflock\\.outputs\\.${name} \\}\\}`), name);
    } else if (name !== "package") {
      assert.match(entry, new RegExp(`input\\("${name}"\\)`), name);
      assert.equal(stepEnv[`INPUT_${name.toUpperCase().replaceAll("-", "_")}`], `\${{ inputs.${name} }}`, name);
    }
  }
});

test("mode lock writes the lock file tflock providers lock writes for a module tree, and the change as Markdown", async () => {
  const dir = module("lock", "~> 1.0", ">= 1.2.0");
  const r = await action({ platforms: platforms.join(", "), "working-directory": dir });
  assert.equal(r.code, 0, r.stdout);
  assert.equal(readFileSync(join(dir, ".terraform.lock.hcl"), "utf8"), await nativeLock(module("lock-native", "~> 1.0", ">= 1.2.0")));
  assert.equal(r.outputs.changed, "true");
  assert.equal(r.outputs["lock-file"], join(dir, ".terraform.lock.hcl"));
  const title = `### Provider lock changes in \`${dir}\` (linux_amd64, darwin_arm64)`;
  assert.equal(
    r.outputs.diff,
    `${title}\n\n| Provider | Change |\n|---|---|\n| \`${DEMO}\` | new provider, version 1.2.0 (constraints "~> 1.0, >= 1.2.0"), 5 checksums (2 h1:, 3 zh:) |\n`,
  );
  assert.equal(r.summary, r.outputs.diff + "\n");
  // Run again: nothing to change.
  const again = await action({ platforms: platforms.join("\n"), "working-directory": dir, mode: "check" });
  assert.equal(again.code, 0, again.stdout);
  assert.equal(again.outputs.changed, "false");
  assert.match(again.outputs.diff, /No changes\./);
});

test("mode check fails on a lock file missing a platform, and leaves it as it is", async () => {
  const dir = module("check", "~> 1.0");
  assert.equal((await action({ platforms: "linux_amd64", "working-directory": dir })).code, 0);
  const before = readFileSync(join(dir, ".terraform.lock.hcl"), "utf8");
  const r = await action({ platforms: platforms.join(","), "working-directory": dir, mode: "check" });
  assert.equal(r.code, 1);
  assert.match(r.stdout, /^::error title=Dependency lock file out of date::.*-platform=darwin_arm64/m);
  assert.equal(r.outputs.changed, "true");
  assert.match(r.outputs.diff, /\| 1 new checksum \(h1:\) for the same version \|/);
  assert.equal(readFileSync(join(dir, ".terraform.lock.hcl"), "utf8"), before);
});

test("a configuration error is an annotation with its file and line, and exit 1", async () => {
  const dir = module("bad", "~> 1.0");
  // A second required_providers block: Terraform's error, located in versions.tf.
  writeFileSync(join(dir, "versions.tf"), 'terraform {\n  required_providers {\n    other = { source = "acme/other" }\n  }\n}\n');
  const r = await action({ platforms: "linux_amd64", "working-directory": dir });
  assert.equal(r.code, 1);
  assert.match(r.stdout, /^::error file=versions\.tf,line=2,title=Duplicate required providers configuration::A module may have only one/m);
  assert.ok(!existsSync(join(dir, ".terraform.lock.hcl")));
});
