// A streamed cold miss whose client leaves, when the rest of the pull would outlast the time
// Cloudflare grants `waitUntil` work after a client left (30 s): the pull stops, gives back
// its lease, slot and multipart upload, and hands the archive to the FILL queue, whose job
// (15 minutes) downloads it again and publishes it verified (`core::edge::held::hand_off`).
// The budget is set to 0 here (`TFLOCK_LIMITS unattended_ms=0`), so any pull whose client
// left hands off; with the default (20 s) a fast pull finishes where it is
// (streaming.test.mjs "a client that drops a streamed miss mid-body …").
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer, request as httpRequest } from "node:http";
import { randomBytes } from "node:crypto";
import { pointDownloadsAt, startMirror } from "./mirror.mjs";
import { startRegistry, storedZip } from "../../wasm/tests/registry.mjs";

const HOST = "handoff.test";
const MiB = 1024 * 1024;
const DIR = `/${HOST}/acme/demo/`;
const NAME = "terraform-provider-demo_1.0.0_linux_amd64.zip";
const KEY = `${HOST}/acme/demo/${NAME}`;

let mf;
let url;
let registry;
let front;
let release; // opens the first archive download, held half-way
const held = new Promise((r) => (release = r));
let reached;
const halfway = new Promise((r) => (reached = r));
const zipGets = [];
const logs = [];

before(async () => {
  registry = await startRegistry({
    versions: ["1.0.0"],
    platforms: ["linux_amd64"],
    zip: (v) => storedZip([[`terraform-provider-demo_v${v}`, randomBytes(4 * MiB)], ["LICENSE", "MPL-2.0\n"]]),
  });
  front = createServer(async (req, res) => {
    const body = registry.files.get(req.url);
    if (!body) return res.writeHead(404).end("not found");
    if (!req.url.endsWith(".zip")) return res.writeHead(200, { "content-type": "application/json" }).end(body);
    zipGets.push(req.url);
    res.writeHead(200, { "content-type": "application/zip", "content-length": body.length });
    const half = Math.floor(body.length / 2);
    res.write(body.subarray(0, half));
    if (zipGets.length === 1) {
      reached();
      await held;
    }
    // The rest in small pieces, as a real link delivers it.
    for (let at = half; at < body.length; at += 64 * 1024) {
      if (!res.write(body.subarray(at, Math.min(body.length, at + 64 * 1024)))) {
        await new Promise((r) => res.once("drain", r));
      }
    }
    res.end();
  });
  await new Promise((r) => front.listen(0, "127.0.0.1", r));
  const at = `127.0.0.1:${front.address().port}`;
  pointDownloadsAt(registry, at);
  mf = startMirror({
    bindings: {
      TFLOCK_CLI_CONFIG: `host "${HOST}" {\n  services = {\n    "providers.v1" = "http://${at}/v1/providers/"\n  }\n}\n`,
      TFLOCK_ALLOWED_HOSTS: at,
      TFLOCK_LIMITS: "unattended_ms=0",
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
});

after(async () => {
  release?.();
  await mf?.dispose();
  await registry?.close();
  front?.closeAllConnections();
  await new Promise((r) => (front ? front.close(r) : r()));
});

const until = async (what, ok, tries = 400) => {
  for (let i = 0; i < tries; i++) {
    if (await ok()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`timed out waiting for ${what}`);
};

test("a pull whose client left and that would outlast its waitUntil time is handed to the queue, which lands it verified", async () => {
  const zip = registry.zips.get(NAME);
  const r = await new Promise((resolve, reject) => {
    const req = httpRequest(new URL(DIR + NAME, url), (res) => resolve({ req, res }));
    req.on("error", reject);
    req.end();
  });
  assert.equal(r.res.statusCode, 200);
  assert.equal(r.res.headers["cache-control"], "no-store", "the miss streams");
  await halfway;
  await new Promise((ok) => r.res.once("data", ok));
  r.req.destroy(); // the client leaves mid-body
  r.res.on("error", () => {});
  await new Promise((ok) => setTimeout(ok, 200));
  release();

  const bucket = await mf.getR2Bucket("MIRROR");
  await until("the archive to land", async () => (await bucket.head(KEY)) !== null);
  const handed = logs.join("").split("\n").filter((l) => l.includes('"handed_off"'));
  assert.equal(handed.length, 1, `one hand-off logged:\n${logs.join("")}`);
  assert.ok(handed[0].includes(KEY));
  // The cut download and the queue job's own: the stored archive came from the second.
  assert.ok(zipGets.length >= 2, `the origin saw ${zipGets.length} archive downloads`);
  await until("no lease and no upload record", async () => {
    const leases = (await bucket.list({ prefix: "_tflock/lease/" })).objects;
    const uploads = (await bucket.list({ prefix: "_tflock/uploads/" })).objects;
    return leases.length === 0 && uploads.length === 0;
  });
  // Verified and listed: the document has its h1: beside the signed zh:, and a GET is a hit.
  await until("the h1: to be listed", async () => {
    const doc = await (await fetch(new URL(DIR + "1.0.0.json", url))).json();
    return doc.archives.linux_amd64.hashes.length === 2;
  });
  const before = zipGets.length;
  const hit = await fetch(new URL(DIR + NAME, url));
  assert.equal(hit.status, 200);
  assert.match(hit.headers.get("cache-control"), /immutable/);
  assert.ok(Buffer.from(await hit.arrayBuffer()).equals(zip));
  assert.equal(zipGets.length, before, "the hit asked the origin nothing");
});
