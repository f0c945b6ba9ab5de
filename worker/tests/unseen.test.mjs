// Cold HEADs, ranges and revalidations whose clients leave mid-pull. Unlike a plain GET,
// these are answered from the stored copy, so their pull streams to no one and the Worker
// cannot see the client go; on Cloudflare the pull would then be cut 30 s after it left. So
// such a pull is judged as if its client might be gone at any moment
// (`core::edge::held::must_hand_off`, `Client::Unseen`): once the rest, at the rate so far,
// would outlast its `unattended_ms`, it gives back its lease, slot and multipart upload and
// hands the archive to the FILL queue, which lands it verified.
//
// Here the origin sends half of each archive and then stalls (until the test releases it),
// and `unattended_ms` is 1 s: each of the nine pulls must hand off while its origin is still
// stalled. Local workerd never cuts a request whose client left (disconnect.test.mjs), so a
// pull that did not hand off would just wait for the origin; the test would then time out
// waiting for the hand-off, as it did before the rule (the Worker of commit 5066783).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer, request as httpRequest } from "node:http";
import { pointDownloadsAt, startMirror } from "./mirror.mjs";
import { startRegistry } from "../../wasm/tests/registry.mjs";

const HOST = "unseen.test";
const TOKEN = "operator-token";
const VERSIONS = ["1.0.0", "1.1.0", "1.2.0", "1.3.0"];
const PLATFORMS = ["darwin_arm64", "linux_amd64", "windows_amd64"];
// The three kinds of cold request that are not streamed to their client.
const KINDS = [
  { name: "HEAD", method: "HEAD", headers: {} },
  { name: "range", method: "GET", headers: { range: "bytes=0-99" } },
  { name: "revalidation", method: "GET", headers: { "if-none-match": '"an-etag-from-elsewhere"' } },
];

let mf;
let url; // the Worker's own socket, so a client can really disconnect
let registry;
let front; // serves the registry's files, stalling each archive's first download half-way
const gates = new Map(); // archive name -> { started, released, start(), release() }
const zipRequests = [];
const logs = [];
let armed = false; // until the setup's own pulls are done, nothing stalls

const zipName = (v, p) => `terraform-provider-demo_${v}_${p}.zip`;
const DIR = `/${HOST}/acme/demo/`;
const KEY = (name) => `${HOST}/acme/demo/${name}`;

function gate(name) {
  if (!gates.has(name)) {
    const g = {};
    g.started = new Promise((r) => (g.start = r));
    g.released = new Promise((r) => (g.release = r));
    gates.set(name, g);
  }
  return gates.get(name);
}

before(async () => {
  registry = await startRegistry({ versions: VERSIONS, platforms: PLATFORMS });
  front = createServer(async (req, res) => {
    const body = registry.files.get(req.url);
    if (!body) return res.writeHead(404).end("not found");
    if (!req.url.endsWith(".zip")) return res.writeHead(200, { "content-type": "application/json" }).end(body);
    const name = req.url.split("/").pop();
    const first = armed && !zipRequests.includes(name);
    zipRequests.push(name);
    res.writeHead(200, { "content-type": "application/zip", "content-length": body.length });
    if (first) {
      const half = Math.floor(body.length / 2);
      res.write(body.subarray(0, half));
      const g = gate(name);
      g.start();
      await g.released;
      return res.end(body.subarray(half));
    }
    res.end(body); // the queue's download of a handed-off archive
  });
  await new Promise((r) => front.listen(0, "127.0.0.1", r));
  const at = `127.0.0.1:${front.address().port}`;
  pointDownloadsAt(registry, at);
  mf = startMirror({
    bindings: {
      UPLOAD_TOKEN: TOKEN,
      TFLOCK_CLI_CONFIG: `host "${HOST}" {\n  services = {\n    "providers.v1" = "http://${at}/v1/providers/"\n  }\n}\n`,
      TFLOCK_ALLOWED_HOSTS: at,
      TFLOCK_LIMITS: "unattended_ms=1000",
    },
    queueProducers: { FILL: "tflock-fill" },
    queueConsumers: { "tflock-fill": { maxBatchSize: 10, maxBatchTimeout: 0 } },
    unsafeDirectSockets: [{ host: "127.0.0.1", port: 0 }],
    handleRuntimeStdio: (out, err) => {
      out.on("data", (d) => logs.push(String(d)));
      err.resume();
    },
  });
  url = await mf.unsafeGetDirectURL();
  await coldArchives();
});

after(async () => {
  for (const g of gates.values()) g.release();
  await mf?.dispose();
  await registry?.close();
  front?.closeAllConnections();
  await new Promise((r) => (front ? front.close(r) : r()));
});

const get = (path, headers = {}) => mf.dispatchFetch("http://localhost" + path, { headers });

