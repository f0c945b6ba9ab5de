// Shared by the host tests (browser/, workerd/): the cases every host runs with the built
// package (run-cases.mjs), what the native CLI and the go-versions oracle say about the same
// inputs, and the comparison. Expectations never come from the package itself.
import assert from "node:assert/strict";
import { readFileSync, readdirSync, existsSync, mkdtempSync, writeFileSync, rmSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { root, fixtures, runCli, goVersionsOracle, zipOf, tools } from "./helpers.mjs";

export { tools };

/** Headless Chromium's flags for the host tests and benchmarks. */
const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

/** Headless Chromium (playwright-core) with a throw-away profile directory. */
export function launchChromium(chromium, profile) {
  return tools("playwright-core").chromium.launchPersistentContext(profile, {
    executablePath: chromium,
    headless: true,
    args: CHROMIUM_ARGS,
  });
}

/** Miniflare options for a module Worker `scriptPath` under `wasm/` importing the package. */
export function workerdOptions(scriptPath, serviceBindings) {
  return {
    modules: true,
    modulesRoot: root + "wasm",
    scriptPath,
    modulesRules: [
      { type: "ESModule", include: ["**/*.js", "**/*.mjs"] },
      { type: "CompiledWasm", include: ["**/*.wasm"] },
    ],
    compatibilityDate: "2025-09-01",
    cf: false,
    serviceBindings,
  };
}

/** The built package's manifest. */
export const manifest = JSON.parse(readFileSync(root + "wasm/pkg/package.json", "utf8"));

/** A zip of `size` bytes of provider-like content (deflate) plus a stored file. */
function generatedZip(size) {
  const big = Buffer.alloc(size);
  let x = 12345;
  for (let i = 0; i < size; i += 4) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    big.writeUInt32LE((i >> 6) % 3 === 0 ? x : 0x90909090, i);
  }
  const entries = [
    ["terraform-provider-hosts_v1.0.0", big, 8],
    ["LICENSE", Buffer.from("MPL-2.0\n"), 0],
  ];
  return zipOf(entries);
}

const CONSTRAINTS = ["~> 1.2", "~> 1.2.0", ">= 1.0, != 1.3.0", "1.4.0-beta", "< 1.0.0", ">= 5", "~>  1.0", "1.0.0.0", ""];
const VERSIONS = ["0.9.0", "1.0.0", "1.2.0", "1.2.5", "1.3.0", "1.4.0-beta", "1.4.0", "2.0.0"];

/**
 * The cases and the files behind them: `zips` maps each zip's URL path to its file
 * (the sample provider zips and an 8 MiB generated one, so a stream arrives in many chunks).
 */
export function makeCases() {
  const dir = mkdtempSync(join(tmpdir(), "tflock-hosts-"));
  const zipFiles = readdirSync(fixtures + "hash/samples/")
    .filter((n) => n.endsWith(".zip"))
    .sort()
    .map((n) => fixtures + "hash/samples/" + n);
  const big = join(dir, "terraform-provider-hosts_1.0.0_linux_amd64.zip");
  writeFileSync(big, generatedZip(8 * 1024 * 1024));
  zipFiles.push(big);
  const files = new Map(zipFiles.map((p) => ["/zips/" + p.split("/").pop(), p]));
  const locks = [];
  for (const c of readdirSync(fixtures + "lockfile/").sort()) {
    const p = join(fixtures, "lockfile", c, ".terraform.lock.hcl");
    if (existsSync(p)) locks.push({ name: p, text: readFileSync(p, "utf8") });
  }
  const cases = {
    zips: [...files.keys()].map((url) => ({ name: url.split("/").pop(), url })),
    locks,
    constraints: CONSTRAINTS,
    versions: VERSIONS,
  };
  return { cases, files, dir };
}

