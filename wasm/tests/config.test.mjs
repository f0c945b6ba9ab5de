// loadModule against `tflock merge --json` / `merge --requirements --json` on every config
// fixture, and against the fixtures' committed merged.hcl.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { join } from "node:path";
import { loadPackage, runCli, fixtures, camelKeys } from "./helpers.mjs";

const tf = await loadPackage();
const dir = fixtures + "config/";
const cases = readdirSync(dir).filter((c) => existsSync(join(dir, c, "input"))).sort();

function inputFiles(c) {
  const input = join(dir, c, "input");
  return readdirSync(input).map((name) => ({ name, content: readFileSync(join(input, name)) }));
}

function flavorOf(c) {
  const f = join(dir, c, "flavor");
  return existsSync(f) ? readFileSync(f, "utf8").trim() : "terraform";
}

// The CLI prints JSON diagnostics without `file`; the package adds it from the range.
const withFile = (ds) => ds.map((d) => ({ ...d, file: d.range ? d.range.filename : null }));

test("loadModule equals `tflock merge --json` on every config fixture", () => {
  assert.ok(cases.length > 50);
  for (const c of cases) {
    const flavor = flavorOf(c);
    const r = runCli(["merge", "--json", "--flavor", flavor, join(dir, c, "input")]);
    const want = camelKeys(JSON.parse(r.stdout));
    const got = tf.loadModule(inputFiles(c), { flavor });
    assert.equal(got.merged, want.merged, c);
    assert.deepEqual(got.files, want.files, c);
    // The CLI adds each record's lines in the merged text; the npm package leaves the line
    // counting out (core's provenance_with_lines), so compare the rest.
    assert.deepEqual(got.provenance, want.provenance.map(({ mergedLines, ...rest }) => rest), c);
    assert.deepEqual(got.diagnostics, withFile(want.diagnostics), c);
    const merged = join(dir, c, "merged.hcl");
    if (existsSync(merged)) assert.equal(got.merged, readFileSync(merged, "utf8"), c);
  }
});

test("loadModule requirements equal `tflock merge --requirements --json` where the module loads", () => {
  let n = 0;
  for (const c of cases) {
    const flavor = flavorOf(c);
    const r = runCli(["merge", "--requirements", "--json", "--flavor", flavor, join(dir, c, "input")]);
    if (r.status !== 0) continue;
    const want = camelKeys(JSON.parse(r.stdout));
    const loaded = tf.loadModule(inputFiles(c), { flavor });
    const got = loaded.requirements;
    assert.deepEqual(got.providers, want.providers, c);
    assert.deepEqual(got.diagnostics, withFile(want.diagnostics), c);
    n++;
  }
  assert.ok(n > 20, `${n} compared`);
});

test("loadModule takes an object of texts too", () => {
  const m = tf.loadModule({
    "main.tf": 'terraform {\n  required_providers {\n    aws = { source = "hashicorp/aws", version = "~> 5.0" }\n  }\n}\n',
    "main_override.tf": 'terraform {\n  required_providers {\n    aws = { source = "hashicorp/aws", version = ">= 5.1" }\n  }\n}\n',
  });
  assert.deepEqual(m.files.overrides, ["main_override.tf"]);
  const aws = m.requirements.providers[0];
  assert.equal(aws.provider, "registry.terraform.io/hashicorp/aws");
  assert.equal(aws.constraints, ">= 5.1.0");
  assert.equal(aws.origins[0].localName, "aws");
  assert.throws(() => tf.loadModule(42), (e) => e.summary === "Invalid argument");
});
