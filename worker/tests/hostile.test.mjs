// The Worker against a hostile origin registry (a loopback node server): documents of
// hundreds of MB to a GiB (and a 200 MB discovery document, through Miniflare's outbound
// service) (streamed from a generator, never held here), bodies trickling a byte a
// second, a version listing 500 platforms, redirects to another host and to loopback, a
// connection dropped and a 503 before the answer, and a release re-published with other
// bytes. Each is answered within its limit (TFLOCK_LIMITS shortens the deadlines so the
// suite runs in seconds), nothing wrong is stored, and the concurrency slots come back.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { createServer as createTcpServer } from "node:net";
import { Readable } from "node:stream";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startMirror } from "./mirror.mjs";
import { tools } from "../../wasm/tests/helpers.mjs";
import { startRegistry, storedZip } from "../../wasm/tests/registry.mjs";

const HOST = "hostile.test";
const TOKEN = "operator-token";
const MB = 1024 * 1024;
const LIMITS = "headers_ms=2000,document_ms=3000,archive_grace_ms=2000,archive_min_rate=1000,retry_base_ms=50";

let mf;
let registry; // the signed acme/demo, behind the hostile server
let hostile; // { server, base, log, sent }
let other; // another allowed loopback host, for redirects
let trap; // a listener nothing may reach
let trapped = 0;
let work;

/** Bytes of `total` size from a generator: the test never holds them. */
function* hugeJson(total, counter) {
  const head = '{"versions":[';
  counter.bytes += head.length;
  yield head;
  const entry = JSON.stringify({ version: "1.0.0", protocols: ["5.0"], platforms: [] }) + ",";
  const chunk = entry.repeat(Math.ceil(65536 / entry.length));
  for (let sent = 0; sent < total; sent += chunk.length) {
    counter.bytes += chunk.length;
    yield chunk;
  }
  yield '{"version":"1.0.0","platforms":[]}]}';
}

/** Sends `bytes` a byte a second (then spaces) until the client goes away. */
function trickle(res, contentType, bytes = Buffer.from("{")) {
  res.writeHead(200, { "content-type": contentType });
  let i = 0;
  const next = () => res.write(i < bytes.length ? bytes.subarray(i, ++i) : " ");
  next();
  const timer = setInterval(next, 1000);
  res.on("close", () => clearInterval(timer));
}

async function listen(server) {
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return `127.0.0.1:${server.address().port}`;
}

before(async () => {
  work = mkdtempSync(join(tmpdir(), "tflock-hostile-"));
  registry = await startRegistry({ versions: ["1.0.0"], platforms: ["darwin_arm64", "linux_amd64", "windows_amd64"] });
  trap = createTcpServer((socket) => {
    trapped++;
    socket.destroy();
  });
  const trapAt = await listen(trap);

  const log = [];
  const sent = { huge: { bytes: 0 } };
  let flaky = 0;
  const server = createServer((req, res) => {
    log.push({ path: req.url, authorization: req.headers.authorization });
    const p = "/v1/providers/acme/";
    if (req.url === p + "huge/versions") {
      res.writeHead(200, { "content-type": "application/json" });
      Readable.from(hugeJson(1024 * MB, sent.huge)).pipe(res);
    } else if (req.url === p + "slow/versions" || req.url.startsWith(p + "slow")) {
      trickle(res, "application/json");
    } else if (req.url === "/trickle.zip") {
      // A real archive's first bytes, so only the rate is wrong with it.
      trickle(res, "application/zip", registry.zips.get(zipName("1.0.0", "windows_amd64")));
    } else if (req.url === p + "wide/versions") {
      const platforms = Array.from({ length: 500 }, (_, i) => ({ os: `os${i}`, arch: "amd64" }));
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ versions: [{ version: "1.0.0", protocols: ["5.0"], platforms }] }));
    } else if (req.url === p + "toloopback/versions") {
      res.writeHead(302, { location: `http://${trapAt}/v1/providers/acme/toloopback/versions` }).end();
    } else if (req.url.startsWith(p + "toip")) {
      // Loopback and private addresses in other notations, and the cloud metadata address.
      const port = trap.address().port;
      const to = { toiphex: `0x7f000001:${port}`, toipdec: `2130706433:${port}`, toipv6: `[::1]:${port}`, toipmeta: "169.254.169.254" };
      res.writeHead(302, { location: `http://${to[req.url.split("/")[4]]}/latest/meta-data/` }).end();
    } else if (req.url === p + "tolocalhost/versions") {
      res.writeHead(302, { location: `http://localhost:${trap.address().port}/versions` }).end();
    } else if (req.url === p + "moved/versions") {
      res.writeHead(302, { location: `http://${other.at}/v1/providers/acme/moved/versions` }).end();
    } else if (req.url === p + "flaky/versions") {
      flaky++;
      if (flaky === 1) return req.socket.destroy(); // the connection is lost
      if (flaky === 2) return res.writeHead(503).end("busy");
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ versions: [{ version: "2.0.0", protocols: ["5.0"], platforms: [{ os: "linux", arch: "amd64" }] }] }));
    } else {
      // Everything else is the signed registry's.
      const body = registry.files.get(req.url);
      if (!body) return res.writeHead(404).end("not found");
      res.writeHead(200, { "content-type": req.url.endsWith(".zip") ? "application/zip" : "application/json" }).end(body);
    }
  });
  const at = await listen(server);
  hostile = { server, at, log, sent };

  const otherLog = [];
  const otherServer = createServer((req, res) => {
    otherLog.push({ path: req.url, authorization: req.headers.authorization });
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ versions: [{ version: "3.0.0", protocols: ["5.0"], platforms: [{ os: "linux", arch: "amd64" }] }] }));
  });
  other = { server: otherServer, at: await listen(otherServer), log: otherLog };

  // No queue: background h1: jobs would take slots the tests count.
  mf = startMirror({
    bindings: {
      UPLOAD_TOKEN: TOKEN,
      TFLOCK_CLI_CONFIG: `host "${HOST}" {\n  services = {\n    "providers.v1" = "http://${at}/v1/providers/"\n  }\n}\n`,
      TF_TOKEN_hostile_test: "registry-secret",
      // The hostile server, the registry's own (its download URLs) and one more host.
      TFLOCK_ALLOWED_HOSTS: [at, new URL(registry.base).host, other.at].join(","),
      TFLOCK_LIMITS: LIMITS,
    },
  });
});

