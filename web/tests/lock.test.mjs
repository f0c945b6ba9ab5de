// Panel 5, the Lock action, in headless Chromium: the page runs the npm package's lock() host
// through the browser's fetch against the edge mirror Worker (worker/dev.mjs over HTTPS, in
// front of a loopback origin registry whose SHA256SUMS GnuPG signs) and against that registry
// directly, and every result is compared with `tflock providers lock` against the same origins.
// Environment (set by xtask): EDGE_CA, EDGE_CERT, EDGE_KEY besides page.mjs's.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { get as httpsGet } from "node:https";
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deflateRawSync, inflateRawSync } from "node:zlib";
import { root, PLAYGROUND, cli, dirWith, launch, openPlayground, shot, textWhen } from "./page.mjs";
import { startRegistry } from "../../wasm/tests/registry.mjs";

const HOST = "registry.test";
const PROVIDER = `${HOST}/acme/demo`;
const PLATFORMS = ["darwin_arm64", "linux_amd64", "windows_amd64"];
const WANTED = ["linux_amd64", "darwin_arm64"];
const CA = process.env.EDGE_CA;

let browser, page, origin, edge, mirror, home;
const consoleErrors = [];

/** A module requiring the demo provider at `constraint`. */
const mainTf = (constraint) =>
  `terraform {\n  required_providers {\n    demo = {\n      source  = "${PROVIDER}"\n      version = "${constraint}"\n    }\n  }\n}\n`;

/** The CLI config that points registry.test at the loopback origin. */
const hostBlock = () => `host "${HOST}" {\n  services = {\n    "providers.v1" = "${origin.providersUrl}"\n  }\n}\n`;

/** Starts worker/dev.mjs over HTTPS with the dev certificate; resolves to its base URL. */
function startEdge(cliConfigPath) {
  const child = spawn(
    "node",
    [root + "worker/dev.mjs", "--port", "0", "--https", "--cert", process.env.EDGE_CERT, "--key", process.env.EDGE_KEY, "--cli-config", cliConfigPath, "--var", `TFLOCK_ALLOWED_HOSTS=${new URL(origin.base).host}`],
    { cwd: root, stdio: ["ignore", "pipe", "pipe"] },
  );
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line) resolve({ child, url: JSON.parse(line).url });
    });
    child.on("exit", (code) => reject(new Error(`worker/dev.mjs exited with ${code}: ${stderr}`)));
  });
}

/** GET over HTTPS trusting the dev CA → parsed JSON. */
function getJson(url) {
  return new Promise((resolve, reject) => {
    httpsGet(url, { ca: readFileSync(CA) }, (res) => {
      let body = "";
      res.on("data", (d) => (body += d));
      res.on("end", () => (res.statusCode === 200 ? resolve(JSON.parse(body)) : reject(new Error(`${url}: ${res.statusCode} ${body}`))));
    }).on("error", reject);
  });
}

/**
 * `tflock providers lock` in a folder with `files`; `args` picks the source. Async: the
 * origin registry is served from this process. Returns { status, stdout, stderr, lock }.
 */
