// A tiny provider registry for the planner tests: stored zips written here, SHA256SUMS signed
// by GnuPG, served over loopback HTTP with the registry protocol's paths.
import { createServer } from "node:http";
import { createHash } from "node:crypto";
import { crc32 } from "node:zlib";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A zip with stored (uncompressed) entries: [name, bytes][] → Buffer. */
export function storedZip(entries) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const [name, data] of entries) {
    const n = Buffer.from(name);
    const d = Buffer.from(data);
    const crc = crc32(d);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(d.length, 18);
    local.writeUInt32LE(d.length, 22);
    local.writeUInt16LE(n.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(d.length, 20);
    central.writeUInt32LE(d.length, 24);
    central.writeUInt16LE(n.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, n, d);
    centrals.push(central, n);
    offset += 30 + n.length + d.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

const sha = (b) => createHash("sha256").update(b).digest("hex");

/** The archive `startRegistry` publishes unless told otherwise: a tiny stored zip. */
export const demoZip = (v, p) =>
  storedZip([
    [`terraform-provider-demo_v${v}`, `#!/bin/sh\n# demo ${v} for ${p}\n`],
    ["LICENSE", "MPL-2.0\n"],
  ]);

/**
 * Publishes `acme/demo` at `versions` for `platforms` and starts serving it; `zip(version,
 * platform)` gives an archive's bytes (the Worker bench publishes a 300 MB one this way).
 * Returns { base, files (path → Buffer), zips (name → Buffer), dir, close() }.
 */
export async function startRegistry({ versions, platforms, zip: zipFor = demoZip }) {
  const dir = mkdtempSync(join(tmpdir(), "tflock-wasm-registry-"));
  const gpg = (...a) =>
    execFileSync("gpg", ["--homedir", dir, "--batch", "--yes", "--pinentry-mode", "loopback", "--passphrase", "", ...a]);
  const uid = "Demo Provider Author <demo@example.com>";
  gpg("--quick-generate-key", uid, "ed25519", "sign", "never");
  const armor = gpg("--armor", "--export", uid).toString();
  const keyId = gpg("--with-colons", "--list-keys", uid).toString().split("\n").find((l) => l.startsWith("pub:")).split(":")[4];

  const files = new Map();
  const zips = new Map();
  const requests = [];
  const server = createServer((req, res) => {
    requests.push({ path: req.url, authorization: req.headers.authorization });
    const body = files.get(req.url);
    // CORS, so the playground's Lock action can ask it from a page on another origin.
    const cors = { "access-control-allow-origin": "*" };
    if (!body) {
      res.writeHead(404, { "content-type": "text/plain", ...cors }).end("not found");
      return;
    }
    res
      .writeHead(200, { "content-type": req.url.endsWith(".zip") ? "application/zip" : "application/json", "content-length": body.length, ...cors })
      .end(body);
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${server.address().port}`;
  const providers = "/v1/providers/acme/demo/";
  const listing = [];
  for (const v of versions) {
    const rel = `/releases/demo/${v}/`;
    const sums = [];
    for (const p of platforms) {
      const [os, arch] = p.split("_");
      const name = `terraform-provider-demo_${v}_${p}.zip`;
      const zip = zipFor(v, p);
      zips.set(name, zip);
      files.set(rel + name, zip);
      sums.push(`${sha(zip)}  ${name}`);
      files.set(
        `${providers}${v}/download/${os}/${arch}`,
        Buffer.from(
          JSON.stringify({
            protocols: ["5.0"],
            os,
            arch,
            filename: name,
            download_url: `${base}${rel}${name}`,
            shasum: sha(zip),
            shasums_url: `${base}${rel}SHA256SUMS`,
            shasums_signature_url: `${base}${rel}SHA256SUMS.sig`,
            signing_keys: { gpg_public_keys: [{ key_id: keyId, ascii_armor: armor }] },
          }),
        ),
      );
    }
    const doc = sums.join("\n") + "\n";
    writeFileSync(join(dir, "SUMS"), doc);
    gpg("--local-user", uid, "--detach-sign", "--output", join(dir, "SUMS.sig"), join(dir, "SUMS"));
    files.set(rel + "SHA256SUMS", Buffer.from(doc));
    files.set(rel + "SHA256SUMS.sig", readFileSync(join(dir, "SUMS.sig")));
    listing.push({ version: v, protocols: ["5.0"], platforms: platforms.map((p) => ({ os: p.split("_")[0], arch: p.split("_")[1] })) });
  }
  files.set(`${providers}versions`, Buffer.from(JSON.stringify({ versions: listing })));
  return { base, providersUrl: `${base}/v1/providers/`, files, zips, dir, keyId, requests, gpg, close: () => new Promise((r) => { server.close(r); server.closeAllConnections(); }) };
}