async function keys(prefix) {
  const r = await get(`/_admin/objects?prefix=${encodeURIComponent(prefix)}`, { authorization: `Bearer ${TOKEN}` });
  assert.equal(r.status, 200);
  return (await r.json()).objects.map((o) => o.key);
}

async function eventually(what, check, ms = 10000) {
  const t0 = Date.now();
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() - t0 > ms) assert.fail(`${what}: not within ${ms} ms\n${logs.join("")}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const handedOff = (name) =>
  logs.join("").split("\n").filter((l) => l.includes('"handed_off"') && l.includes(KEY(name))).length;

/** Sends a cold `kind` request for `name` on the Worker's socket; once the origin stalled
 * half-way through the archive, the client leaves. */
async function dropMidPull(kind, name) {
  const req = httpRequest(new URL(DIR + name, url), { method: kind.method, headers: kind.headers });
  const answered = new Promise((resolve) => {
    req.on("response", (res) => { res.resume(); res.on("end", () => resolve(`${res.statusCode}`)); });
    req.on("error", () => resolve("dropped"));
  });
  req.end();
  await Promise.race([gate(name).started, answered.then((s) => assert.fail(`${kind.name}: answered ${s} before the origin sent the archive`))]);
  req.destroy();
  assert.equal(await answered, "dropped");
}

// Filling a version queues an h1: job per platform, whose pull would race the test's own
// cold requests (a queue job's pull hands nothing off). So every version is filled and its
// jobs are run to their end first; then the archives are removed from the bucket, cold
// again, with nothing left queued.
async function coldArchives() {
  for (const v of VERSIONS) assert.equal((await get(`${DIR}${v}.json`)).status, 200);
  for (const v of VERSIONS) {
    await eventually(`${v}: the setup's h1: jobs`, async () => {
      const doc = await (await get(`${DIR}${v}.json`)).json();
      return PLATFORMS.every((p) => doc.archives[p]?.hashes.length === 2);
    }, 30000);
  }
  await eventually("the setup's leases given back", async () => (await keys("_tflock/lease/")).length === 0);
  const bucket = await mf.getR2Bucket("MIRROR");
  for (const v of VERSIONS) for (const p of PLATFORMS) await bucket.delete(KEY(zipName(v, p)));
  zipRequests.length = 0;
  logs.length = 0;
  armed = true;
}

test("nine clients leave their cold HEADs, ranges and revalidations mid-pull: each pull hands off while its origin stalls, every archive lands verified, no lease, upload or slot is left, and the next GETs are hits", async () => {
  const dropped = [];
  let i = 0;
  for (const v of VERSIONS.slice(0, 3)) {
    for (const p of PLATFORMS) {
      const kind = KINDS[i++ % KINDS.length];
      const name = zipName(v, p);
      await dropMidPull(kind, name);
      // The origin is still stalled: only the hand-off can end this pull before the
      // runtime's cut would.
      await eventually(`the ${kind.name} pull of ${name} handed off while its origin stalled`, () => handedOff(name) === 1);
      gate(name).release();
      dropped.push(name);
    }
  }
  assert.equal(dropped.length, 9);

  // The queue's jobs download each archive again and publish it verified (its zh: the signed
  // one, under the claim the setup's pull made): stored with the origin's bytes.
  const bucket = await mf.getR2Bucket("MIRROR");
  for (const name of dropped) {
    const stored = await eventually(`${name} stored`, () => bucket.get(KEY(name)));
    assert.ok(Buffer.from(await stored.arrayBuffer()).equals(registry.zips.get(name)), `${name}: other bytes`);
  }
  await eventually("every lease given back", async () => (await keys("_tflock/lease/")).length === 0);
  await eventually("every upload completed or aborted", async () => (await keys("_tflock/uploads/")).length === 0);
  // Each archive was downloaded twice: the pull that handed off, and the queue's.
  assert.deepEqual([...zipRequests].sort(), [...dropped, ...dropped].sort());

  // The next GET of each is a hit: it asks the origin nothing.
  const before = zipRequests.length;
  for (const name of dropped) {
    const r = await get(DIR + name);
    assert.equal(r.status, 200, await r.clone().text());
    assert.match(r.headers.get("cache-control"), /immutable/);
    assert.ok(Buffer.from(await r.arrayBuffer()).equals(registry.zips.get(name)));
  }
  assert.equal(zipRequests.length, before, "a hit asked the origin");

  // The slots came back: a tenth cold pull runs (leaked slots would make it 429).
  const control = zipName("1.3.0", "linux_amd64");
  gate(control).release();
  const r = await get(DIR + control);
  assert.equal(r.status, 200, await r.clone().text());
  assert.ok(Buffer.from(await r.arrayBuffer()).equals(registry.zips.get(control)));
});
