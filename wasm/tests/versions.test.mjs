// parseConstraints / canonicalConstraints / selectVersion against the go-versions oracle
// (tests/oracles/goversions, the real Go library) on the shared edge-case constraints.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { loadPackage, fixtures, goVersionsOracle } from "./helpers.mjs";

const tf = await loadPackage();
const edge = JSON.parse(readFileSync(fixtures + "versions/edge_constraints/constraints.json", "utf8"));
const more = ["~> 1.2, >= 1.0", "~> 1.2.0", ">= 1.0, != 1.3.0", "1.4.0-beta", "~> 2.0", "< 1.0.0", ">= 0.0.0"];
const candidates = ["0.9.0", "1.0.0", "1.2.0", "1.2.5", "1.3.0", "1.4.0-beta", "1.4.0", "2.0.0", "2.1.0+meta"];

function oracle(cases) {
  const input = cases.map((c) => JSON.stringify({ k: "c", c, v: candidates })).join("\n") + "\n";
  const out = execFileSync(goVersionsOracle(), { input, encoding: "utf8" });
  return out.trim().split("\n").map((l) => JSON.parse(l));
}

test("constraint parsing accepts and rejects what go-versions does, with its messages", () => {
  const cases = [...edge, ...more];
  const want = oracle(cases);
  let accepted = 0;
  cases.forEach((c, i) => {
    const w = want[i];
    if (w.panic) return; // Terraform would crash; the oracle README lists these.
    if (w.ok) {
      accepted++;
      const parsed = tf.parseConstraints(c);
      assert.equal(parsed.selections.length, (w.specs ?? []).length, JSON.stringify(c));
      assert.equal(tf.canonicalConstraints(c), parsed.canonical);
    } else {
      assert.throws(() => tf.parseConstraints(c), (e) => {
        assert.ok(e instanceof Error, JSON.stringify(c));
        assert.equal(e.summary, "Invalid version constraint");
        assert.equal(e.detail, w.err, JSON.stringify(c));
        return true;
      });
    }
  });
  assert.ok(accepted > 10);
});

test("selectVersion picks what go-versions' NewestInSet picks", () => {
  const cases = [...edge, ...more];
  const want = oracle(cases);
  let compared = 0;
  cases.forEach((c, i) => {
    const w = want[i];
    if (!w.ok) return;
    const got = tf.selectVersion(c, candidates);
    assert.equal(got.version, w.pick === "none" ? null : w.pick, JSON.stringify(c));
    compared++;
  });
  assert.ok(compared > 10);
});

test("selectVersion explains rejected newer versions and reports no match as null", () => {
  const s = tf.selectVersion("~> 1.2.0", ["1.2.0", "1.2.7", "1.3.0", "not-a-version"]);
  assert.equal(s.version, "1.2.7");
  assert.deepEqual(s.rejected.map((r) => r.version), ["1.3.0"]);
  assert.equal(s.rejected[0].reasons.length, 1);
  assert.match(s.explanation, /1\.3\.0/);
  assert.deepEqual(s.invalidVersions, ["not-a-version"]);
  const none = tf.selectVersion(">= 5", ["1.0.0"]);
  assert.equal(none.version, null);
  assert.match(none.explanation, /^no available releases match the given constraints >= 5\.0\.0/);
  assert.throws(() => tf.selectVersion("~>  1.0", ["1.0.0"]), (e) => e.summary === "Invalid version constraint");
  assert.throws(() => tf.parseConstraints("1.0", { flavor: "nope" }), (e) => e.summary === "Invalid argument");
});
