// The edge mirror Worker in workerd (Miniflare) with an in-memory R2 bucket: uploads are
// hashed as they stream and listed with the native CLI's h1:/zh:, documents and archives are
// served in the network mirror protocol, and the npm package locks through the Worker.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { zipOf, loadPackage } from "../../wasm/tests/helpers.mjs";
import { startMirror, cliHashes as hashesOf } from "./mirror.mjs";

const TOKEN = "test-upload-token";
const DIR = "/example.com/acme/demo/";
const name = (version, platform) => `terraform-provider-demo_${version}_${platform}.zip`;

let mf;
let work;
before(async () => {
  mf = startMirror({
    // example.com has no origin here: its packages arrive by upload only.
    bindings: { UPLOAD_TOKEN: TOKEN, TFLOCK_PRIVATE_HOSTS: "example.com" },
  });
  work = mkdtempSync(join(tmpdir(), "tflock-worker-"));
});
after(async () => {
  await mf?.dispose();
  rmSync(work, { recursive: true, force: true });
});

/** A provider-like zip; `size` bytes of pseudo-random content in the binary. */
function providerZip(seed, size) {
  const big = Buffer.alloc(size);
  let x = seed >>> 0;
  for (let i = 0; i + 4 <= size; i += 4) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    big.writeUInt32LE((i >> 6) % 3 === 0 ? x : 0x90909090, i);
  }
  return zipOf([
    ["terraform-provider-demo_v1.0.0", big, 8],
    ["LICENSE", Buffer.from("MPL-2.0\n"), 0],
  ]);
}

const cliHashes = (bytes) => hashesOf(work, bytes);

