// The playground (web/dist, served by `cargo xtask playground-test`) in headless Chromium:
// every output is compared with what the native CLI prints for the same input.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { inflateRawSync } from "node:zlib";
import { root, PLAYGROUND as URL, cli, dirWith, launch, openPlayground, shot, textWhen as waitText } from "./page.mjs";

const SAMPLES = root + "web/src/samples/";
const ZIPS = root + "tests/fixtures/hash/samples/";

/** The sample configuration as the page is preloaded with it. */
function sampleConfig() {
  const files = {};
  for (const name of readdirSync(SAMPLES + "config")) files[name] = readFileSync(SAMPLES + "config/" + name, "utf8");
  return files;
}

/** `Error: <summary>\n\n  on <file> line <n>` blocks of the CLI's stderr. */
function cliErrors(stderr) {
  return [...stderr.matchAll(/^(Error|Warning): (.*)\n\n  on (\S+) line (\d+)/gm)].map((m) => ({
    severity: m[1].toLowerCase(),
    summary: m[2],
    at: `${m[3]}:${m[4]}`,
  }));
}

let browser, page;
const consoleErrors = [];

before(async () => {
  browser = await launch();
  page = await openPlayground(browser, consoleErrors);
});

after(async () => {
  if (page && process.env.SCREENSHOT) {
    await page.screenshot({ path: process.env.SCREENSHOT, fullPage: true });
    for (const id of await page.locator("section.panel").evaluateAll((ss) => ss.map((s) => s.id))) {
      await page.locator(`#${id}`).screenshot({ path: shot(id) });
    }
  }
  await browser?.close();
});

/** Text of `selector`, waiting until `ok(text)` holds. */
const textWhen = (selector, ok, timeout) => waitText(page, selector, ok, timeout);

test("sample merge equals `tflock merge` and shows the override's value", async () => {
  const dir = dirWith(sampleConfig());
  const expected = cli(["merge", dir]);
  assert.equal(expected.status, 0, expected.stderr);
  const merged = await page.locator("#merged").textContent();
  assert.equal(merged, expected.stdout);
  assert.match(merged, /region = "us-east-1"/);
  assert.match(merged, /force_destroy = true/);
  assert.equal(await page.locator("#config-diagnostics").textContent(), "No diagnostics.");
});

test("requirements equal `tflock providers` and `merge --requirements --json`", async () => {
  const dir = dirWith(sampleConfig());
  const tree = cli(["providers"], { cwd: dir });
  assert.equal(tree.status, 0, tree.stderr);
  assert.equal(await page.locator("#tree").textContent(), tree.stdout.replace("\nProviders required by configuration:\n", ""));
  const json = JSON.parse(cli(["merge", "--requirements", "--json", dir]).stdout);
  const rows = await page.locator("#requirements tbody tr").evaluateAll((trs) =>
    trs.map((tr) => ({
      provider: tr.querySelector(".provider").textContent,
      constraints: tr.querySelector(".constraints").textContent,
      origins: [...tr.querySelectorAll(".origins .location")].map((l) => l.textContent),
    })),
  );
  assert.deepEqual(
    rows,
    json.providers.map((p) => ({
      provider: p.provider,
      constraints: p.constraints,
      origins: p.origins.map((o) => `${o.range.filename}:${o.range.start.line}:${o.range.start.column}`),
    })),
  );
  assert.deepEqual(
    rows.map((r) => `${r.provider} ${r.constraints}`.trim()),
    ["registry.terraform.io/hashicorp/aws ~> 5.0", "registry.terraform.io/hashicorp/null", "registry.terraform.io/hashicorp/random ~> 3.6"],
  );
});

/** Change records as text, from `tflock merge --json`'s `changes`. */
function cliChanges(json) {
  return json.changes.map((c) => ({
    file: c.file,
    changes: c.changes.map((ch) =>
      [ch.kind, ch.block, ch.path, ch.range ? `${ch.range.filename}:${ch.range.start.line}` : "", ch.previous ? `${ch.previous.text} ${ch.previous.range.filename}:${ch.previous.range.start.line}` : ""].join(" | "),
    ),
  }));
}

/** The same records as the page lists them under "What each override changed". */
async function pageChanges(p = page) {
  return p.locator("#override-changes .override-file").evaluateAll((divs) =>
    divs.map((d) => ({
      file: d.dataset.file,
      changes: [...d.querySelectorAll("li.change")].map((li) =>
        [
          li.querySelector(".kind").textContent,
          li.dataset.block,
          li.dataset.path,
          li.querySelector(".at").textContent,
          li.querySelector(".previous") ? `${li.querySelector(".previous").textContent} ${li.querySelector(".from").textContent}` : "",
        ].join(" | "),
      ),
    })),
  );
}

