// types.d.ts declares what the bindings return (the planner's outcome is checked in
// planner.test.mjs, against a registry): each function on a small input, checked field by
// field against its declared type.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { loadPackage, fixtures } from "./helpers.mjs";
import { assertType } from "./types.mjs";

const tf = await loadPackage();
const zip = readdirSync(fixtures + "hash/samples/").find((n) => n.endsWith(".zip"));

const oldLock = `provider "registry.terraform.io/hashicorp/aws" {
  version     = "5.0.0"
  constraints = "~> 5.0"
  hashes = [
    "h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
  ]
}
`;
const newLock = oldLock.replace(/5\.0\.0/, "5.1.0");

test("hashing, versions, lock files and modules return the shapes types.d.ts declares", () => {
  assertType(tf.hashZip(readFileSync(fixtures + "hash/samples/" + zip)), "ZipHashes");
  assertType(tf.parseConstraints("~> 1.2, != 1.2.5"), "ParsedConstraints");
  assertType(tf.selectVersion(">= 1.0", ["0.9.0", "1.0.0", "1.1.0-beta"]), "Selected");
  const parsed = tf.parseLock(oldLock);
  assertType(parsed, "ParsedLock");
  assertType(tf.parseLock("provider {"), "ParsedLock");
  assertType(tf.diffLock(oldLock, newLock), "LockDiff");
  assertType(tf.mergeLock(oldLock, oldLock, newLock), "MergedLock");
  const module = tf.loadModule({
    "main.tf": 'terraform {\n  required_providers {\n    aws = { source = "hashicorp/aws", version = "~> 5.0" }\n  }\n}\nresource "aws_s3_bucket" "b" {}\n',
    "override.tf": 'resource "aws_s3_bucket" "b" {\n  bucket = "x"\n}\n',
  });
  assertType(module, "LoadedModule");
  assert.ok(module.requirements.providers.length > 0);
});