const put = (path, body, token = TOKEN) =>
  mf.dispatchFetch("http://localhost" + path, {
    method: "PUT",
    body,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
const get = (path) => mf.dispatchFetch("http://localhost" + path);

const zips = {
  linux_amd64: providerZip(1, 12 * 1024 * 1024 + 12345), // more than one 8 MiB upload part
  darwin_arm64: providerZip(2, 300_000),
};

test("uploads are hashed as they stream and listed in the mirror documents", async () => {
  for (const [platform, bytes] of Object.entries(zips)) {
    const r = await put(DIR + name("1.0.0", platform), bytes);
    assert.equal(r.status, 201, await r.clone().text());
    const body = await r.json();
    assert.deepEqual({ h1: body.h1, zh: body.zh }, cliHashes(bytes), platform);
  }
  const index = await get(DIR + "index.json");
  assert.equal(index.status, 200);
  assert.match(index.headers.get("content-type"), /^application\/json/);
  assert.deepEqual(await index.json(), { versions: { "1.0.0": {} } });
  const version = await (await get(DIR + "1.0.0.json")).json();
  assert.deepEqual(Object.keys(version.archives).sort(), ["darwin_arm64", "linux_amd64"]);
  for (const [platform, bytes] of Object.entries(zips)) {
    const { h1, zh } = cliHashes(bytes);
    assert.deepEqual(version.archives[platform], { url: name("1.0.0", platform), hashes: [h1, zh] });
    const zip = await get(DIR + name("1.0.0", platform));
    assert.equal(zip.status, 200);
    assert.equal(zip.headers.get("content-type"), "application/zip");
    assert.ok(Buffer.from(await zip.arrayBuffer()).equals(bytes), platform);
  }
});

test("uploads need the token, and an archive that cannot be hashed is not kept", async () => {
  const path = DIR + name("2.0.0", "linux_amd64");
  // Refused before the body is read: a small body, so the client is not cut off mid-send.
  assert.equal((await put(path, "PK", null)).status, 401);
  assert.equal((await put(path, "PK", "wrong")).status, 401);
  const truncated = zips.darwin_arm64.subarray(0, zips.darwin_arm64.length - 30);
  const r = await put(path, truncated);
  assert.equal(r.status, 422);
  assert.match(await r.text(), /^Cannot hash provider package: /);
  const bucket = await mf.getR2Bucket("MIRROR");
  assert.equal(await bucket.get(path.slice(1)), null);
  assert.equal((await get(DIR + "2.0.0.json")).status, 404);
  assert.deepEqual(await (await get(DIR + "index.json")).json(), { versions: { "1.0.0": {} } });
});

test("other paths and methods get 404 and 405", async () => {
  assert.equal((await get("/example.com/acme/demo/latest.json")).status, 404);
  assert.equal((await get("/nothing")).status, 404);
  assert.equal((await get("/example.com/acme/other/index.json")).status, 404);
  assert.equal((await put(DIR + "index.json", "{}")).status, 405);
});

test("the npm package locks every platform through the Worker as a network mirror", async () => {
  const tf = await loadPackage();
  const base = "https://mirror.test/";
  const out = await tf.lock({
    requirements: { "example.com/acme/demo": "1.0.0" },
    platforms: ["linux_amd64", "darwin_arm64"],
    networkMirror: base,
    fetch: (url, init) => mf.dispatchFetch(String(url).replace(base, "http://localhost/"), init),
  });
  assert.deepEqual(out.diagnostics.filter((d) => d.severity === "error"), []);
  const h1s = Object.values(zips).map((bytes) => cliHashes(bytes).h1).sort();
  assert.equal(
    out.lockText,
    '# This file is maintained automatically by "terraform init".\n' +
      "# Manual edits may be lost in future updates.\n\n" +
      'provider "example.com/acme/demo" {\n' +
      '  version     = "1.0.0"\n' +
      '  constraints = "1.0.0"\n' +
      "  hashes = [\n" +
      h1s.map((h) => `    "${h}",\n`).join("") +
      "  ]\n}\n",
  );
});

test("twenty concurrent uploads of different platforms are all listed with their own hashes", async () => {
  const platforms = Array.from({ length: 20 }, (_, i) => `os${String.fromCharCode(97 + i)}_arch${i}`);
  const bytes = Object.fromEntries(platforms.map((p, i) => [p, providerZip(100 + i, 20_000 + i * 997)]));
  const answers = await Promise.all(platforms.map((p) => put(DIR + name("3.0.0", p), bytes[p])));
  for (const [i, r] of answers.entries()) assert.equal(r.status, 201, `${platforms[i]}: ${await r.text()}`);
  // Every document update was a compare-and-swap: none of the twenty was lost.
  const version = await (await get(DIR + "3.0.0.json")).json();
  assert.deepEqual(Object.keys(version.archives).sort(), [...platforms].sort());
  for (const p of platforms) {
    const { h1, zh } = cliHashes(bytes[p]);
    assert.deepEqual(version.archives[p], { url: name("3.0.0", p), hashes: [h1, zh] }, p);
  }
  const index = await (await get(DIR + "index.json")).json();
  assert.ok("3.0.0" in index.versions, JSON.stringify(index));
});

test("two different uploads to one key at once: one 201, one 409, and the listing matches the kept bytes", async () => {
  for (let round = 0; round < 3; round++) {
    const path = DIR + name(`4.0.${round}`, "linux_amd64");
    const a = providerZip(200 + round, 2_000_000);
    const b = providerZip(300 + round, 2_000_000);
    const [ra, rb] = await Promise.all([put(path, a), put(path, b)]);
    const statuses = [ra.status, rb.status].sort();
    assert.deepEqual(statuses, [201, 409], `round ${round}: ${await ra.text()} / ${await rb.text()}`);
    const kept = Buffer.from(await (await get(path)).arrayBuffer());
    const winner = ra.status === 201 ? a : b;
    assert.ok(kept.equals(winner), `round ${round}: the stored bytes are not the 201 upload's`);
    const { h1, zh } = cliHashes(winner);
    const version = await (await get(DIR + `4.0.${round}.json`)).json();
    assert.deepEqual(version.archives.linux_amd64.hashes, [h1, zh], `round ${round}`);
    // The same bytes again are accepted as they are.
    assert.equal((await put(path, winner)).status, 200);
  }
});
