// Shared by the wasm benchmarks: the native CLI they compare with and provider-like content.
import { existsSync } from "node:fs";
import { targetDir } from "../tests/helpers.mjs";

/** The release CLI (`cargo build --release -p tflock`), the native baseline. */
export function nativeCli() {
  const native = targetDir + "release/tflock";
  if (!existsSync(native)) throw new Error("build the native CLI first: cargo build --release -p tflock");
  return native;
}

/** Provider-like content: pseudo-random runs and filler, deflating about 2:1. */
export function content(size, seed) {
  const out = Buffer.alloc(size);
  let x = seed >>> 0;
  for (let i = 0; i < size; i += 4) {
    x = (x * 1664525 + 1013904223) >>> 0;
    out.writeUInt32LE((i >> 6) % 3 === 0 ? x : 0x90909090, i);
  }
  return out;
}