after(async () => {
  await mf?.dispose();
  await registry?.close();
  for (const s of [hostile?.server, other?.server]) {
    s?.closeAllConnections();
    await new Promise((r) => (s ? s.close(r) : r()));
  }
  await new Promise((r) => (trap ? trap.close(r) : r()));
  rmSync(work, { recursive: true, force: true });
});

const get = (path, headers = {}) => mf.dispatchFetch("http://localhost" + path, { headers });
const DIR = (type) => `/${HOST}/acme/${type}/`;
const zipName = (v, p) => `terraform-provider-demo_${v}_${p}.zip`;

async function keys(prefix = "") {
  const r = await get(`/_admin/objects?prefix=${encodeURIComponent(prefix)}`, { authorization: `Bearer ${TOKEN}` });
  assert.equal(r.status, 200);
  return (await r.json()).objects.map((o) => o.key);
}

/** Answers `request` and how long it took, in ms. */
async function timed(request) {
  const t0 = Date.now();
  const r = await request;
  const text = await r.text();
  return { status: r.status, text, ms: Date.now() - t0 };
}

test("a 1 GiB versions document is cut at the document limit, streamed, and nothing is kept", async () => {
  const r = await timed(get(DIR("huge") + "index.json"));
  assert.equal(r.status, 502, r.text);
  assert.match(r.text, /has more than 4194304 bytes/);
  assert.ok(hostile.sent.huge.bytes < 64 * MB, `the origin sent ${hostile.sent.huge.bytes} bytes`);
  assert.deepEqual((await keys(`${HOST}/acme/huge/`)).length, 0);
  assert.deepEqual((await keys("_tflock/")).filter((k) => k.includes("/huge/")), []);
});