/** Asserts a host's results against the native CLI (hashes, lock files) and go-versions. */
export function checkResults(results, { cases, files }) {
  // Hashes: `tflock hash --json` on the same files.
  assert.equal(results.zips.length, cases.zips.length);
  for (const z of results.zips) {
    const r = runCli(["hash", "--json", files.get("/zips/" + z.name)]);
    assert.equal(r.status, 0, r.stderr);
    const [h] = JSON.parse(r.stdout).files;
    const want = { h1: h.h1, zh: h.zh };
    if (h.h1_archive !== h.h1) want.h1Archive = h.h1_archive;
    assert.deepEqual(z.streamed, want, `ZipHasher ${z.name}`);
    assert.deepEqual(z.whole, want, `hashZip ${z.name}`);
    assert.equal(z.bytesSeen, readFileSync(files.get("/zips/" + z.name)).length, z.name);
  }
  const big = results.zips.find((z) => z.name.includes("hosts"));
  // More than one chunk proves the hasher was fed as the body streamed. How many more depends
  // on how fast the page reads: on a loaded machine Chromium coalesces the paced 64 KiB writes
  // (4 chunks were seen with other builds running), so any larger floor is a timing test.
  assert.ok(big.chunks > 1, `the 8 MiB zip arrived in ${big.chunks} chunk(s); expected a real stream`);

  // Lock files: `tflock lockfile fmt` formats exactly what formatLock does, or fails with
  // the same error summaries.
  assert.equal(results.locks.length, cases.locks.length);
  let formatted = 0;
  for (const l of results.locks) {
    const r = runCli(["lockfile", "fmt", l.name]);
    if (r.status === 0) {
      assert.deepEqual(l.errors, [], l.name);
      assert.equal(l.formatted, r.stdout, l.name);
      for (const [p, v] of l.providers) assert.ok(r.stdout.includes(`provider "${p}"`) && r.stdout.includes(`"${v}"`), `${l.name}: ${p} ${v}`);
      formatted++;
    } else {
      assert.ok(l.errors.length > 0, `${l.name}: the CLI rejects it, the package did not`);
      for (const s of l.errors) assert.ok(r.stderr.includes(s), `${l.name}: ${s}`);
    }
  }
  assert.ok(formatted >= 2 && formatted < results.locks.length, `${formatted} of ${results.locks.length} lock files formatted`);

  // selectVersion: go-versions (the library Terraform uses) on the same inputs.
  const input = cases.constraints.map((c) => JSON.stringify({ k: "c", c, v: cases.versions })).join("\n") + "\n";
  const want = execFileSync(goVersionsOracle(), { input, encoding: "utf8" }).trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(results.selections.length, want.length);
  let picked = 0;
  let rejected = 0;
  results.selections.forEach((s, i) => {
    const w = want[i];
    if (w.panic) return;
    if (w.ok) {
      assert.equal(s.error, undefined, JSON.stringify(s));
      assert.equal(s.version, w.pick === "none" ? null : w.pick, JSON.stringify(s.constraint));
      picked++;
    } else {
      assert.deepEqual(s.error, { isError: true, summary: "Invalid version constraint", detail: w.err }, JSON.stringify(s.constraint));
      rejected++;
    }
  });
  assert.ok(picked >= 5 && rejected >= 1, `${picked} picked, ${rejected} rejected`);

  // The second module's planner refuses a platform as the native CLI does.
  const empty = mkdtempSync(join(tmpdir(), "tflock-hosts-platform-"));
  const cliPlatform = runCli(["providers", "lock", "-platform=nope"], { cwd: empty });
  rmSync(empty, { recursive: true, force: true });
  assert.equal(results.planner.isError, true, JSON.stringify(results.planner));
  // The CLI word-wraps details as Terraform does: compared with white space runs as one.
  const flat = (s) => s.replace(/\s+/g, " ");
  assert.ok(flat(cliPlatform.stderr).includes(flat(`Error: ${results.planner.summary}\n\n${results.planner.detail}`)), `${JSON.stringify(results.planner)} vs ${cliPlatform.stderr}`);

  for (const [f, e] of Object.entries(results.errors)) {
    assert.equal(e.isError, true, `${f} must throw an Error: ${JSON.stringify(e)}`);
    assert.equal(e.summary, "Cannot hash provider package", f);
  }
}
