// A cold archive miss streams to the request that started the pull, as the origin sends it:
// the first bytes arrive while the origin is still sending, the last ones only once the
// archive is verified; a tampered archive ends short of its declared length (the client
// never holds it whole) and is not kept.
// Small archives (under core::edge::tee::STREAM_AFTER) are answered whole, as before.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { randomBytes } from "node:crypto";
import { pointDownloadsAt, startMirror, streamGet } from "./mirror.mjs";
import { startRegistry, storedZip, demoZip } from "../../wasm/tests/registry.mjs";

const HOST = "stream.test";
const MiB = 1024 * 1024;
const DIR = `/${HOST}/acme/demo/`;
const zipName = (v, p) => `terraform-provider-demo_${v}_${p}.zip`;

let mf;
let url;
let registry;
let front;
let gate; // { reached: Promise, open() }: the front server stops half-way through a big zip
const swapped = new Map(); // archive name -> other bytes the front server sends instead

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
    zip: (v, p) => (v === "3.0.0" ? demoZip(v, p) : big(v)),
  });
  front = createServer(async (req, res) => {
    const name = req.url.split("/").pop();
    const body = swapped.get(name) ?? registry.files.get(req.url);
    if (!body) return res.writeHead(404).end("not found");
    if (!req.url.endsWith(".zip")) return res.writeHead(200, { "content-type": "application/json" }).end(body);
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
    bindings: {
      UPLOAD_TOKEN: "t",
      TFLOCK_CLI_CONFIG: `host "${HOST}" {\n  services = {\n    "providers.v1" = "http://${at}/v1/providers/"\n  }\n}\n`,
      TFLOCK_ALLOWED_HOSTS: at,
    },
    unsafeDirectSockets: [{ host: "127.0.0.1", port: 0 }],
  });
  url = await mf.unsafeGetDirectURL();
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

test("a large cold miss reaches its client while the origin is still sending, and is kept verified", async () => {
  gate = newGate();
  const name = zipName("1.0.0", "linux_amd64");
  const zip = registry.zips.get(name);
  const r = await get(DIR + name);
  assert.equal(r.res.statusCode, 200);
  assert.equal(r.res.headers["cache-control"], "no-store");
  assert.equal(Number(r.res.headers["content-length"]), zip.length, "the origin's length goes out");
  await gate.reached;
  await r.firstBytes;
  // The origin is held half-way: what the client has came from the stream, not from R2.
  assert.ok(r.received() > 0 && r.received() <= zip.length / 2, `received ${r.received()} of ${zip.length}`);
  gate.open();
  const { bytes, error } = await r.body;
  assert.equal(error, undefined);
  assert.ok(bytes.equals(zip), "other bytes");
  // Stored and published: the next GET is a hit from R2.
  const bucket = await mf.getR2Bucket("MIRROR");
  for (let i = 0; i < 100 && !(await bucket.head(`${HOST}/acme/demo/${name}`)); i++) await new Promise((ok) => setTimeout(ok, 50));
  const hit = await get(DIR + name);
  assert.equal(hit.res.statusCode, 200);
  assert.match(hit.res.headers["cache-control"], /immutable/);
  assert.ok((await hit.body).bytes.equals(zip));
});

test("a large tampered archive ends short of its declared length, and nothing is kept", async () => {
  gate = null;
  const name = zipName("2.0.0", "linux_amd64");
  const zip = registry.zips.get(name);
  swapped.set(name, big("2.0.0")); // same size, other bytes: SHA256SUMS does not sign them
  const r = await get(DIR + name);
  assert.equal(r.res.statusCode, 200);
  const { bytes, error, got } = await r.body;
  assert.equal(bytes, undefined, "the client got a complete body");
  assert.ok(error, "no error");
  assert.ok(got < zip.length, `received ${got} of ${zip.length}`);
  const bucket = await mf.getR2Bucket("MIRROR");
  assert.equal(await bucket.head(`${HOST}/acme/demo/${name}`), null);
  // Asked again, it is pulled again, and ends short again.
  const again = await get(DIR + name);
  assert.equal(again.res.statusCode, 200, "streamed again");
  assert.ok((await again.body).error);
});

test("a small cold miss is not streamed: answered whole, from R2, cacheable", async () => {
  gate = null;
  const name = zipName("3.0.0", "linux_amd64");
  const r = await get(DIR + name);
  assert.equal(r.res.statusCode, 200);
  assert.match(r.res.headers["cache-control"], /immutable/);
  assert.ok((await r.body).bytes.equals(registry.zips.get(name)));
});

test("a client that drops a streamed miss mid-body leaves the pull to finish: stored, no lease, the next GET a hit", async () => {
  gate = newGate();
  const name = zipName("4.0.0", "linux_amd64");
  const zip = registry.zips.get(name);
  const r = await get(DIR + name);
  assert.equal(r.res.headers["cache-control"], "no-store");
  await gate.reached;
  await r.firstBytes;
  r.req.destroy();
  await r.body;
  gate.open();
  const bucket = await mf.getR2Bucket("MIRROR");
  const key = `${HOST}/acme/demo/${name}`;
  for (let i = 0; i < 200 && !(await bucket.head(key)); i++) await new Promise((ok) => setTimeout(ok, 50));
  assert.ok(await bucket.head(key), "the archive did not land");
  for (let i = 0; i < 100 && (await bucket.list({ prefix: "_tflock/lease/" })).objects.length; i++) await new Promise((ok) => setTimeout(ok, 50));
  assert.deepEqual((await bucket.list({ prefix: "_tflock/lease/" })).objects, []);
  assert.deepEqual((await bucket.list({ prefix: "_tflock/uploads/" })).objects, []);
  const hit = await get(DIR + name);
  assert.match(hit.res.headers["cache-control"], /immutable/);
  assert.ok((await hit.body).bytes.equals(zip));
});
