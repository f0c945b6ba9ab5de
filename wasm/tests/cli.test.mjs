// `npx tflock` (the package's bin, wasm/npm/cli.js) against the native CLI: the same
// arguments in the same directory give the same stdout, stderr and exit status, on the
// shared fixtures (tests/fixtures/hash, lockfile, config), syntax errors included (the
// package is built with the core's `hclsyntax-diagnostics` feature, as the CLI is).
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, readdirSync, existsSync, mkdtempSync, writeFileSync, cpSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { root, pkgDir, fixtures, runCli, cli } from "./helpers.mjs";

const bin = fileURLToPath(new URL("cli.js", pkgDir));
const manifest = JSON.parse(readFileSync(new URL("package.json", pkgDir), "utf8"));
const work = mkdtempSync(join(tmpdir(), "tflock-bin-"));
after(() => rmSync(work, { recursive: true, force: true }));

function runBin(args, cwd = root) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: "utf8", cwd });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Runs both; asserts they agree: exit status, stdout and stderr. */
function same(args, cwd = root) {
  const want = runCli(args, { cwd });
  const got = runBin(args, cwd);
  const what = `tflock ${args.join(" ")} (in ${cwd})`;
  assert.equal(got.status, want.status, `${what}: exit status\nnative stderr: ${want.stderr}\nnpm stderr: ${got.stderr}`);
  assert.equal(got.stdout, want.stdout, `${what}: stdout`);
  assert.equal(got.stderr, want.stderr, `${what}: stderr`);
  return want;
}

test("the package declares the bin", () => {
  // `tflock-action` is the GitHub Action's entry (action.test.mjs).
  assert.deepEqual(manifest.bin, { tflock: "./cli.js", "tflock-action": "./action.js" });
  assert.ok(manifest.files.includes("cli.js"));
  assert.ok(readFileSync(bin, "utf8").startsWith("#!/usr/bin/env node\n"));
});

test("npm install of the packed package gives a working `npx tflock`", { timeout: 120_000 }, () => {
  const dir = join(work, "installed");
  const npm = (args, cwd) => {
    const r = spawnSync("npm", args, { cwd, encoding: "utf8" });
    assert.equal(r.status, 0, `npm ${args.join(" ")}: ${r.stderr}`);
    return r.stdout;
  };
  cpSync(fileURLToPath(pkgDir), join(work, "pkg"), { recursive: true });
  const tarball = npm(["pack", "--silent", "--pack-destination", work], join(work, "pkg")).trim().split("\n").pop();
  cpSync(fixtures + "lockfile/valid-terraform", dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "uses-tflock", private: true }));
  // The tarball has no dependencies: nothing is fetched from a registry.
  npm(["install", "--offline", "--no-audit", "--no-fund", join(work, tarball)], dir);
  for (const args of [["version"], ["lockfile", "fmt", "-check"], ["lockfile", "check"]]) {
    const got = spawnSync("npx", ["--offline", "tflock", ...args], { cwd: dir, encoding: "utf8" });
    const want = runCli(args, { cwd: dir });
    assert.deepEqual({ status: got.status, stdout: got.stdout, stderr: got.stderr }, want, args.join(" "));
  }
});

test("tflock hash: zips, several at once, --json, a directory, a missing file and a non-zip", () => {
  const zips = readdirSync(fixtures + "hash/samples").filter((n) => n.endsWith(".zip")).map((n) => `tests/fixtures/hash/samples/${n}`);
  assert.ok(zips.length >= 3);
  for (const z of zips) assert.equal(same(["hash", z]).status, 0);
  assert.equal(same(["hash", ...zips]).status, 0);
  assert.equal(same(["hash", "--json", ...zips]).status, 0);
  assert.equal(same(["hash", "-json", zips[0]]).status, 0);
  // An unpacked provider directory, with a nested file.
  const dir = join(work, "unpacked");
  cpSync(fixtures + "lockfile/valid-terraform", join(dir, "sub"), { recursive: true });
  writeFileSync(join(dir, "terraform-provider-x_v1.0.0"), "#!/bin/sh\n");
  assert.equal(same(["hash", dir]).status, 0);
  assert.equal(same(["hash", "tests/fixtures/hash/missing.zip"]).status, 1);
  assert.equal(same(["hash", zips[0], "tests/fixtures/hash/make_samples.py"]).status, 1);
});

const lockDir = fixtures + "lockfile/";
const lockFiles = readdirSync(lockDir)
  .sort()
  .flatMap((c) => [".terraform.lock.hcl", "old.terraform.lock.hcl", "new.terraform.lock.hcl"].map((f) => `tests/fixtures/lockfile/${c}/${f}`))
  .filter((p) => existsSync(root + p));

test("tflock lockfile fmt, fmt -check and check on every lock file fixture", () => {
  assert.ok(lockFiles.length >= 15);
  const statuses = new Set();
  for (const p of lockFiles) {
    statuses.add(same(["lockfile", "fmt", p]).status);
    statuses.add(same(["lockfile", "fmt", "-check", p]).status);
    same(["lockfile", "fmt", "--check", p]);
    same(["lockfile", "check", p]);
    same(["lockfile", "check", "--flavor", "opentofu", p]);
  }
  assert.deepEqual([...statuses].sort(), [0, 1, 2], "formatted, refused and not-canonical cases were all seen");
  same(["lockfile", "fmt", "tests/fixtures/lockfile/no-such/.terraform.lock.hcl"]);
  same(["lockfile", "check"], join(root, "tests/fixtures/lockfile/valid-terraform"));
});

