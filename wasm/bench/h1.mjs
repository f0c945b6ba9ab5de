// Benchmark (not a test): h1:/zh: throughput of the wasm package under Node vs the native
// `tflock hash` (release build) on the same generated deflate zip, in one run.
//
//   node wasm/bench/h1.mjs [MiB=250]      (after `cargo xtask wasm` and `cargo build --release -p tflock`)
//
// SHA-256 is ~75% of the time with the built-in wasm SHA-256 (the zh: over the compressed
// bytes plus the h1: over the uncompressed ones); native `tflock hash` uses the CPU's SHA
// extensions (SHA-NI) when it has them, which wasm cannot. The package's Node entry point
// therefore runs SHA-256 on node:crypto; both backends are measured.
import { writeFileSync, readFileSync, createReadStream, rmSync, mkdtempSync, existsSync, appendFileSync } from "node:fs";
import { zipOf } from "../tests/helpers.mjs";
import { content, nativeCli } from "./common.mjs";
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";

const native = nativeCli();
const tf = await import(new URL("../pkg/node.js", import.meta.url).href);
const mib = Number(process.argv[2] ?? 250);


const dir = mkdtempSync(join(tmpdir(), "tflock-bench-"));
const zipPath = join(dir, "terraform-provider-bench_1.0.0_linux_amd64.zip");
const big = content(mib * 1024 * 1024, 42);
writeFileSync(zipPath, zipOf([["terraform-provider-bench_v1.0.0", big, 8], ["LICENSE", Buffer.from("MPL-2.0\n"), 8], ["README.md", content(4096, 7), 8]]));
const zipBytes = readFileSync(zipPath);
const uncompressed = big.length + 8 + 4096;
console.log(`zip: ${(zipBytes.length / 2 ** 20).toFixed(1)} MiB compressed, ${(uncompressed / 2 ** 20).toFixed(1)} MiB uncompressed`);

// Wall time and CPU time (user + system): on a busy machine the CPU-time ratio is the
// steadier one. Native CPU time comes from /usr/bin/time when it is installed.
const gnuTime = existsSync("/usr/bin/time");
function cpuNow() {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}
async function time(label, f) {
  const t = process.hrtime.bigint();
  const c = cpuNow();
  const { r, cpu } = await f();
  return { label, s: Number(process.hrtime.bigint() - t) / 1e9, cpu: cpu ?? cpuNow() - c, r };
}
function nativeHash() {
  if (!gnuTime) return { r: execFileSync(native, ["hash", zipPath], { encoding: "utf8" }).trim().split("\n")[0] };
  const out = spawnSync("/usr/bin/time", ["-f", "cpu %U %S", native, "hash", zipPath], { encoding: "utf8" });
  if (out.status !== 0) throw new Error(out.stderr);
  const [, u, sys] = out.stderr.trim().split("\n").pop().split(" ");
  return { r: out.stdout.trim().split("\n")[0], cpu: Number(u) + Number(sys) };
}
async function streamed(chunk) {
  const hasher = new tf.ZipHasher();
  for await (const c of createReadStream(zipPath, { highWaterMark: chunk })) hasher.update(c);
  return { r: hasher.finish().h1 };
}

// Two SHA-256 backends: the package's Node default (node:crypto, installed by its Node
// entry point) and the built-in wasm one (what browsers and Workers run).
const backends = [
  ["node:crypto", () => tf.setSha256(() => createHash("sha256"))],
  ["wasm sha256", () => tf.setSha256(null)],
];
const runs = [];
for (let i = 0; i < 3; i++) {
  runs.push(await time("native tflock hash", async () => nativeHash()));
  for (const [name, use] of backends) {
    use();
    runs.push(await time(`hashZip, ${name} (whole buffer)`, async () => ({ r: tf.hashZip(zipBytes).h1 })));
    runs.push(await time(`ZipHasher, ${name} (64 KiB chunks)`, () => streamed(64 * 1024)));
    runs.push(await time(`ZipHasher, ${name} (1 MiB chunks)`, () => streamed(1024 * 1024)));
  }
}
const h1s = new Set(runs.map((r) => r.r));
if (h1s.size !== 1) throw new Error(`hashes differ: ${[...h1s]}`);
const best = {};
const bestCpu = {};
for (const r of runs) {
  best[r.label] = Math.min(best[r.label] ?? Infinity, r.s);
  bestCpu[r.label] = Math.min(bestCpu[r.label] ?? Infinity, r.cpu);
}
const nat = best["native tflock hash"];
const natCpu = bestCpu["native tflock hash"];
for (const [label, s] of Object.entries(best)) {
  const cpu = gnuTime ? `; cpu ${bestCpu[label].toFixed(2)} s, ${(natCpu / bestCpu[label]).toFixed(2)}x native` : "";
  console.log(`${label.padEnd(40)} best of 3: wall ${s.toFixed(2)} s, ${(uncompressed / 2 ** 20 / s).toFixed(0)} MiB/s (uncompressed), ${(nat / s).toFixed(2)}x native${cpu}`);
  // The summary `cargo xtask bench` prints: the streamed 1 MiB-chunk rows (what hosts do).
  if (process.env.TFLOCK_BENCH_SUMMARY && label.includes("1 MiB chunks")) {
    const goal = label.includes("node:crypto") ? ">= 0.5x" : "-";
    appendFileSync(process.env.TFLOCK_BENCH_SUMMARY, `wasm\tNode, ${label}, ${mib} MiB: wasm / native throughput\t${(nat / s).toFixed(2)}x\t${goal}\n`);
  }
}
console.log(`h1 (all agree): ${[...h1s][0]}`);
rmSync(dir, { recursive: true, force: true });
