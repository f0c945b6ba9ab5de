// A request for an archive that another isolate is pulling (or uploading) streams it from the
// origin itself instead of checking R2 until the other writer is done (core::edge::wait): its
// first bytes come while the writer still holds its lease, the bytes are hashed as they pass
// and the answer completes only if they are the ones the signed SHA256SUMS names; nothing of
// it is stored. Another isolate's writer is played by the test: it holds the archive's lease
// (`_tflock/lease/<key>`, renewed just now) in the bucket. The Worker's bucket calls are
// counted (counted-entry.mjs), so a polling loop would show.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { randomBytes } from "node:crypto";
import { root } from "../../wasm/tests/helpers.mjs";
import { pointDownloadsAt, startMirror, streamGet } from "./mirror.mjs";
import { startRegistry, storedZip, demoZip } from "../../wasm/tests/registry.mjs";

const HOST = "waiters.test";
const MiB = 1024 * 1024;
const DIR = `/${HOST}/acme/demo/`;
const zipName = (v, p) => `terraform-provider-demo_${v}_${p}.zip`;
const keyOf = (name) => `${HOST}/acme/demo/${name}`;

let mf;
let url;
let bucket;
let registry;
let front;
let gate; // { reached: Promise, open() }: the front server stops half-way through a big zip
const swapped = new Map(); // archive name -> other bytes the front server sends instead
const served = new Map(); // archive name -> how many times the front server was asked for it

const big = (v) => storedZip([[`terraform-provider-demo_v${v}`, randomBytes(4 * MiB)], ["LICENSE", "MPL-2.0\n"]]);

function newGate() {
  let reached, open;
  const g = { reached: new Promise((r) => (reached = r)), opened: new Promise((r) => (open = r)) };
  g.reach = reached;
  g.open = open;
  return g;
}

before(async () => {
  registry = await startRegistry({
    versions: ["1.0.0", "2.0.0", "3.0.0", "4.0.0"],
    platforms: ["linux_amd64"],
    zip: (v, p) => (v === "4.0.0" ? demoZip(v, p) : big(v)),
  });
  front = createServer(async (req, res) => {
    const name = req.url.split("/").pop();
    const body = swapped.get(name) ?? registry.files.get(req.url);
    if (!body) return res.writeHead(404).end("not found");
    if (!req.url.endsWith(".zip")) return res.writeHead(200, { "content-type": "application/json" }).end(body);
    served.set(name, (served.get(name) ?? 0) + 1);
    res.writeHead(200, { "content-type": "application/zip", "content-length": body.length });
    const half = Math.floor(body.length / 2);
    res.write(body.subarray(0, half));
    if (gate && body.length > MiB) {
      gate.reach();
      await gate.opened;
    }
    res.end(body.subarray(half));
  });
  await new Promise((r) => front.listen(0, "127.0.0.1", r));
  const at = `127.0.0.1:${front.address().port}`;
  pointDownloadsAt(registry, at);
  mf = startMirror({
    scriptPath: root + "worker/tests/counted-entry.mjs",
    bindings: {
      UPLOAD_TOKEN: "t",
      TFLOCK_CLI_CONFIG: `host "${HOST}" {\n  services = {\n    "providers.v1" = "http://${at}/v1/providers/"\n  }\n}\n`,
      TFLOCK_ALLOWED_HOSTS: at,
    },
    unsafeDirectSockets: [{ host: "127.0.0.1", port: 0 }],
  });
  url = await mf.unsafeGetDirectURL();
  bucket = await mf.getR2Bucket("MIRROR");
});

after(async () => {
  gate?.open();
  await mf?.dispose();
  await registry?.close();
  front?.closeAllConnections();
  await new Promise((r) => (front ? front.close(r) : r()));
});

/** GET `path` from the Worker (see `streamGet`). */
const get = (path) => streamGet(url, path);