test("a 200 MB discovery document is cut at the document limit, and nothing is kept", async () => {
  // No host block: the Worker asks https://<host>/.well-known/terraform.json, which
  // Miniflare's outbound service answers here (no test may listen on port 443).
  const { Response } = tools("miniflare");
  const DISCO_HOST = "huge-disco.test";
  const sent = { bytes: 0, asked: [] };
  const chunk = new Uint8Array(64 * 1024).fill(0x20);
  const disco = startMirror({
    bindings: { UPLOAD_TOKEN: TOKEN, TFLOCK_ALLOWED_HOSTS: DISCO_HOST },
    outboundService: (req) => {
      sent.asked.push(req.url);
      if (req.url !== `https://${DISCO_HOST}/.well-known/terraform.json`) return new Response("not found", { status: 404 });
      const body = new ReadableStream({
        pull(c) {
          if (sent.bytes >= 200 * MB) return c.close();
          if (sent.bytes === 0) c.enqueue(new TextEncoder().encode('{"providers.v1":"'));
          sent.bytes += chunk.length;
          c.enqueue(chunk);
        },
      });
      return new Response(body, { headers: { "content-type": "application/json" } });
    },
  });
  try {
    const r = await disco.dispatchFetch(`http://localhost/${DISCO_HOST}/acme/demo/index.json`);
    const text = await r.text();
    assert.equal(r.status, 502, text);
    assert.match(text, /has more than 4194304 bytes/);
    assert.deepEqual(sent.asked, [`https://${DISCO_HOST}/.well-known/terraform.json`]);
    // (What the origin sent is not counted here: Miniflare's outbound service reads the
    // whole body ahead of the Worker. The versions test above counts it over a socket.)
    const listed = await disco.dispatchFetch("http://localhost/_admin/objects?prefix=", { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.deepEqual((await listed.json()).objects, []);
  } finally {
    await disco.dispose();
  }
});

test("a document trickling a byte a second ends at its deadline with 504", async () => {
  const r = await timed(get(DIR("slow") + "index.json"));
  assert.equal(r.status, 504, r.text);
  assert.match(r.text, /deadline of 3 s/);
  assert.ok(r.ms < 8000, `answered after ${r.ms} ms`);
});

test("a version listing 500 platforms is refused naming the cap, before any download answer is asked", async () => {
  const r = await timed(get(DIR("wide") + "1.0.0.json"));
  assert.equal(r.status, 502, r.text);
  assert.match(r.text, /lists 500 platforms for hostile\.test\/acme\/wide 1\.0\.0; this mirror takes at most 64/);
  assert.ok(!hostile.log.some((l) => l.path.includes("/wide/1.0.0/download/")), "download answers were asked");
  assert.deepEqual(await keys(`${HOST}/acme/wide/`), []);
});

test("redirects to loopback, IP literals in any notation and the metadata address are refused without a connection; one to an allowed host is followed without the token", async () => {
  for (const type of ["toloopback", "tolocalhost"]) {
    const r = await timed(get(DIR(type) + "index.json"));
    assert.equal(r.status, 502, `${type}: ${r.text}`);
    assert.match(r.text, /does not fetch http:\/\/(127\.0\.0\.1|localhost):\d+\/.*(IP address|localhost)/, type);
  }
  for (const type of ["toiphex", "toipdec", "toipv6", "toipmeta"]) {
    const r = await timed(get(DIR(type) + "index.json"));
    assert.equal(r.status, 502, `${type}: ${r.text}`);
    assert.match(r.text, /does not fetch http:\/\/(127\.0\.0\.1|\[::1\]|169\.254\.169\.254)(:\d+)?\/latest\/meta-data\/: it names an IP address/, type);
  }
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(trapped, 0, "the trap listener was reached");
  const moved = await get(DIR("moved") + "index.json");
  assert.equal(moved.status, 200, await moved.clone().text());
  assert.deepEqual(await moved.json(), { versions: { "3.0.0": {} } });
  assert.deepEqual(other.log, [{ path: "/v1/providers/acme/moved/versions", authorization: undefined }]);
  const asked = hostile.log.find((l) => l.path === "/v1/providers/acme/moved/versions");
  assert.equal(asked.authorization, "Bearer registry-secret", "the registry itself still gets its token");
});

test("a lost connection and a 503 are retried", async () => {
  const r = await get(DIR("flaky") + "index.json");
  assert.equal(r.status, 200, await r.clone().text());
  assert.deepEqual(await r.json(), { versions: { "2.0.0": {} } });
  assert.equal(hostile.log.filter((l) => l.path === "/v1/providers/acme/flaky/versions").length, 3);
});

test("an archive trickling a byte a second is cut at the minimum rate with 504; nothing is stored and the lease is gone", async () => {
  const rel = "/v1/providers/acme/demo/1.0.0/download/windows/amd64";
  const answer = JSON.parse(registry.files.get(rel));
  registry.files.set(rel, Buffer.from(JSON.stringify({ ...answer, download_url: `http://${hostile.at}/trickle.zip` })));
  const name = zipName("1.0.0", "windows_amd64");
  const r = await timed(get(DIR("demo") + name));
  assert.equal(r.status, 504, r.text);
  assert.match(r.text, /hostile\.test\/acme\/demo 1\.0\.0 for windows_amd64: .*minimum of 1000 bytes\/s/);
  assert.ok(r.ms < 10000, `answered after ${r.ms} ms`);
  assert.deepEqual(await keys(`${HOST}/acme/demo/${name}`), []);
  assert.deepEqual(await keys(`_tflock/lease/${HOST}/acme/demo/${name}`), []);
  assert.deepEqual(await keys(`_tflock/hashes/${HOST}/acme/demo/${name}`), []);
});

test("stalled origins give their slots back: after nine at once, a cold GET is not 429", async () => {
  const stalled = await Promise.all(
    Array.from({ length: 9 }, (_, i) => timed(get(DIR(`slow${i}`) + "index.json"))),
  );
  // Eight got a slot and hit the deadline; the ninth may have been turned away at once.
  assert.ok(stalled.filter((r) => r.status === 504).length >= 8, JSON.stringify(stalled.map((r) => r.status)));
  for (const r of stalled) assert.ok([504, 429].includes(r.status), r.text);
  const cold = await get(DIR("demo") + "index.json");
  assert.equal(cold.status, 200, await cold.text());
  const archive = await get(DIR("demo") + zipName("1.0.0", "linux_amd64"));
  assert.equal(archive.status, 200, await archive.clone().text());
  assert.ok(Buffer.from(await archive.arrayBuffer()).equals(registry.zips.get(zipName("1.0.0", "linux_amd64"))));
});

test("a release re-published with other bytes is refused loudly: the document and the archive keep what was published", async () => {
  const name = zipName("1.0.0", "darwin_arm64");
  const path = DIR("demo") + name;
  const first = await get(path);
  assert.equal(first.status, 200, await first.clone().text());
  const published = Buffer.from(await first.arrayBuffer());
  const docBefore = await (await get(DIR("demo") + "1.0.0.json")).text();

  // The origin replaces the archive and signs new sums for it.
  const rel = "/releases/demo/1.0.0/";
  const fake = storedZip([["terraform-provider-demo_v1.0.0", "#!/bin/sh\n# re-published\n"]]);
  const sha = createHash("sha256").update(fake).digest("hex");
  registry.files.set(rel + name, fake);
  const sums = registry.files
    .get(rel + "SHA256SUMS")
    .toString()
    .split("\n")
    .map((l) => (l.endsWith(name) ? `${sha}  ${name}` : l))
    .join("\n");
  const sumsPath = join(work, "SHA256SUMS");
  writeFileSync(sumsPath, sums);
  registry.gpg("--local-user", "Demo Provider Author <demo@example.com>", "--detach-sign", "--output", sumsPath + ".sig", sumsPath);
  registry.files.set(rel + "SHA256SUMS", Buffer.from(sums));
  registry.files.set(rel + "SHA256SUMS.sig", readFileSync(sumsPath + ".sig"));
  const dl = "/v1/providers/acme/demo/1.0.0/download/darwin/arm64";
  registry.files.set(dl, Buffer.from(JSON.stringify({ ...JSON.parse(registry.files.get(dl)), shasum: sha })));

  // The document is due for a refresh: the refill is refused, and it stays as it was.
  const bucket = await mf.getR2Bucket("MIRROR");
  const key = `${HOST}/acme/demo/1.0.0.json`;
  await bucket.put(key, docBefore, { customMetadata: { "filled-at": "0" }, httpMetadata: { contentType: "application/json" } });
  // The isolate keeps documents it read for a second (core::edge::hot): let that pass.
  await new Promise((r) => setTimeout(r, 1100));
  const refill = await get(DIR("demo") + "1.0.0.json");
  assert.equal(refill.status, 502, await refill.clone().text());
  assert.match(await refill.text(), /re-published hostile\.test\/acme\/demo 1\.0\.0 for darwin_arm64 with other bytes/);
  assert.equal(await (await bucket.get(key)).text(), docBefore);

  // Even with the document, its record and the archive object gone, the key keeps its claim.
  await bucket.delete([key, `_tflock/origin/${HOST}/acme/demo/1.0.0.json`, `${HOST}/acme/demo/${name}`]);
  await new Promise((r) => setTimeout(r, 1100));
  const fresh = await get(DIR("demo") + "1.0.0.json");
  assert.equal(fresh.status, 200, await fresh.clone().text());
  const again = await get(path);
  assert.equal(again.status, 502, await again.clone().text());
  assert.match(await again.text(), /re-published .*with other bytes .*never change/);
  assert.deepEqual(await keys(`${HOST}/acme/demo/${name}`), [], "the new bytes were stored");
  const claim = JSON.parse(await (await bucket.get(`_tflock/hashes/${HOST}/acme/demo/${name}`)).text());
  assert.notEqual(claim.zh, `zh:${sha}`);
  assert.ok(published.length > 0);
});
