// The Worker as a verified pull-through mirror in workerd (Miniflare, in-memory R2 and a
// real queue), in front of a loopback origin registry whose SHA256SUMS GnuPG signs: every
// platform listed with its signed zh: at once, h1: added in the background by the queue
// consumer, archives pulled once however many clients ask, lies refused and nothing kept.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startMirror, cliHashes as hashesOf } from "./mirror.mjs";
import { startRegistry, storedZip } from "../../wasm/tests/registry.mjs";

const HOST = "registry.test";
const DIR = `/${HOST}/acme/demo/`;
const PLATFORMS = ["darwin_arm64", "linux_amd64", "windows_amd64"];
const TOKEN = "operator-token";

let mf;
let origin;
let work;
const log = [];

before(async () => {
  origin = await startRegistry({ versions: ["1.0.0", "1.1.0", "1.2.0"], platforms: PLATFORMS });
  // Record every origin request (path and whether it carried a token).
  const server = origin.server;
  work = mkdtempSync(join(tmpdir(), "tflock-pull-"));
  mf = startMirror({
    queueProducers: { FILL: "tflock-fill" },
    queueConsumers: { "tflock-fill": { maxBatchSize: 10, maxBatchTimeout: 0 } },
    bindings: {
      UPLOAD_TOKEN: TOKEN,
      TFLOCK_CLI_CONFIG: `host "${HOST}" {\n  services = {\n    "providers.v1" = "${origin.providersUrl}"\n  }\n}\n`,
      TF_TOKEN_registry_test: "registry-secret",
      // The loopback origin is fetched only because it is listed (the default refuses it).
      TFLOCK_ALLOWED_HOSTS: new URL(origin.base).host,
    },
  });
});
after(async () => {
  await mf?.dispose();
  await origin?.close();
  rmSync(work, { recursive: true, force: true });
});

const get = (path, headers = {}) => mf.dispatchFetch("http://localhost" + path, { headers });
const zipName = (v, p) => `terraform-provider-demo_${v}_${p}.zip`;

const cliHashes = (bytes) => hashesOf(work, bytes);

async function objects(prefix) {
  const r = await get(`/_admin/objects?prefix=${encodeURIComponent(prefix)}`, { authorization: `Bearer ${TOKEN}` });
  assert.equal(r.status, 200);
  return (await r.json()).objects.map((o) => o.key);
}

