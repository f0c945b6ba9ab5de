// Shared helpers: load the built package through its `exports` map, run the native CLI.
import { readFileSync, existsSync } from "node:fs";
import { execFileSync, spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { deflateRawSync, crc32 } from "node:zlib";

export const root = fileURLToPath(new URL("../../", import.meta.url));
export const pkgDir = new URL("../pkg/", import.meta.url);
export const fixtures = root + "tests/fixtures/";

/** npm tools installed by `cargo xtask wasm` into wasm/tools/node_modules (git-ignored). */
export const tools = createRequire(root + "wasm/tools/package.json");

/** Cargo's target directory (CARGO_TARGET_DIR, relative to the workspace, or `target`). */
export const targetDir = (() => {
  const t = process.env.CARGO_TARGET_DIR;
  if (!t) return root + "target/";
  return (t.startsWith("/") ? t : root + t).replace(/\/?$/, "/");
})();

/** The package's Node entry, resolved as `import "tflock"` would resolve it in Node. */
export async function loadPackage() {
  const manifest = JSON.parse(readFileSync(new URL("package.json", pkgDir), "utf8"));
  const entry = manifest.exports["."].node;
  return import(new URL(entry, pkgDir).href);
}

/** The native CLI built by `cargo build -p tflock`. */
export const cli = targetDir + "debug/tflock";

/** Runs the CLI; returns { status, stdout, stderr } without throwing on a non-zero exit. */
export function runCli(args, opts = {}) {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run cargo build -p tflock`);
  const r = spawnSync(cli, args, { encoding: "utf8", cwd: root, ...opts });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Recursively renames snake_case object keys to camelCase (the package's key style). */
export function camelKeys(v) {
  if (Array.isArray(v)) return v.map(camelKeys);
  if (v && typeof v === "object") {
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => [k.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase()), camelKeys(x)]),
    );
  }
  return v;
}

/** The go-versions oracle binary (built by the Rust differential tests, or here). */
export function goVersionsOracle() {
  const bin = targetDir + "oracles/goversions";
  if (!existsSync(bin)) {
    execFileSync("go", ["build", "-o", bin, "."], {
      cwd: root + "tests/oracles/goversions",
      env: { ...process.env, GO111MODULE: "off", GOPATH: "/usr/share/gocode", GOFLAGS: "" },
    });
  }
  return bin;
}

/** A zip of `[name, bytes, method]` entries (method 8 deflates with node:zlib, 0 stores). */
export function zipOf(entries) {
  const parts = [];
  const central = [];
  let offset = 0;
  for (const [name, data, method] of entries) {
    const n = Buffer.from(name);
    const comp = method === 8 ? deflateRawSync(data) : data;
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0); h.writeUInt16LE(20, 4); h.writeUInt16LE(method, 8);
    h.writeUInt32LE(crc32(data), 14); h.writeUInt32LE(comp.length, 18); h.writeUInt32LE(data.length, 22);
    h.writeUInt16LE(n.length, 26);
    const c = Buffer.alloc(46);
    c.writeUInt32LE(0x02014b50, 0); c.writeUInt16LE(20, 4); c.writeUInt16LE(20, 6); c.writeUInt16LE(method, 10);
    c.writeUInt32LE(crc32(data), 16); c.writeUInt32LE(comp.length, 20); c.writeUInt32LE(data.length, 24);
    c.writeUInt16LE(n.length, 28); c.writeUInt32LE(offset, 42);
    parts.push(h, n, comp);
    central.push(c, n);
    offset += 30 + n.length + comp.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0); end.writeUInt16LE(entries.length, 8); end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12); end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, cd, end]);
}
