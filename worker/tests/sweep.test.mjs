// Multipart uploads an evicted isolate left behind: every upload is recorded under
// `_tflock/uploads/<key>` while it runs, and a queue consumer (its first batch, then every
// ten minutes) aborts the recorded uploads older than a pull may last and removes their
// records, keeping younger ones.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startMirror } from "./mirror.mjs";

const TOKEN = "operator-token";
const DIR = "registry.terraform.io/hashicorp/demo";
let mf;

before(async () => {
  mf = startMirror({
    queueProducers: { FILL: "tflock-fill" },
    queueConsumers: { "tflock-fill": { maxBatchSize: 10, maxBatchTimeout: 0, maxRetries: 0 } },
    // Nothing is pulled through: the queued job itself fails, the sweep before it runs.
    bindings: { UPLOAD_TOKEN: TOKEN, TFLOCK_ALLOWED_HOSTS: "none.invalid" },
  });
});

after(async () => {
  await mf?.dispose();
});

const get = (path, init = {}) => mf.dispatchFetch("http://localhost" + path, init);

async function records() {
  const r = await get(`/_admin/objects?prefix=${encodeURIComponent("_tflock/uploads/")}`, { headers: { authorization: `Bearer ${TOKEN}` } });
  assert.equal(r.status, 200);
  return (await r.json()).objects.map((o) => o.key);
}

async function eventually(what, check, ms = 10000) {
  const t0 = Date.now();
  for (;;) {
    if (await check()) return;
    if (Date.now() - t0 > ms) assert.fail(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test("the queue consumer aborts abandoned multipart uploads and keeps running ones", async () => {
  const bucket = await mf.getR2Bucket("MIRROR");
  const old = `${DIR}/terraform-provider-demo_1.0.0_linux_amd64.zip`;
  const young = `${DIR}/terraform-provider-demo_1.0.0_darwin_arm64.zip`;
  const part = Buffer.alloc(5 * 1024 * 1024, 1);
  const uploads = {};
  for (const [key, startedAt] of [[old, 0], [young, Date.now()]]) {
    const upload = await bucket.createMultipartUpload(key);
    await upload.uploadPart(1, part);
    uploads[key] = upload.uploadId;
    await bucket.put(`_tflock/uploads/${key}`, "", { customMetadata: { "upload-id": upload.uploadId, "started-at": String(startedAt) } });
  }
  assert.equal((await records()).length, 2);

  // Any queued job runs the consumer.
  const r = await get("/_admin/backfill", {
    method: "POST",
    headers: { authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify({ providers: [`${DIR}`], versions: ["1.0.0"] }),
  });
  assert.equal(r.status, 202, await r.clone().text());
  await eventually("the abandoned upload's record removed", async () => (await records()).length === 1);
  assert.deepEqual(await records(), [`_tflock/uploads/${young}`]);

  // The abandoned upload takes no more parts; the running one does, and completes.
  await assert.rejects(bucket.resumeMultipartUpload(old, uploads[old]).uploadPart(2, part));
  const running = bucket.resumeMultipartUpload(young, uploads[young]);
  const p1 = await running.uploadPart(1, part);
  await running.complete([p1]);
  assert.equal((await bucket.head(young)).size, part.length);
  assert.equal(await bucket.head(old), null);
});
