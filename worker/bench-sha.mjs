// Benchmark (not a test) behind the Worker's choice of SHA-256: the streaming zip hasher in
// workerd with the core's `sha2` in wasm against `node:crypto` (native; the `nodejs_compat`
// flag the Worker sets), on the same zip in the same workerd, as workerd's CPU seconds per
// run (its clocks stand still while a request computes). It drives the npm package's
// `workerd` entry (`setSha256` switches the digest), so `cargo xtask wasm` must have built
// wasm/pkg; the Worker's own build exposes no hasher to call.
//
//   node worker/bench-sha.mjs [MiB=64]
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { root, tools } from "../wasm/tests/helpers.mjs";
import { storedZip } from "../wasm/tests/registry.mjs";

const mib = Number(process.argv[2] ?? 64);
const RUNS = 3;
const zip = storedZip([["terraform-provider-demo_v1", randomBytes(mib * 1024 * 1024)], ["LICENSE", "MPL-2.0\n"]]);
const dir = mkdtempSync(join(tmpdir(), "tflock-bench-sha-"));
const script = join(dir, "worker.mjs");
// Modules resolve under "/" (modulesRoot): the package is imported relative to the script.
writeFileSync(
  script,
  `import * as tf from "./${relative(dir, root + "wasm/pkg/workerd.js")}";
import { createHash } from "node:crypto";
let bytes = null;
export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === "/load") {
      bytes = new Uint8Array(await (await env.ZIP.fetch("http://zip/")).arrayBuffer());
      return Response.json({ size: bytes.length });
    }
    tf.setSha256(url.searchParams.get("sha") === "node" ? () => createHash("sha256") : null);
    const h = new tf.ZipHasher();
    for (let at = 0; at < bytes.length; at += 64 * 1024) h.update(bytes.subarray(at, Math.min(bytes.length, at + 64 * 1024)));
    const r = h.finish();
    return Response.json({ h1: r.h1, zh: r.zh });
  },
};
`,
);
const { Miniflare, Response } = tools("miniflare");
const mf = new Miniflare({
  modules: true,
  modulesRoot: "/",
  scriptPath: script,
  modulesRules: [
    { type: "ESModule", include: ["**/*.js", "**/*.mjs"] },
    { type: "CompiledWasm", include: ["**/*.wasm"] },
  ],
  compatibilityDate: "2026-04-01",
  compatibilityFlags: ["nodejs_compat"],
  cf: false,
  serviceBindings: { ZIP: () => new Response(zip) },
});
try {
  await (await mf.dispatchFetch("http://localhost/load")).json();
  // workerd is the child Miniflare started; its CPU seconds from /proc (Linux).
  const pids = execFileSync("pgrep", ["-P", String(process.pid)], { encoding: "utf8" }).trim().split("\n");
  const cpu = () =>
    pids.reduce((sum, pid) => {
      try {
        const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
        return sum + (Number(f[11]) + Number(f[12])) / 100;
      } catch {
        return sum;
      }
    }, 0);
  const runs = { wasm: [], node: [] };
  const h1 = {};
  for (let i = 0; i < RUNS; i++) {
    for (const sha of ["wasm", "node"]) {
      const before = cpu();
      h1[sha] = (await (await mf.dispatchFetch("http://localhost/hash?sha=" + sha)).json()).h1;
      runs[sha].push(cpu() - before);
    }
  }
  const best = (a) => Math.min(...a);
  console.log(
    `${mib} MiB stored zip, streaming ZipHasher (64 KiB chunks) in workerd, CPU seconds, best of ${RUNS}: ` +
      `sha2 in wasm ${best(runs.wasm).toFixed(2)} s, node:crypto ${best(runs.node).toFixed(2)} s ` +
      `(${(best(runs.wasm) / best(runs.node)).toFixed(1)}x); the same h1: ${h1.wasm === h1.node ? "yes" : "NO"}`,
  );
  if (h1.wasm !== h1.node) process.exitCode = 1;
} finally {
  await mf.dispose();
  rmSync(dir, { recursive: true, force: true });
}
