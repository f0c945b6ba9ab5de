// Which hosts the Worker pulls through (TFLOCK_ALLOWED_HOSTS, core::edge::allow): provider
// hosts that are IP literals in every notation, localhost, explicit ports and unlisted names,
// aimed at a trap listener with the registry token configured, are each a 4xx that
// connects nowhere and stores nothing; by default even a `host` block's loopback origin is
// not fetched; a private mirror wants its read token on every read.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:net";
import { startMirror } from "./mirror.mjs";
import { startRegistry } from "../../wasm/tests/registry.mjs";

const HOST = "registry.test";
const TOKEN = "operator-token";
const hostBlock = (url) => `host "${HOST}" {\n  services = {\n    "providers.v1" = "${url}"\n  }\n}\n`;

let origin;
let trap;
let trapped = 0;
const mirrors = [];

before(async () => {
  origin = await startRegistry({ versions: ["1.0.0"], platforms: ["linux_amd64"] });
  trap = createServer((socket) => {
    trapped++;
    socket.destroy();
  });
  await new Promise((r) => trap.listen(0, "127.0.0.1", r));
});
after(async () => {
  for (const mf of mirrors) await mf.dispose();
  await origin?.close();
  await new Promise((r) => (trap ? trap.close(r) : r()));
});

function mirror(bindings) {
  const mf = startMirror({ bindings: { UPLOAD_TOKEN: TOKEN, TF_TOKEN_registry_test: "registry-secret", ...bindings } });
  mirrors.push(mf);
  return {
    fetch: (path, init = {}) => mf.dispatchFetch("http://localhost" + path, init),
    async keys() {
      const r = await mf.dispatchFetch("http://localhost/_admin/objects?prefix=", { headers: { authorization: `Bearer ${TOKEN}` } });
      assert.equal(r.status, 200);
      return (await r.json()).objects.map((o) => o.key);
    },
  };
}

test("hosts that are not listed are never pulled through: IP literals in every notation, localhost, ports, other names", async () => {
  const m = mirror({ TFLOCK_CLI_CONFIG: hostBlock(origin.providersUrl), TFLOCK_ALLOWED_HOSTS: new URL(origin.base).host });
  const port = trap.address().port;
  const hosts = [
    `127.0.0.1:${port}`,
    `0x7f000001:${port}`,
    `2130706433:${port}`,
    `0177.0.0.1:${port}`,
    `127.1:${port}`,
    `0x7f.0.0.1:${port}`,
    `[::1]:${port}`,
    `[::ffff:127.0.0.1]:${port}`,
    `localhost:${port}`,
    `LOCALHOST:${port}`,
    `api.localhost:${port}`,
    `${HOST}:${port}`,
    `u@127.0.0.1:${port}`,
    `u:p@${HOST}`,
    "127.0.0.1",
    "localhost",
    "evil.example",
    "169.254.169.254",
  ];
  const stored = await m.keys();
  const originRequests = origin.requests.length;
  for (const host of hosts) {
    for (const last of ["index.json", "1.0.0.json", "terraform-provider-demo_1.0.0_linux_amd64.zip"]) {
      for (const method of ["GET", "HEAD", "PUT"]) {
        const init = { method, headers: { authorization: `Bearer ${TOKEN}` } };
        if (method === "PUT") init.body = "PK";
        const r = await m.fetch(`/${host}/acme/demo/${last}`, init);
        assert.ok(r.status >= 400 && r.status < 500, `${method} /${host}/acme/demo/${last}: ${r.status}`);
        if (method === "GET" && r.status === 403) assert.match(await r.text(), /TFLOCK_ALLOWED_HOSTS/);
      }
    }
  }
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(trapped, 0, "the trap listener was reached");
  assert.equal(origin.requests.length, originRequests, "the origin was asked");
  assert.deepEqual(await m.keys(), stored, "the bucket changed");
  // The control: the listed registry is pulled through, with its token.
  const control = await m.fetch(`/${HOST}/acme/demo/index.json`);
  assert.equal(control.status, 200, await control.clone().text());
  assert.deepEqual(origin.requests.slice(originRequests), [{ path: "/v1/providers/acme/demo/versions", authorization: "Bearer registry-secret" }]);
});

test("by default a host block's loopback origin is not fetched: 502 naming the setting, and no request", async () => {
  const m = mirror({ TFLOCK_CLI_CONFIG: hostBlock(origin.providersUrl) });
  const before = origin.requests.length;
  const r = await m.fetch(`/${HOST}/acme/demo/index.json`);
  assert.equal(r.status, 502);
  assert.match(await r.text(), /does not fetch http:\/\/127\.0\.0\.1:\d+\/v1\/providers\/acme\/demo\/versions: it names an IP address \(unless TFLOCK_ALLOWED_HOSTS lists it\)/);
  assert.equal(origin.requests.length, before);
  // Neither are unlisted registries: the default lists only the public two and host blocks.
  const other = await m.fetch(`/127.0.0.1:${trap.address().port}/acme/demo/index.json`);
  assert.equal(other.status, 403);
  assert.deepEqual(await m.keys(), []);
});

