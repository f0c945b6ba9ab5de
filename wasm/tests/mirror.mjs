// A provider network mirror for the wasm tests: `index.json` and `<version>.json` over HTTPS
// on 127.0.0.1 (mirrors must be https:), with a throwaway CA made by openssl, plus a
// `fetch` for `lock()` that trusts that CA and reports the headers the protocol needs.
import { createServer } from "node:https";
import { request } from "node:https";
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { storedZip } from "./registry.mjs";

const sha = (b) => createHash("sha256").update(b).digest();

/** Go dirhash Hash1 of a zip's [name, bytes] entries, computed independently of tflock. */
export function h1Of(entries) {
  const lines = [...entries]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, data]) => `${sha(Buffer.from(data)).toString("hex")}  ${name}\n`)
    .join("");
  return "h1:" + sha(Buffer.from(lines)).toString("base64");
}

/** A CA and a 127.0.0.1 server certificate it signed (PEM strings and the CA's file). */
function certificates(dir) {
  const ssl = (...a) => execFileSync("openssl", a, { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  ssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
    "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=tflock test CA");
  ssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
    "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1");
  writeFileSync(join(dir, "ext.cnf"),
    "subjectAltName=IP:127.0.0.1\nbasicConstraints=critical,CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n");
  ssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
    "-out", "server.pem", "-days", "2", "-extfile", "ext.cnf");
  const read = (f) => readFileSync(join(dir, f), "utf8");
  return { ca: read("ca.pem"), caFile: join(dir, "ca.pem"), key: read("server.key"), cert: read("server.pem") };
}

/**
 * Serves `host/acme/demo` at `versions` for `platforms` as a network mirror under `/mirror/`.
 * Returns { base, dir, caFile, fetch, files, zips, hashes, close() }; `files` maps a path
 * to { body, type } and may be changed while serving.
 */
export async function startMirror({ host, versions, platforms }) {
  const dir = mkdtempSync(join(tmpdir(), "tflock-wasm-mirror-"));
  const tls = certificates(dir);
  const files = new Map();
  const zips = new Map();
  const hashes = new Map();
  const server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const f = files.get(req.url);
    if (!f) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    res.writeHead(200, { "content-type": f.type }).end(f.body);
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const origin = `https://127.0.0.1:${server.address().port}`;
  const prefix = `/mirror/${host}/acme/demo/`;
  const json = (v) => ({ body: Buffer.from(JSON.stringify(v)), type: "application/json" });
  const index = {};
  for (const v of versions) {
    index[v] = {};
    const archives = {};
    for (const p of platforms) {
      const name = `terraform-provider-demo_${v}_${p}.zip`;
      const entries = [
        [`terraform-provider-demo_v${v}`, `#!/bin/sh\n# demo ${v} for ${p} (mirror)\n`],
        ["LICENSE", "MPL-2.0\n"],
      ];
      const zip = storedZip(entries);
      zips.set(name, zip);
      const h = [h1Of(entries), "zh:" + sha(zip).toString("hex")];
      hashes.set(name, h);
      files.set(`${prefix}${name}`, { body: zip, type: "application/zip" });
      archives[p] = { url: name, hashes: h };
    }
    files.set(`${prefix}${v}.json`, json({ archives }));
  }
  files.set(`${prefix}index.json`, json({ versions: index }));

  // `fetch` over node:https trusting the test CA (the global fetch has no per-call CA).
  const fetchWithCa = (url) =>
    new Promise((resolve, reject) => {
      const req = request(url, { ca: tls.ca }, (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => {
          const body = Buffer.concat(chunks);
          resolve({
            status: res.statusCode,
            statusText: res.statusMessage,
            url,
            headers: { get: (name) => res.headers[name.toLowerCase()] ?? null },
            arrayBuffer: async () => body.buffer.slice(body.byteOffset, body.byteOffset + body.length),
          });
        });
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end();
    });

  return {
    base: `${origin}/mirror/`,
    prefix,
    dir,
    caFile: tls.caFile,
    fetch: fetchWithCa,
    files,
    zips,
    hashes,
    close: () => new Promise((r) => server.close(r)),
  };
}