test("a cold <version>.json lists every platform's signed zh:, and the queue adds every h1:", async () => {
  const index = await get(DIR + "index.json");
  assert.equal(index.status, 200, await index.clone().text());
  assert.deepEqual(await index.json(), { versions: { "1.0.0": {}, "1.1.0": {}, "1.2.0": {} } });

  const first = await get(DIR + "1.0.0.json");
  assert.equal(first.status, 200, await first.clone().text());
  const doc = await first.json();
  assert.deepEqual(Object.keys(doc.archives).sort(), PLATFORMS);
  for (const p of PLATFORMS) {
    const { zh } = cliHashes(origin.zips.get(zipName("1.0.0", p)));
    assert.equal(doc.archives[p].url, zipName("1.0.0", p));
    assert.ok(doc.archives[p].hashes.includes(zh), `${p}: ${doc.archives[p].hashes}`);
  }
  // The consumer pulls and hashes each platform: wait until every h1: is listed.
  let listed;
  for (let i = 0; i < 100; i++) {
    listed = await (await get(DIR + "1.0.0.json")).json();
    if (PLATFORMS.every((p) => listed.archives[p].hashes.length === 2)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  for (const p of PLATFORMS) {
    const { h1, zh } = cliHashes(origin.zips.get(zipName("1.0.0", p)));
    assert.deepEqual(listed.archives[p].hashes, [h1, zh], p);
  }
  const stored = await objects(`${HOST}/acme/demo/`);
  for (const p of PLATFORMS) assert.ok(stored.includes(`${HOST}/acme/demo/${zipName("1.0.0", p)}`), p);
});

test("archives are served with HEAD, ranges, ETags and CORS", async () => {
  const path = DIR + zipName("1.0.0", "linux_amd64");
  const bytes = origin.zips.get(zipName("1.0.0", "linux_amd64"));
  const full = await get(path);
  assert.equal(full.status, 200);
  assert.ok(Buffer.from(await full.arrayBuffer()).equals(bytes));
  assert.equal(full.headers.get("access-control-allow-origin"), "*");
  assert.match(full.headers.get("cache-control"), /immutable/);
  const head = await mf.dispatchFetch("http://localhost" + path, { method: "HEAD" });
  assert.equal(head.status, 200);
  assert.equal(head.headers.get("content-length"), String(bytes.length));
  const part = await get(path, { range: "bytes=4-9" });
  assert.equal(part.status, 206);
  assert.equal(part.headers.get("content-range"), `bytes 4-9/${bytes.length}`);
  assert.ok(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(4, 10)));
  assert.equal((await get(path, { range: `bytes=${bytes.length}-` })).status, 416);
  const again = await get(path, { "if-none-match": full.headers.get("etag") });
  assert.equal(again.status, 304);
  const doc = await get(DIR + "1.0.0.json");
  assert.equal((await get(DIR + "1.0.0.json", { "if-none-match": doc.headers.get("etag") })).status, 304);
  const pre = await mf.dispatchFetch("http://localhost" + path, { method: "OPTIONS" });
  assert.equal(pre.status, 204);
  assert.match(pre.headers.get("access-control-allow-methods"), /GET/);
});

test("ten cold GETs of one archive cause one origin download", async () => {
  const name = zipName("1.1.0", "darwin_arm64");
  const before = origin.requests.filter((r) => r.path.endsWith(name)).length;
  const answers = await Promise.all(Array.from({ length: 10 }, () => get(DIR + name)));
  const bytes = origin.zips.get(name);
  for (const a of answers) {
    assert.equal(a.status, 200, await a.clone().text());
    assert.ok(Buffer.from(await a.arrayBuffer()).equals(bytes));
  }
  const after = origin.requests.filter((r) => r.path.endsWith(name)).length;
  assert.equal(after - before, 1, "origin downloads of " + name);
});

test("alias paths (upper case, :443, upper-case names) are served from the one stored document: no GET of an alias asks the origin", async () => {
  // 1.0.0 was filled by the first test, under the normalised name. Keyed by the raw path,
  // each alias would be a miss that fills the version again from the origin.
  const version = "1.0.0";
  const apiAsked = () => origin.requests.filter((r) => r.path.startsWith("/v1/")).length;
  const zh = (d) => Object.fromEntries(Object.entries(JSON.parse(d).archives).map(([p, a]) => [p, a.hashes.filter((h) => h.startsWith("zh:"))]));
  const listed = zh(await (await get(`${DIR}${version}.json`)).text());
  const before = apiAsked();
  for (const alias of [`/${HOST.toUpperCase()}/acme/demo/${version}.json`, `/${HOST}:443/acme/demo/${version}.json`, `/${HOST}/ACME/Demo/${version}.json`, `/${HOST.toUpperCase()}:443/Acme/demo/${version}.json`]) {
    const r = await get(alias);
    assert.equal(r.status, 200, alias);
    assert.deepEqual(zh(await r.text()), listed, alias);
  }
  assert.equal(apiAsked(), before, "an alias GET asked the origin registry");
  const keys = (await objects("")).filter((k) => k.endsWith(`${version}.json`) && !k.startsWith("_tflock/"));
  assert.deepEqual(keys, [`${HOST}/acme/demo/${version}.json`], "one document for every alias");
});

test("tokens go only to discovery and registry API requests", async () => {
  assert.ok(origin.requests.length > 0);
  for (const r of origin.requests) {
    const api = r.path.startsWith("/v1/");
    assert.equal(r.authorization, api ? "Bearer registry-secret" : undefined, r.path);
  }
});

test("unknown providers and versions are 404 and remembered briefly, in memory: they write nothing", async () => {
  const asked = () => origin.requests.filter((r) => r.path.includes("/acme/nothing/")).length;
  assert.equal((await get(`/${HOST}/acme/nothing/index.json`)).status, 404);
  assert.equal((await get(`/${HOST}/acme/nothing/index.json`)).status, 404);
  assert.equal(asked(), 1, "the second 404 came from the mirror");
  assert.equal((await get(DIR + "9.9.9.json")).status, 404);
  // Made-up names of a listed registry, each a new miss: the bucket does not grow.
  for (let i = 0; i < 20; i++) assert.equal((await get(`/${HOST}/acme/made-up-${i}/index.json`)).status, 404);
  assert.equal(asked(), 1);
  assert.equal(origin.requests.filter((r) => r.path.includes("/acme/made-up-")).length, 20);
  // (Background h1: jobs of earlier tests may still write their own keys meanwhile.)
  const written = (await objects("")).filter((k) => /\/(nothing|made-up-\d+)\/|9\.9\.9|_tflock\/miss/.test(k));
  assert.deepEqual(written, [], "a miss was written to the bucket");
});

test("a bad signature, an unknown key and a tampered zip are refused and nothing is kept", async () => {
  const rel = (v) => `/releases/demo/${v}/`;
  // 1.2.0's signature replaced by one from a key the registry does not list.
  const stranger = "Stranger <stranger@example.com>";
  origin.gpg("--quick-generate-key", stranger, "ed25519", "sign", "never");
  const sums = join(origin.dir, "SUMS-1.2.0");
  writeFileSync(sums, origin.files.get(rel("1.2.0") + "SHA256SUMS"));
  origin.gpg("--local-user", stranger, "--detach-sign", "--output", sums + ".sig", sums);
  const good = origin.files.get(rel("1.2.0") + "SHA256SUMS.sig");
  const { readFileSync } = await import("node:fs");
  origin.files.set(rel("1.2.0") + "SHA256SUMS.sig", readFileSync(sums + ".sig"));
  const unknown = await get(DIR + "1.2.0.json");
  // A stale copy is not served for a refusal, and nothing new is stored.
  assert.equal(unknown.status, 502, await unknown.clone().text());
  assert.match(await unknown.text(), /registry\.test\/acme\/demo 1\.2\.0 for \w+: the SHA256SUMS signature does not verify/);
  assert.ok(!(await objects(`${HOST}/acme/demo/1.2.0.json`)).length);

  // A signature that does not verify at all.
  const broken = Buffer.from(good);
  broken[broken.length - 5] ^= 0xff;
  origin.files.set(rel("1.2.0") + "SHA256SUMS.sig", broken);
  assert.equal((await get(DIR + "1.2.0.json")).status, 502);
  origin.files.set(rel("1.2.0") + "SHA256SUMS.sig", good);

  // The zip at the origin differs from what SHA256SUMS signs: 502 naming it, nothing kept.
  const name = zipName("1.2.0", "windows_amd64");
  const real = origin.files.get(rel("1.2.0") + name);
  const fake = storedZip([["terraform-provider-demo_v1.2.0", "#!/bin/sh\n# an impostor\n"]]);
  origin.files.set(rel("1.2.0") + name, fake);
  const r = await get(DIR + name);
  assert.equal(r.status, 502);
  assert.match(await r.text(), /registry\.test\/acme\/demo 1\.2\.0 for windows_amd64/);
  assert.deepEqual(await objects(`${HOST}/acme/demo/${name}`), []);
  origin.files.set(rel("1.2.0") + name, real);
});

test("uploads to a pulled-through host must match the signed SHA256SUMS; a published archive never changes (same bytes 200, other bytes 409)", async () => {
  const put = (path, body) =>
    mf.dispatchFetch("http://localhost" + path, { method: "PUT", body, headers: { authorization: `Bearer ${TOKEN}` } });
  const name = zipName("1.0.0", "darwin_arm64");
  const bytes = origin.zips.get(name);
  // Already pulled through: the same bytes are fine, other bytes conflict.
  assert.equal((await put(DIR + name, bytes)).status, 200);
  const other = Buffer.from(bytes);
  other[other.length - 30] ^= 0x01;
  assert.equal((await put(DIR + name, other)).status, 409);
  // Not yet stored: an archive whose zh: the origin did not sign is refused.
  await mf.getR2Bucket("MIRROR").then((b) => b.delete(`${HOST}/acme/demo/${zipName("1.1.0", "linux_amd64")}`));
  // A well-formed zip, but not the one the origin signed.
  const bad = storedZip([["terraform-provider-demo_v1.1.0", "#!/bin/sh\n# not the release\n"]]);
  const refused = await put(DIR + zipName("1.1.0", "linux_amd64"), bad);
  assert.equal(refused.status, 409, await refused.clone().text());
  assert.deepEqual(await objects(`${HOST}/acme/demo/${zipName("1.1.0", "linux_amd64")}`), []);
});

test("crafted names never take the registry token anywhere: each is a 4xx that fetches nothing outside the registry's base and stores nothing", async (t) => {
  const { createServer } = await import("node:net");
  let trapped = 0;
  const trap = createServer((socket) => {
    trapped++;
    socket.destroy();
  });
  await new Promise((r) => trap.listen(0, "127.0.0.1", r));
  // A failed assertion must not leave the listener holding the test process open.
  t.after(() => trap.close(() => {}));
  const at = `127.0.0.1:${trap.address().port}`;
  // 1.0.0 filled (the first test did, unless this one runs alone): an archive name of it
  // with an over-long platform is then refused from the stored record. Its h1: jobs done.
  for (let i = 0; ; i++) {
    const doc = await (await get(DIR + "1.0.0.json")).json();
    if (PLATFORMS.every((p) => doc.archives[p].hashes.length === 2)) break;
    assert.ok(i < 200, "1.0.0's h1: jobs did not finish");
    await new Promise((r) => setTimeout(r, 50));
  }
  const originRequests = origin.requests.length;
  const stored = await objects("");
  // The origin is http://, so `https:` switches scheme (and host); `http:` with no or one
  // slash (the segment after it), encoded slashes and dots, userinfo, `?`, `#`, space,
  // non-ASCII and NUL, in every segment of every route (host, namespace, type, and each
  // part of the last segment). Over-long names follow below.
  const routes = (seg) => {
    const attacks = [];
    const zip = (type, version, os, arch) => `terraform-provider-${type}_${version}_${os}_${arch}.zip`;
    const lasts = ["index.json", "1.0.0.json", zip("demo", "1.0.0", "linux", "amd64")];
    for (const last of lasts) {
      attacks.push(`/${seg}/acme/demo/${last}`, `/${HOST}/${seg}/demo/${last}`, `/${HOST}/acme/${seg}/${last}`);
    }
    attacks.push(
      `/${HOST}/${seg}/${at}/index.json`,
      `/${HOST}/acme/demo/${seg}`,
      `/${HOST}/acme/demo/${seg}.json`,
      `/${HOST}/acme/demo/${zip(seg, "1.0.0", "linux", "amd64")}`,
      `/${HOST}/acme/demo/${zip("demo", seg, "linux", "amd64")}`,
      `/${HOST}/acme/demo/${zip("demo", "1.0.0", seg, "amd64")}`,
      `/${HOST}/acme/demo/${zip("demo", "1.0.0", "linux", seg)}`,
    );
    return attacks;
  };
  const segs = [`https:`, `http:`, `https:${at}`, `http:${at}`, `..`, `.`, `%2e%2e`, `%2e`, `a%2Fb`, `%2F%2F${at}`, `u@${at}`, `A?b`, `a%23b`, `a%20b`, `é%00`];
  for (const path of segs.flatMap(routes)) {
    for (const method of ["GET", "HEAD", "PUT", "OPTIONS"]) {
      const init = { method, headers: { authorization: `Bearer ${TOKEN}` } };
      if (method === "PUT") init.body = "x";
      const r = await mf.dispatchFetch("http://localhost" + path, init);
      // A junk host segment may parse as a hostname (300 letters do), which is not listed:
      // 403, and a CORS preflight of it 204 (a preflight touches nothing).
      const junkHost = [403, 404, 405, ...(method === "OPTIONS" ? [204] : [])];
      const allowed = path.startsWith(`/${HOST}/`) ? [404, 405] : junkHost;
      assert.ok(allowed.includes(r.status), `${method} ${path}: ${r.status}`);
    }
  }
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(trapped, 0, "the trap listener was reached");
  assert.equal(origin.requests.length, originRequests, "the origin was asked");
  assert.deepEqual(await objects(""), stored, "the bucket changed");
  // Over-long names in every segment: Terraform's grammar sets no length on a namespace, a
  // type or a hostname label, so those are valid names, which may be asked of the listed
  // registry (under its own base: that is where its token goes); anything else is refused.
  // Each is a 4xx, the trap is not reached and the bucket does not change (origin 404s are
  // remembered in memory only).
  for (const path of ["a".repeat(300), "A".repeat(70)].flatMap(routes)) {
    for (const method of ["GET", "HEAD", "PUT"]) {
      const init = { method, headers: { authorization: `Bearer ${TOKEN}` } };
      if (method === "PUT") init.body = "x";
      const r = await mf.dispatchFetch("http://localhost" + path, init);
      assert.ok(r.status >= 400 && r.status < 500, `${method} ${path}: ${r.status}`);
    }
  }
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(trapped, 0, "the trap listener was reached");
  for (const r of origin.requests.slice(originRequests)) {
    const api = r.path.startsWith(new URL(origin.providersUrl).pathname);
    assert.equal(r.authorization, api ? "Bearer registry-secret" : undefined, `${r.path}: the token went outside the registry's base`);
  }
  assert.deepEqual(await objects(""), stored, "the bucket changed");
  const asked = origin.requests.length;
  // The control: a valid name of a provider the registry has is pulled through, and its
  // request carries the token, so the checks above did not pass because nothing could reach
  // the registry.
  const versions = { versions: [{ version: "1.0.0", protocols: ["5.0"], platforms: [{ os: "linux", arch: "amd64" }] }] };
  origin.files.set("/v1/providers/acme/control/versions", Buffer.from(JSON.stringify(versions)));
  const answered = await get(`/${HOST}/acme/control/index.json`);
  assert.equal(answered.status, 200, await answered.clone().text());
  assert.deepEqual(await answered.json(), { versions: { "1.0.0": {} } });
  const control = origin.requests.slice(asked);
  assert.deepEqual(control, [{ path: "/v1/providers/acme/control/versions", authorization: "Bearer registry-secret" }]);
});

test("a stalled or failing origin gets stale documents, marked", async () => {
  // Make the stored index stale by rewriting its fill time, then take the origin away.
  const bucket = await mf.getR2Bucket("MIRROR");
  const key = `${HOST}/acme/demo/index.json`;
  const current = await bucket.get(key);
  const body = await current.text();
  await bucket.put(key, body, { customMetadata: { "filled-at": "0" }, httpMetadata: { contentType: "application/json" } });
  const versions = origin.files.get("/v1/providers/acme/demo/versions");
  origin.files.delete("/v1/providers/acme/demo/versions");
  const r404 = await get(DIR + "index.json");
  // A 404 from the origin is an answer (the provider is gone), not a failure.
  assert.equal(r404.status, 404);
  origin.files.set("/v1/providers/acme/demo/versions", versions);
  await bucket.put(key, body, { customMetadata: { "filled-at": "0" }, httpMetadata: { contentType: "application/json" } });
  await origin.close();
  const stale = await get(DIR + "index.json");
  assert.equal(stale.status, 200, await stale.clone().text());
  assert.ok(stale.headers.get("x-tflock-stale"), "marked stale");
  assert.deepEqual(JSON.parse(await stale.text()), JSON.parse(body));
});
