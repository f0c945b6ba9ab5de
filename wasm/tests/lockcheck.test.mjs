// checkLock against `tflock lockfile check --config`: the same configuration and lock give
// the same verdicts and the same diagnostics, in Terraform's words.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadPackage, runCli } from "./helpers.mjs";
import { assertType } from "./types.mjs";

const tf = await loadPackage();

const main = `terraform {
  required_providers {
    aws    = { source = "hashicorp/aws", version = "~> 5.0" }
    null   = { source = "hashicorp/null", version = ">= 3.0" }
    random = { source = "hashicorp/random" }
  }
}
`;
const lock = `provider "registry.terraform.io/hashicorp/aws" {
  version     = "5.1.0"
  constraints = "~> 5.0"
}

provider "registry.terraform.io/hashicorp/null" {
  version     = "2.1.0"
  constraints = ">= 2.0.0"
}

provider "registry.terraform.io/hashicorp/tls" {
  version = "4.0.0"
}
`;

test("checkLock gives the verdicts and texts of `tflock lockfile check --config`", () => {
  const got = tf.checkLock({ "main.tf": main }, lock);
  assertType(got, "LockCheck");
  assert.equal(got.consistent, false);
  assert.deepEqual(
    got.providers.map((p) => [p.provider, p.status, p.locked]),
    [
      ["registry.terraform.io/hashicorp/aws", "satisfied", "5.1.0"],
      ["registry.terraform.io/hashicorp/null", "unsatisfied", "2.1.0"],
      ["registry.terraform.io/hashicorp/random", "missing", null],
      ["registry.terraform.io/hashicorp/tls", "extra", "4.0.0"],
    ],
  );
  assert.match(got.diagnostics[0].detail, /random: required by this configuration but no version is selected/);

  const dir = mkdtempSync(join(tmpdir(), "tflock-checklock-"));
  writeFileSync(join(dir, "main.tf"), main);
  writeFileSync(join(dir, ".terraform.lock.hcl"), lock);
  const cli = runCli(["lockfile", "check", "--config", dir]);
  assert.equal(cli.status, 1, cli.stderr);
  // The CLI word-wraps details as Terraform does: compared with white space runs as one.
  const flat = (s) => s.replace(/\s+/g, " ");
  for (const d of got.diagnostics) {
    assert.ok(cli.stderr.includes(d.summary), `${d.summary} not in:\n${cli.stderr}`);
    assert.ok(flat(cli.stderr).includes(flat(d.detail)), `${d.detail} not in:\n${cli.stderr}`);
  }
  const lines = cli.stdout.trim().split("\n").map((l) => l.split(/\s+/).slice(0, 2));
  assert.deepEqual(lines, got.providers.map((p) => [p.status, p.provider]));

  const fine = tf.checkLock({ "main.tf": 'terraform {\n  required_providers {\n    aws = { source = "hashicorp/aws" }\n  }\n}\n' }, lock);
  assert.equal(fine.consistent, true);
  assert.deepEqual(fine.diagnostics.map((d) => [d.severity, d.summary]), [["warning", "Provider dependency changes detected"]]);
});