async function cliLock(files, args, platforms = WANTED) {
  const dir = dirWith(files);
  const env = { ...process.env, HOME: home, SSL_CERT_FILE: CA, TF_CLI_CONFIG_FILE: join(home, "cli.tfrc"), TFLOCK_CACHE_DIR: join(home, "cache") };
  delete env.TF_PLUGIN_CACHE_DIR;
  delete env.TFLOCK_FLAVOR;
  const r = await new Promise((resolve) => {
    const child = spawn(process.env.TFLOCK_BIN ?? root + "target/debug/tflock", ["providers", "lock", "--no-hash-cache", ...platforms.map((p) => `--platform=${p}`), ...args], { cwd: dir, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("exit", (status) => resolve({ status, stdout, stderr }));
  });
  let lock = null;
  try {
    lock = readFileSync(join(dir, ".terraform.lock.hcl"), "utf8");
  } catch {}
  return { ...r, lock, dir };
}

/** Opens the page on a share link holding `files` and `lock` (the page's own format). */
async function showState(files, lock, platforms = WANTED.join(" ")) {
  const state = { files: Object.entries(files), lock, flavor: "terraform", platforms };
  const data = deflateRawSync(Buffer.from(JSON.stringify(state))).toString("base64url");
  // A full load (not a same-document fragment change) so nothing of the last view lingers.
  await page.goto("about:blank");
  await page.goto(PLAYGROUND + "#s=" + data);
  await page.waitForFunction((l) => document.querySelector("#lock-input")?.value === l, lock, { timeout: 30000 });
}

/** Runs the Lock action with `kind` and `url`; resolves to the final state ("done"/"failed"). */
async function runLock(kind, url) {
  await page.selectOption("#remote-lock-kind", kind);
  if (kind !== "origin") await page.fill("#remote-lock-url", url);
  await page.click("#remote-lock-run");
  await page.waitForFunction(() => ["done", "failed"].includes(document.querySelector("#remote-lock-status").dataset.state), null, { timeout: 60000 });
  return page.locator("#remote-lock-status").getAttribute("data-state");
}

/** The page's diagnostics: { severity, summary, detail }. */
const pageDiagnostics = () =>
  page.locator("#remote-lock-diagnostics li").evaluateAll((lis) =>
    lis.map((li) => ({ severity: li.querySelector(".severity").textContent, summary: li.querySelector(".summary").textContent, detail: li.querySelector(".detail").textContent })),
  );

before(async () => {
  home = mkdtempSync(join(tmpdir(), "tflock-playground-lock-"));
  origin = await startRegistry({ versions: ["1.0.0", "1.1.0", "1.2.0"], platforms: PLATFORMS });
  writeFileSync(join(home, "cli.tfrc"), hostBlock());
  ({ child: edge, url: mirror } = await startEdge(join(home, "cli.tfrc")));
  // Warm the mirror: its queue adds every platform's h1: in the background, so wait until
  // the listing is final; otherwise the page and the CLI could see different listings.
  for (const v of ["1.0.0", "1.2.0"]) {
    for (let i = 0; ; i++) {
      const doc = await getJson(`${mirror}${PROVIDER}/${v}.json`);
      if (PLATFORMS.every((p) => doc.archives[p]?.hashes.length === 2)) break;
      assert.ok(i < 300, `the mirror never listed every h1: of ${v}: ${JSON.stringify(doc)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  browser = await launch();
  page = await openPlayground(browser, consoleErrors);
});

after(async () => {
  await browser?.close();
  edge?.kill("SIGTERM");
  await origin?.close();
  rmSync(origin?.dir ?? "", { recursive: true, force: true });
  rmSync(home ?? "", { recursive: true, force: true });
});

test("Lock through the edge mirror writes the lock and the change `tflock providers lock -net-mirror` writes", async () => {
  // Panel 3 holds an older lock (1.0.0 pinned, one platform) made by the CLI through the same
  // mirror; the module now allows ">= 1.0", so the run keeps 1.0.0 and adds darwin_arm64.
  const previous = await cliLock({ "main.tf": mainTf("1.0.0") }, [`--net-mirror=${mirror}`], ["linux_amd64"]);
  assert.equal(previous.status, 0, previous.stderr);
  const files = { "main.tf": mainTf(">= 1.0") };
  const want = await cliLock({ ...files, ".terraform.lock.hcl": previous.lock }, [`--net-mirror=${mirror}`]);
  assert.equal(want.status, 0, want.stderr);
  assert.notEqual(want.lock, previous.lock);

  await showState(files, previous.lock);
  assert.equal(await runLock("mirror", mirror), "done", JSON.stringify(await pageDiagnostics()));
  assert.equal(await page.locator("#remote-lock-text").textContent(), want.lock);
  // The change from panel 3's lock is what `tflock lockfile diff` prints for the same pair.
  writeFileSync(join(home, "old.hcl"), previous.lock);
  writeFileSync(join(home, "new.hcl"), want.lock);
  const diff = cli(["lockfile", "diff", join(home, "old.hcl"), join(home, "new.hcl")]);
  assert.equal(await page.locator("#remote-lock-diff").textContent(), diff.stdout);
  // One progress row per wanted platform's package, each complete at the zip's size.
  const rows = await page.locator("#remote-lock-packages li").evaluateAll((lis) =>
    lis.map((li) => ({ label: li.querySelector("code").textContent, done: li.dataset.done, value: li.querySelector("progress").value, max: li.querySelector("progress").max })),
  );
  assert.deepEqual(
    rows.map((r) => r.label).sort(),
    WANTED.map((p) => `${PROVIDER} 1.0.0 ${p}`).sort(),
  );
  for (const r of rows) {
    const size = origin.zips.get(`terraform-provider-demo_1.0.0_${r.label.split(" ")[2]}.zip`).length;
    assert.deepEqual([r.done, r.value, r.max], ["true", size, size], r.label);
  }
  assert.match(await page.locator("#remote-lock-progress").textContent(), /registry\.test\/acme\/demo/);
  await page.locator("#remote-lock").screenshot({ path: shot("remote-lock-result") });

  // "Use as panel 3's lock" hands the text over; the next run then changes nothing.
  await page.click("#remote-lock-use");
  await page.waitForFunction((l) => document.querySelector("#lock-input").value === l, want.lock);
  assert.equal(await runLock("mirror", mirror), "done");
  assert.equal(await page.locator("#remote-lock-diff").textContent(), cli(["lockfile", "diff", join(home, "new.hcl"), join(home, "new.hcl")]).stdout);
  // The source is remembered in this browser (localStorage), not in the link.
  await page.reload();
  await page.waitForFunction(() => document.querySelector("#merged")?.textContent.length > 0);
  assert.equal(await page.locator("#remote-lock-url").inputValue(), mirror);
  assert.equal(await page.locator("#remote-lock-kind").inputValue(), "mirror");
  const link = JSON.parse(inflateRawSync(Buffer.from(new URL(page.url()).hash.slice(3), "base64url")).toString("utf8"));
  assert.ok(!JSON.stringify(link).includes(mirror), JSON.stringify(link));
});

test("Lock against the registry itself verifies the signed SHA256SUMS and matches the CLI", async () => {
  const files = { "main.tf": mainTf("1.1.0") };
  const want = await cliLock(files, []);
  assert.equal(want.status, 0, want.stderr);
  await showState(files, "");
  assert.equal(await runLock("registry", origin.providersUrl), "done", JSON.stringify(await pageDiagnostics()));
  assert.equal(await page.locator("#remote-lock-text").textContent(), want.lock);
  // The messages name the signing key as the CLI's do.
  const messages = await page.locator("#remote-lock-messages").textContent();
  assert.ok(messages.includes(origin.keyId), messages);
  for (const line of messages.split("\n").filter((l) => l.includes("Obtained") || l.includes("signed"))) {
    assert.ok(want.stdout.includes(line.trim()), `${line}\nnot in the CLI's output:\n${want.stdout}`);
  }
});

test("a tampered signature, a missing platform and an unreachable mirror are errors the user can act on", async () => {
  // A forged SHA256SUMS.sig for 1.0.0: both refuse it with the same diagnostic.
  const sig = `/releases/demo/1.0.0/SHA256SUMS.sig`;
  const good = origin.files.get(sig);
  const forged = Buffer.from(good);
  forged[forged.length - 5] ^= 0xff;
  origin.files.set(sig, forged);
  try {
    const files = { "main.tf": mainTf("1.0.0") };
    const want = await cliLock(files, []);
    assert.notEqual(want.status, 0);
    await showState(files, "");
    assert.equal(await runLock("registry", origin.providersUrl), "failed");
    const [d] = await pageDiagnostics();
    assert.equal(d.severity, "error");
    assert.ok(want.stderr.includes(d.summary), `${d.summary}\nnot in:\n${want.stderr}`);
    assert.match(d.detail, /signature/i);
  } finally {
    origin.files.set(sig, good);
  }

  // A platform the provider is not built for.
  const files = { "main.tf": mainTf("1.2.0") };
  await showState(files, "", "linux_amd64 freebsd_arm");
  assert.equal(await runLock("mirror", mirror), "failed");
  const [missing] = await pageDiagnostics();
  assert.match(`${missing.summary} ${missing.detail}`, /freebsd_arm/);
  const dir = dirWith(files);
  const cliMissing = cli(["providers", "lock", "--no-hash-cache", "--platform=linux_amd64", "--platform=freebsd_arm", `--net-mirror=${mirror}`], { cwd: dir, env: { ...process.env, HOME: home, SSL_CERT_FILE: CA } });
  assert.notEqual(cliMissing.status, 0);
  assert.ok(cliMissing.stderr.includes(missing.summary), `${missing.summary}\nnot in:\n${cliMissing.stderr}`);

  // Nothing listening: the browser only says "Failed to fetch"; the page says what to check.
  await showState(files, "");
  assert.equal(await runLock("mirror", "https://127.0.0.1:9/"), "failed");
  const [down] = await pageDiagnostics();
  assert.match(down.detail, /request to https:\/\/127\.0\.0\.1:9\/registry\.test\/acme\/demo\/index\.json failed: Failed to fetch/);
  assert.match(down.detail, /unreachable, its TLS certificate is not trusted, or it does not allow this origin by CORS/);

  // Settings the run cannot start with are refused before any request.
  await page.selectOption("#remote-lock-kind", "mirror");
  await page.fill("#remote-lock-url", "http://127.0.0.1:9/");
  await page.click("#remote-lock-run");
  assert.match(await textWhen(page, "#remote-lock-error", (t) => t.length > 0), /network mirror option requires a valid https: URL/);
  assert.deepEqual(consoleErrors.filter((e) => !e.includes("Failed to load resource") && !e.includes("ERR_CONNECTION_REFUSED")), []);
});