test("a private mirror wants its read token (or the operator's) on every read, compared in full", async () => {
  const m = mirror({
    TFLOCK_CLI_CONFIG: hostBlock(origin.providersUrl),
    TFLOCK_ALLOWED_HOSTS: new URL(origin.base).host,
    TFLOCK_READ_TOKEN: "reader-secret",
  });
  const path = `/${HOST}/acme/demo/index.json`;
  const before = origin.requests.length;
  for (const auth of [undefined, "Bearer ", "Bearer reader-secre", "Bearer reader-secretx", "reader-secret", "Basic cmVhZGVyLXNlY3JldA=="]) {
    const r = await m.fetch(path, { headers: auth ? { authorization: auth } : {} });
    assert.equal(r.status, 401, `${auth}`);
    assert.match(r.headers.get("www-authenticate"), /^Bearer/);
  }
  assert.equal((await m.fetch("/nothing")).status, 401, "unknown paths too: nothing is told without the token");
  assert.equal(origin.requests.length, before, "an unauthorised read reached the origin");
  assert.deepEqual(await m.keys(), []);
  for (const token of ["reader-secret", TOKEN]) {
    const r = await m.fetch(path, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(r.status, 200, await r.clone().text());
  }
  // Browsers send preflights without credentials.
  assert.equal((await m.fetch(path, { method: "OPTIONS" })).status, 204);
});

test("a namespace upload token (TFLOCK_UPLOAD_TOKENS) opens its namespace and no other", async () => {
  const { storedZip } = await import("../../wasm/tests/registry.mjs");
  const m = mirror({ TFLOCK_PRIVATE_HOSTS: "corp.example", TFLOCK_UPLOAD_TOKENS: JSON.stringify({ "corp.example/team-a": "team-a-token" }) });
  const zip = storedZip([["terraform-provider-demo_v1.0.0", "#!/bin/sh\n"]]);
  const put = (ns, token) =>
    m.fetch(`/corp.example/${ns}/demo/terraform-provider-demo_1.0.0_linux_amd64.zip`, { method: "PUT", body: zip, headers: { authorization: `Bearer ${token}` } });
  assert.equal((await put("team-b", "team-a-token")).status, 401);
  assert.equal((await put("Team-A", "wrong")).status, 401);
  const r = await put("Team-A", "team-a-token");
  assert.equal(r.status, 201, await r.clone().text());
  assert.deepEqual((await m.keys()).filter((k) => !k.startsWith("_tflock/")).sort(), [
    "corp.example/team-a/demo/1.0.0.json",
    "corp.example/team-a/demo/index.json",
    "corp.example/team-a/demo/terraform-provider-demo_1.0.0_linux_amd64.zip",
  ]);
});

test("only the operator's token backfills and lists the bucket, and a backfill past its version cap is refused naming it", async () => {
  const m = mirror({
    UPLOAD_TOKEN_registry_test: "host-token",
    TFLOCK_UPLOAD_TOKENS: JSON.stringify({ "registry.test/acme": "namespace-token" }),
    TFLOCK_LIMITS: "backfill_versions=2",
  });
  const backfill = (auth, versions) =>
    m.fetch("/_admin/backfill", {
      method: "POST",
      headers: auth ? { authorization: auth } : {},
      body: JSON.stringify({ providers: [`${HOST}/acme/demo`], versions }),
    });
  const list = (auth) => m.fetch("/_admin/objects?prefix=", { headers: auth ? { authorization: auth } : {} });
  // An uploader's token (for the host, or a namespace in it) is not the operator's.
  for (const auth of [undefined, "Bearer host-token", "Bearer namespace-token", `Bearer ${TOKEN}x`, TOKEN]) {
    assert.equal((await backfill(auth, ["1.0.0"])).status, 401, `backfill with ${auth}`);
    assert.equal((await list(auth)).status, 401, `listing with ${auth}`);
  }
  const over = await backfill(`Bearer ${TOKEN}`, ["1.0.0", "1.1.0", "1.2.0"]);
  assert.equal(over.status, 400);
  assert.match(await over.text(), /at most 2 versions.*TFLOCK_LIMITS backfill_versions/);
  // The control: the operator's token backfills within the cap and lists the bucket.
  const ok = await backfill(`Bearer ${TOKEN}`, ["1.0.0", "1.1.0"]);
  assert.equal(ok.status, 202, await ok.clone().text());
  assert.equal((await list(`Bearer ${TOKEN}`)).status, 200);
});
