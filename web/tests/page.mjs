// Shared by the playground's browser tests: the CLI, temporary module folders, headless
// Chromium on the served playground, screenshots and waiting for the view.
// Environment: PLAYGROUND_URL, TFLOCK_BIN, CHROMIUM, SCREENSHOT (set by xtask).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "../../");
export const tools = createRequire(root + "wasm/tools/package.json");
const { chromium } = tools("playwright-core");

export const PLAYGROUND = process.env.PLAYGROUND_URL ?? "http://127.0.0.1:8080/";
export const TFLOCK = process.env.TFLOCK_BIN ?? root + "target/debug/tflock";

/** Runs the CLI; returns { status, stdout, stderr }. */
export function cli(args, opts = {}) {
  const r = spawnSync(TFLOCK, args, { encoding: "utf8", ...opts });
  if (r.error) throw r.error;
  return r;
}

/** A temporary directory holding `files` ({ path: content }, paths may have folders). */
export function dirWith(files) {
  const dir = mkdtempSync(join(tmpdir(), "tflock-playground-"));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  return dir;
}

/**
 * Headless Chromium. It trusts any certificate: the Lock tests' mirror is a loopback HTTPS
 * server with the dev CA, which this browser profile does not know.
 */
export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--ignore-certificate-errors",
    ],
  });
}

/** A new page on the playground, waiting for the first analysis; console errors collected. */
export async function openPlayground(browser, consoleErrors, url = PLAYGROUND) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.on("console", (m) => m.type() === "error" && consoleErrors.push(m.text()));
  page.on("pageerror", (e) => consoleErrors.push(String(e)));
  await page.goto(url);
  await page.waitForFunction(() => document.querySelector("#merged")?.textContent.length > 0, null, { timeout: 30000 });
  return page;
}

/** Where a screenshot goes: beside $SCREENSHOT (in the git-ignored target dir). */
export function shot(name) {
  const base = process.env.SCREENSHOT ?? join(tmpdir(), "playground.png");
  return base.replace(/\.png$/, `-${name}.png`);
}

/** Text of `selector` on `page`, waiting until `ok(text)` holds (the view updates asynchronously). */
export async function textWhen(page, selector, ok, timeout = 15000) {
  const loc = page.locator(selector).first();
  const end = Date.now() + timeout;
  let text;
  for (;;) {
    text = (await loc.count()) ? await loc.textContent() : null;
    if (text !== null && ok(text)) return text;
    if (Date.now() > end) assert.fail(`${selector}: timed out; last text ${JSON.stringify(text)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