test("what each override changed: the page lists `tflock merge --json`'s change records and highlights their lines", async () => {
  const json = JSON.parse(cli(["merge", "--json", dirWith(sampleConfig())]).stdout);
  const want = cliChanges(json);
  assert.deepEqual(await pageChanges(), want);
  assert.ok(want[0].changes.some((c) => c.startsWith('replaced | provider.aws | region | main_override.tf:12 | "eu-west-1" main.tf:17')), JSON.stringify(want));
  // Every line the CLI places a final change on is highlighted with that change's kind (or
  // an enclosing one), and no other line is.
  const lines = await page.locator("#merged .line").evaluateAll((ls) => ls.map((l) => ({ cls: l.className, title: l.title, text: l.textContent })));
  assert.equal(lines.map((l) => l.text).join(""), json.merged);
  const marked = new Set();
  for (const ch of json.changes.flatMap((c) => c.changes)) {
    if (!ch.merged_lines) continue;
    for (let i = ch.merged_lines[0]; i <= ch.merged_lines[1]; i++) {
      marked.add(i);
      assert.match(lines[i - 1].cls, /\b(replaced|added)\b/, `line ${i} ${lines[i - 1].text}`);
    }
  }
  lines.forEach((l, i) => marked.has(i + 1) || assert.equal(l.cls, "line", `line ${i + 1} ${l.text}`));
  const region = lines.find((l) => l.text.includes('region = "us-east-1"'));
  assert.match(region.title, /replaced by main_override\.tf:12; was "eu-west-1" \(main\.tf:17\)/);
});

test("every line of the merged module says where it comes from, as `tflock merge --json`'s provenance", async () => {
  const json = JSON.parse(cli(["merge", "--json", dirWith(sampleConfig())]).stdout);
  // The innermost record covering a line wins (records come outer first, in render order).
  const want = json.merged.split(/(?<=\n)/).map(() => "");
  for (const p of json.provenance) {
    if (!p.merged_lines) continue;
    for (let i = p.merged_lines[0]; i <= p.merged_lines[1]; i++) want[i - 1] = `${p.file}:${p.range.start.line}`;
  }
  const lines = await page.locator("#merged .line").evaluateAll((ls) => ls.map((l) => ({ text: l.textContent, from: l.dataset.from, label: l.dataset.label })));
  assert.deepEqual(lines.map((l) => l.from), want);
  // Every line but the blank ones between blocks has a source; the gutter labels each
  // record's first line.
  lines.forEach((l, i) => l.text.trim() === "" || assert.notEqual(l.from, "", `line ${i + 1} ${l.text}`));
  const starts = new Set(json.provenance.filter((p) => p.merged_lines).map((p) => p.merged_lines[0]));
  lines.forEach((l, i) => assert.equal(l.label, starts.has(i + 1) && want[i] !== "" ? l.from : "", `line ${i + 1}`));
  const region = lines.find((l) => l.text.includes('region = "us-east-1"'));
  assert.equal(region.from, "main_override.tf:12");
});

test("two override files: the summary follows the merge order and the later file wins", async () => {
  const files = { ...sampleConfig(), "z_override.tf": 'provider "aws" {\n  region = "ap-south-1"\n}\n' };
  const json = JSON.parse(cli(["merge", "--json", dirWith(files)]).stdout);
  await page.click("#add-file");
  const extra = page.locator(".file").last();
  await extra.locator("input.name").fill("z_override.tf");
  await extra.locator("textarea").fill(files["z_override.tf"]);
  await textWhen("#merged", (t) => t === json.merged);
  assert.deepEqual(await pageChanges(), cliChanges(json));
  assert.deepEqual(json.changes.map((c) => c.file), ["main_override.tf", "z_override.tf"]);
  // main_override.tf's region is no longer what the module holds; z_override.tf's is.
  const region = (f) => json.changes.find((c) => c.file === f).changes.find((c) => c.path === "region");
  assert.equal(region("main_override.tf").merged_lines, null);
  assert.equal(region("z_override.tf").previous.text, '"us-east-1"');
  await page.screenshot({ path: shot("override-changes"), fullPage: false, clip: await page.locator("#config .outputs").boundingBox() }).catch(() => {});
  await extra.locator("button.remove").click();
  await textWhen("#merged", (t) => t.includes('region = "us-east-1"'));
});