test("tflock lockfile fmt -w rewrites the file as the native CLI does", () => {
  for (const p of lockFiles) {
    const a = join(work, "native.hcl");
    const b = join(work, "npm.hcl");
    cpSync(root + p, a);
    cpSync(root + p, b);
    const want = runCli(["lockfile", "fmt", "-w", a]);
    const got = runBin(["lockfile", "fmt", "-w", b]);
    assert.equal(got.status, want.status, p);
    assert.equal(readFileSync(b, "utf8"), readFileSync(a, "utf8"), p);
  }
});

test("tflock lockfile diff (text, --json, -exit-code) on the change fixtures", () => {
  const pairs = readdirSync(lockDir).filter((c) => existsSync(join(lockDir, c, "old.terraform.lock.hcl")));
  assert.ok(pairs.length >= 6);
  const statuses = new Set();
  for (const c of pairs) {
    const o = `tests/fixtures/lockfile/${c}/old.terraform.lock.hcl`;
    const n = `tests/fixtures/lockfile/${c}/new.terraform.lock.hcl`;
    same(["lockfile", "diff", o, n]);
    same(["lockfile", "diff", "--json", o, n]);
    statuses.add(same(["lockfile", "diff", "-exit-code", o, n]).status);
    statuses.add(same(["lockfile", "diff", "-exit-code", o, o]).status);
    same(["lockfile", "diff", n, o]);
  }
  assert.deepEqual([...statuses].sort(), [0, 2]);
  // A refused file on either side.
  const bad = lockFiles.find((p) => p.includes("invalid-versions"));
  assert.equal(same(["lockfile", "diff", bad, lockFiles[0]]).status, 1);
});

test("tflock merge on every configuration fixture", () => {
  const cases = readdirSync(fixtures + "config").filter((c) => existsSync(join(fixtures, "config", c, "input")));
  assert.ok(cases.length > 50);
  const statuses = new Set();
  for (const c of cases) {
    const args = ["merge", `tests/fixtures/config/${c}/input`];
    statuses.add(same(args).status);
    same(["merge", "--flavor", "opentofu", "."], join(fixtures, "config", c, "input"));
  }
  assert.deepEqual([...statuses].sort(), [0, 1]);
  same(["merge", "tests/fixtures/config/no-such-dir"]);
});

test("tflock version (text, -json, -v) reads the working directory's lock file", () => {
  for (const c of ["valid-terraform", "valid-opentofu", "invalid-versions", "empty"]) {
    const cwd = join(fixtures, "lockfile", c);
    same(["version"], cwd);
    same(["version", "-json"], cwd);
    same(["-v"], cwd);
    same(["-chdir=" + cwd, "version"]);
  }
});

test("without -flavor both pick the working directory's flavour and say so alike", () => {
  const dir = join(work, "flavour");
  cpSync(fixtures + "lockfile/valid-terraform", dir, { recursive: true });
  writeFileSync(join(dir, "main.tf"), 'resource "null_resource" "a" {}\n');
  writeFileSync(join(dir, "extra.tofu"), 'resource "null_resource" "b" {}\n');
  // A Terraform lock header with a .tofu file beside it: the header wins, the file is named.
  same(["lockfile", "fmt"], dir);
  same(["lockfile", "check"], dir);
  same(["merge"], dir);
  same(["merge", "-flavor=opentofu"], dir);
  // No lock file: the .tofu file decides.
  rmSync(join(dir, ".terraform.lock.hcl"));
  const r = same(["merge"], dir);
  assert.match(r.stderr, /extra\.tofu is OpenTofu configuration/);
  // TFLOCK_FLAVOR stands for -flavor in `merge`, as in the native CLI.
  const env = { ...process.env, TFLOCK_FLAVOR: "terraform" };
  const want = spawnSync(cli, ["merge"], { cwd: dir, env, encoding: "utf8" });
  const got = spawnSync(process.execPath, [bin, "merge"], { cwd: dir, env, encoding: "utf8" });
  assert.deepEqual([got.status, got.stdout, got.stderr], [want.status, want.stdout, want.stderr]);
  assert.ok(!want.stdout.includes('"b"'), "the .tofu file is ignored under Terraform's rules");
});

test("a bad -flavor and a bad -chdir are the native CLI's errors", () => {
  assert.equal(same(["merge", "--flavor=bogus", "tests/fixtures/config"]).status, 1);
  assert.equal(same(["lockfile", "fmt", "--flavor", "bogus", lockFiles[0]]).status, 1);
  assert.equal(same(["-chdir=/nonexistent-tflock-dir", "version"]).status, 1);
});

test("usage errors and unknown commands exit 1, as the native CLI's do", () => {
  for (const args of [["lockfile", "fmt", "-chek"], ["hash"], ["lockfile", "diff", "a"], ["lockfile"], ["nope"]]) {
    assert.equal(runBin(args).status, 1, args.join(" "));
    assert.equal(runCli(args).status, 1, args.join(" "));
  }
});
