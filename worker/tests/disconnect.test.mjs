// Clients that go away mid-pull: nine cold archive GETs, each dropped by its client while
// the origin is half-way through the archive. The pulls must finish anyway (in the
// request's waitUntil), land verified, give back their leases, multipart uploads and
// concurrency slots (an isolate has 8: leaked ones would turn the next cold GET into 429),
// and the next GET of each archive must be a hit that asks the origin nothing.
//
// Local workerd runs a request to its end after its client left (seen with the Worker
// before issue 29 item 4, through Miniflare's entry worker and through a direct socket,
// with and without `enable_request_signal`), where Cloudflare cancels it; so this suite
// shows what a dropped client leaves behind, not that a cancelled request is survived.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer, request as httpRequest } from "node:http";
import { pointDownloadsAt, startMirror } from "./mirror.mjs";
import { startRegistry } from "../../wasm/tests/registry.mjs";

const HOST = "gone.test";
const TOKEN = "operator-token";
const VERSIONS = ["1.0.0", "1.1.0", "1.2.0", "1.3.0"];
const PLATFORMS = ["darwin_arm64", "linux_amd64", "windows_amd64"];

let mf;
let url; // the Worker's own socket, so a client can really disconnect
let registry;
let front; // serves the registry's files, holding archives half-sent until released
const gates = new Map(); // archive name -> { started: Promise, release() }
const zipRequests = [];

const zipName = (v, p) => `terraform-provider-demo_${v}_${p}.zip`;
const DIR = `/${HOST}/acme/demo/`;

function gate(name) {
  if (!gates.has(name)) {
    let started, release;
    const g = {
      started: new Promise((r) => (started = r)),
      released: new Promise((r) => (release = r)),
    };
    g.start = started;
    g.release = release;
    gates.set(name, g);
  }
  return gates.get(name);
}

before(async () => {
  registry = await startRegistry({ versions: VERSIONS, platforms: PLATFORMS });
  front = createServer(async (req, res) => {
    const body = registry.files.get(req.url);
    if (!body) return res.writeHead(404).end("not found");
    const type = req.url.endsWith(".zip") ? "application/zip" : "application/json";
    if (!req.url.endsWith(".zip")) return res.writeHead(200, { "content-type": type }).end(body);
    const name = req.url.split("/").pop();
    zipRequests.push(name);
    res.writeHead(200, { "content-type": type, "content-length": body.length });
    const half = Math.floor(body.length / 2);
    res.write(body.subarray(0, half));
    const g = gate(name);
    g.start();
    await g.released;
    res.end(body.subarray(half));
  });
  await new Promise((r) => front.listen(0, "127.0.0.1", r));
  const at = `127.0.0.1:${front.address().port}`;
  pointDownloadsAt(registry, at);
  // No queue: background h1: jobs would pull the archives themselves.
  mf = startMirror({
    bindings: {
      UPLOAD_TOKEN: TOKEN,
      TFLOCK_CLI_CONFIG: `host "${HOST}" {\n  services = {\n    "providers.v1" = "http://${at}/v1/providers/"\n  }\n}\n`,
      TFLOCK_ALLOWED_HOSTS: at,
    },
    // A socket straight into the Worker, without Miniflare's entry worker in between.
    unsafeDirectSockets: [{ host: "127.0.0.1", port: 0 }],
  });
  url = await mf.unsafeGetDirectURL();
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

/** Starts a GET of `path` on the Worker's socket; resolves once `name`'s origin download
 * is half-way, then drops the connection. */
async function dropMidPull(path, name) {
  const req = httpRequest(new URL(path, url));
  const answered = new Promise((resolve) => {
    req.on("response", (res) => { let b = ""; res.on("data", (d) => (b += d)); res.on("end", () => resolve(`${res.statusCode} ${b}`)); });
    req.on("error", () => resolve("dropped"));
  });
  req.end();
  await Promise.race([gate(name).started, answered.then((s) => assert.fail(`answered ${s} before the origin sent the archive`))]);
  req.destroy();
  assert.equal(await answered, "dropped");
}

async function eventually(what, check, ms = 10000) {
  const t0 = Date.now();
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() - t0 > ms) assert.fail(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test("nine clients drop their cold archive GETs mid-pull: every archive lands verified, no lease, upload or slot is left, and the next GETs are hits", async () => {
  const dropped = [];
  for (const v of VERSIONS.slice(0, 3)) {
    for (const p of PLATFORMS) {
      const name = zipName(v, p);
      await dropMidPull(DIR + name, name);
      // The client is gone; now the origin sends the rest.
      gate(name).release();
      dropped.push(name);
    }
  }
  assert.equal(dropped.length, 9);
  const bucket = await mf.getR2Bucket("MIRROR");
  for (const name of dropped) {
    const stored = await eventually(`${name} stored`, () => bucket.get(`${HOST}/acme/demo/${name}`));
    assert.ok(Buffer.from(await stored.arrayBuffer()).equals(registry.zips.get(name)), `${name}: other bytes`);
  }
  await eventually("every lease released", async () => (await keys("_tflock/lease/")).length === 0);
  assert.deepEqual(await keys("_tflock/uploads/"), [], "an upload was left unfinished");
  const claims = await keys("_tflock/hashes/");
  assert.equal(claims.length, 9, JSON.stringify(claims));

  // Each archive once from the origin, and the next GET of each is a hit.
  assert.deepEqual([...zipRequests].sort(), [...dropped].sort());
  for (const name of dropped) {
    const r = await get(DIR + name);
    assert.equal(r.status, 200, await r.clone().text());
    assert.ok(Buffer.from(await r.arrayBuffer()).equals(registry.zips.get(name)));
  }
  assert.equal(zipRequests.length, 9, "a hit asked the origin");

  // The slots came back: a tenth cold pull runs (a leaked slot per drop would make it 429).
  const control = zipName("1.3.0", "linux_amd64");
  gate(control).release();
  const r = await get(DIR + control);
  assert.equal(r.status, 200, await r.clone().text());
  assert.ok(Buffer.from(await r.arrayBuffer()).equals(registry.zips.get(control)));
});