/** The state a share link carries, decoded independently of the page's code. */
function linkState(url) {
  const frag = new globalThis.URL(url).hash; // the file's URL constant shadows the constructor
  assert.ok(frag.startsWith("#s="), url);
  return JSON.parse(inflateRawSync(Buffer.from(frag.slice(3), "base64url")).toString("utf8"));
}

test("share link: the fragment holds files, lock and flavour; a new tab, reload and back/forward restore them", async () => {
  await page.waitForFunction(() => location.hash.startsWith("#s="));
  const state = linkState(page.url());
  assert.deepEqual(Object.fromEntries(state.files), sampleConfig());
  assert.equal(state.lock, readFileSync(SAMPLES + "terraform.lock.hcl", "utf8"));
  assert.equal(state.flavor, "terraform");
  const sampleUrl = page.url();

  const override = page.locator(".file").nth(1);
  const original = await override.locator("textarea").inputValue();
  const edited = original.replace('region = "us-east-1"', 'region = "us-west-2"');
  await override.locator("textarea").fill(edited);
  await page.selectOption("#flavor", "opentofu");
  await page.waitForFunction(() => location.hash.startsWith("#s=") && document.querySelector("#merged").textContent.includes("us-west-2"));
  await page.waitForFunction((u) => location.href !== u, sampleUrl);
  const editedUrl = page.url();
  assert.equal(linkState(editedUrl).flavor, "opentofu");
  const want = cli(["merge", dirWith({ ...sampleConfig(), "main_override.tf": edited })]).stdout;

  const other = await browser.newPage();
  try {
    await other.goto(editedUrl);
    await other.waitForFunction((w) => document.querySelector("#merged")?.textContent === w, want, { timeout: 30000 });
    assert.equal(await other.locator("#flavor").inputValue(), "opentofu");
    await other.reload();
    await other.waitForFunction((w) => document.querySelector("#merged")?.textContent === w, want, { timeout: 30000 });
    await other.goto(sampleUrl);
    await other.waitForFunction(() => document.querySelector("#merged").textContent.includes('region = "us-east-1"'));
    assert.equal(await other.locator("#flavor").inputValue(), "terraform");
    await other.goBack();
    await other.waitForFunction((w) => document.querySelector("#merged").textContent === w, want);
    await other.goForward();
    await other.waitForFunction(() => document.querySelector("#merged").textContent.includes('region = "us-east-1"'));
    await other.goto(URL + "#s=not-a-state");
    await other.waitForFunction(() => !document.querySelector("#link-error").hidden);
    assert.match(await other.locator("#link-error").textContent(), /This link could not be opened/);
  } finally {
    await other.close();
  }
  await override.locator("textarea").fill(original);
  await page.selectOption("#flavor", "terraform");
  await textWhen("#merged", (t) => t.includes('region = "us-east-1"'));
});

test("the flavour switch gives OpenTofu's addresses, as `tflock providers --flavor opentofu`", async () => {
  const dir = dirWith(sampleConfig());
  const tree = cli(["providers", "--flavor", "opentofu"], { cwd: dir });
  assert.equal(tree.status, 0, tree.stderr);
  await page.selectOption("#flavor", "opentofu");
  const expected = tree.stdout.replace("\nProviders required by configuration:\n", "");
  await textWhen("#tree", (t) => t === expected);
  await page.selectOption("#flavor", "terraform");
  await textWhen("#tree", (t) => t.includes("registry.terraform.io"));
});