/** `promise`, or a failure naming `what` after `ms`. */
function within(ms, what, promise) {
  let timer;
  const late = new Promise((_, fail) => (timer = setTimeout(() => fail(new Error(`${what}: not within ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

/** The Worker's bucket calls since the last look. */
async function r2Ops() {
  return JSON.parse(await (await fetch(new URL("/_test/r2-ops", url))).text());
}

/** Another isolate's writer of `name`: its lease, renewed now. */
async function otherWriter(name) {
  await bucket.put(`_tflock/lease/${keyOf(name)}`, "", { customMetadata: { "taken-at": String(Date.now()) } });
}

/** The version's document, filled (so the archive's request finds the origin record). */
async function filled(version) {
  const r = await fetch(new URL(`${DIR}${version}.json`, url));
  assert.equal(r.status, 200, await r.text());
}

/** What a waiter must not leave: the archive, an upload, a claim. */
async function nothingStored(name) {
  assert.equal(await bucket.head(keyOf(name)), null, "the waiter stored the archive");
  assert.deepEqual((await bucket.list({ prefix: "_tflock/uploads/" })).objects, [], "an upload was begun");
  assert.equal(await bucket.head(`_tflock/hashes/${keyOf(name)}`), null, "the key was claimed");
}

test("a waiter in another isolate streams the archive from the origin before the writer finishes, gets exactly the verified bytes, polls no R2 and stores nothing", async (t) => {
  gate = newGate();
  const name = zipName("1.0.0", "linux_amd64");
  const zip = registry.zips.get(name);
  await filled("1.0.0");
  await otherWriter(name);
  await r2Ops(); // from here on: the waiter's calls only
  const r = await within(10_000, "the waiter's answer", get(DIR + name));
  assert.equal(r.res.statusCode, 200);
  assert.equal(r.res.headers["cache-control"], "no-store");
  assert.equal(Number(r.res.headers["content-length"]), zip.length, "the origin's length goes out");
  await within(10_000, "the waiter's first byte", r.firstBytes);
  await gate.reached;
  // The other writer still holds its lease and the origin is held half-way: the bytes came
  // from the waiter's own origin read.
  assert.ok(r.received() > 0 && r.received() <= zip.length / 2, `received ${r.received()} of ${zip.length}`);
  // Long enough for a polling loop to show (the old backoff: 5 checks in 3 s).
  await sleep(3_000);
  const ops = await r2Ops();
  t.diagnostic(`the waiter's bucket calls: ${JSON.stringify(ops)}`);
  const checks = ops.filter(([op, key]) => key === keyOf(name));
  assert.ok(checks.length <= 1, `the archive's key was asked for ${checks.length} times: ${JSON.stringify(ops)}`);
  assert.ok(ops.length <= 6, `${ops.length} bucket calls: ${JSON.stringify(ops)}`);
  assert.deepEqual(
    ops.filter(([op, key]) => ["put", "delete", "createMultipartUpload"].includes(op) && !key.startsWith("_tflock/lease/")),
    [],
    "the waiter wrote something",
  );
  gate.open();
  const { bytes, error } = await r.body;
  assert.equal(error, undefined);
  assert.ok(bytes.equals(zip), "other bytes");
  assert.equal(served.get(name), 1, "one origin read: the waiter's");
  await nothingStored(name);
  const lease = await bucket.head(`_tflock/lease/${keyOf(name)}`);
  assert.ok(lease, "the other writer's lease was taken from it");
});

test("tampered origin bytes reach a waiter only as a broken body, short of its length, and nothing is stored", async () => {
  gate = null;
  const name = zipName("2.0.0", "linux_amd64");
  const zip = registry.zips.get(name);
  await filled("2.0.0");
  swapped.set(name, big("2.0.0")); // same size, other bytes: SHA256SUMS does not sign them
  await otherWriter(name);
  const r = await within(10_000, "the waiter's answer", get(DIR + name));
  assert.equal(r.res.statusCode, 200, "streamed");
  const { bytes, error, got } = await within(20_000, "the waiter's body", r.body);
  assert.equal(bytes, undefined, "the client got a complete body");
  assert.ok(error, "no error");
  assert.ok(got < zip.length, `received ${got} of ${zip.length}`);
  await nothingStored(name);
  assert.ok(await bucket.head(`_tflock/lease/${keyOf(name)}`), "the other writer's lease was taken from it");
});

test("one pass-through per archive and isolate: a second waiter waits for the stored copy, the origin is read once", async () => {
  gate = newGate();
  const name = zipName("3.0.0", "linux_amd64");
  const zip = registry.zips.get(name);
  await filled("3.0.0");
  await otherWriter(name);
  const first = await within(10_000, "the first waiter's answer", get(DIR + name));
  await within(10_000, "the first waiter's first byte", first.firstBytes);
  await gate.reached;
  const second = get(DIR + name);
  await sleep(1_000);
  assert.equal(served.get(name), 1, "the second waiter read the origin too");
  gate.open();
  assert.ok((await first.body).bytes.equals(zip));
  // The other writer finishes: its archive lands and its lease goes.
  await bucket.put(keyOf(name), zip, { httpMetadata: { contentType: "application/zip" } });
  await bucket.delete(`_tflock/lease/${keyOf(name)}`);
  const r = await within(30_000, "the second waiter's answer", second);
  assert.equal(r.res.statusCode, 200);
  assert.match(r.res.headers["cache-control"], /immutable/, "served from R2");
  assert.ok((await r.body).bytes.equals(zip));
  assert.equal(served.get(name), 1);
});

test("a small archive passes through whole, once verified", async () => {
  gate = null;
  const name = zipName("4.0.0", "linux_amd64");
  const zip = registry.zips.get(name);
  await filled("4.0.0");
  await otherWriter(name);
  const r = await within(10_000, "the waiter's answer", get(DIR + name));
  assert.equal(r.res.statusCode, 200);
  assert.equal(r.res.headers["cache-control"], "no-store");
  const { bytes } = await within(10_000, "the waiter's body", r.body);
  assert.ok(bytes.equals(zip));
  await nothingStored(name);
});