test("editing a file reports the CLI's diagnostic live, with file:line:col", async () => {
  const override = page.locator(".file").nth(1);
  assert.equal(await override.locator("input.name").inputValue(), "main_override.tf");
  const original = await override.locator("textarea").inputValue();
  const broken = original.replace('region = "us-east-1"', "region = ");
  const files = { ...sampleConfig(), "main_override.tf": broken };
  const expected = JSON.parse(cli(["merge", "--json", dirWith(files)]).stdout).diagnostics;
  assert.ok(expected.length > 0);
  await override.locator("textarea").fill(broken);
  const want = expected.map((d) => `${d.severity} ${d.range.filename}:${d.range.start.line}:${d.range.start.column} ${d.summary}`);
  const got = async () =>
    page.locator("#config-diagnostics li").evaluateAll((lis) =>
      lis.map((li) => `${li.querySelector(".severity").textContent} ${li.querySelector(".location").textContent} ${li.querySelector(".summary").textContent}`),
    );
  const end = Date.now() + 10000;
  while (JSON.stringify(await got()) !== JSON.stringify(want) && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(await got(), want);
  await override.locator("textarea").fill(original);
  await textWhen("#config-diagnostics", (t) => t === "No diagnostics.");
});

/** `h1:`/`zh:` lines `tflock hash` prints for one file. */
function cliHashes(path) {
  const r = cli(["hash", path]);
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim().split("\n");
}

/** The hashes a row shows, in the CLI's order (h1, zh, archive-form h1 when present). */
async function rowHashes(name) {
  const row = page.locator(`.hash-row[data-name="${name}"]`).first();
  await row.locator(".h1").waitFor({ timeout: 30000 });
  const hashes = [await row.locator(".h1").textContent(), await row.locator(".zh").textContent()];
  if (await row.locator(".h1-archive").count()) hashes.push(await row.locator(".h1-archive").textContent());
  const progress = await row.locator("progress").evaluate((p) => [p.value, p.max]);
  return { hashes, progress };
}

test("hashing the sample zips shows exactly what `tflock hash` prints", async () => {
  await page.click("#hash-sample");
  for (const name of ["terraform-provider-null_2.1.0_linux_amd64.zip", "terraform-provider-layout_0.2.0_darwin_arm64.zip"]) {
    const { hashes, progress } = await rowHashes(name);
    assert.deepEqual(hashes, cliHashes(ZIPS + name), name);
    assert.equal(progress[0], progress[1], `${name}: progress bar full`);
    assert.equal(progress[1], readFileSync(ZIPS + name).length);
  }
});

test("a picked file is streamed and hashed like `tflock hash`", async () => {
  const name = "terraform-provider-acme_1.0.0_linux_amd64.zip";
  await page.setInputFiles("#zip-input", ZIPS + name);
  const { hashes, progress } = await rowHashes(name);
  assert.deepEqual(hashes, cliHashes(ZIPS + name));
  assert.equal(progress[0], readFileSync(ZIPS + name).length);
});

test("the sample lock formats like `tflock lockfile fmt`; hashed zips give coverage", async () => {
  const dir = dirWith({ ".terraform.lock.hcl": readFileSync(SAMPLES + "terraform.lock.hcl", "utf8") });
  const fmt = cli(["lockfile", "fmt"], { cwd: dir });
  assert.equal(fmt.status, 0, fmt.stderr);
  await page.click("#lock-sample");
  assert.equal(await textWhen("#lock-formatted", (t) => t.length > 0), fmt.stdout);
  assert.equal(await page.locator("#lock-differs").textContent(), "differs from the input");
  // The null sample zip (linux_amd64) was hashed above: its recorded h1: is now attributed.
  const null_ = page.locator("#coverage tbody tr", { hasText: "hashicorp/null" });
  assert.equal(await null_.locator(".covered").textContent(), "linux_amd64");
  assert.equal(await null_.locator(".missing").textContent(), "darwin_arm64");
  assert.equal(await null_.locator(".h1-count").textContent(), "1");
  assert.equal(await null_.locator(".zh-count").textContent(), "1");
});

test("a broken lock shows the CLI's errors with their lines", async () => {
  const broken = readFileSync(SAMPLES + "terraform.lock.hcl", "utf8").replace('version     = "5.31.0"', 'version     = "five"');
  const dir = dirWith({ ".terraform.lock.hcl": broken });
  const check = cli(["lockfile", "check"], { cwd: dir });
  assert.equal(check.status, 1);
  const expected = cliErrors(check.stderr);
  assert.ok(expected.length > 0, check.stderr);
  assert.ok(expected.every((e) => e.at === ".terraform.lock.hcl:13"), JSON.stringify(expected));
  await page.locator("#lock-input").fill(broken);
  await textWhen("#lock-differs", (t) => t === "not formatted: the file has errors");
  const got = await page.locator("#lock-diagnostics li").evaluateAll((lis) =>
    lis.map((li) => ({
      severity: li.querySelector(".severity").textContent,
      summary: li.querySelector(".summary").textContent,
      at: li.querySelector(".location").textContent.split(":").slice(0, 2).join(":"),
    })),
  );
  assert.deepEqual(got, expected);
  await page.click("#lock-sample");
});

test("the lock preview names the provider the lock lacks", async () => {
  await textWhen("#preview-table", (t) => t.includes("hashicorp/random"));
  const rows = await page.locator("#preview-table tbody tr").evaluateAll((trs) =>
    trs.map((tr) => [tr.className, tr.querySelector(".provider").textContent]),
  );
  assert.deepEqual(rows, [
    ["locked", "registry.terraform.io/hashicorp/aws"],
    ["locked", "registry.terraform.io/hashicorp/null"],
    ["missing", "registry.terraform.io/hashicorp/random"],
  ]);
  assert.deepEqual(consoleErrors, []);
});
