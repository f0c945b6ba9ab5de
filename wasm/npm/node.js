// Node (>= 20): the module is compiled synchronously from the file next to this one, so
// every export is ready as soon as the import resolves. Hashing runs SHA-256 on
// node:crypto, which uses the CPU's SHA instructions that wasm cannot reach (same hashes;
// `setSha256(null)` switches back to the built-in wasm SHA-256).
import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { initSync, setSha256 } from "./tflock.js";

initSync({ module: readFileSync(new URL("./tflock_bg.wasm", import.meta.url)) });
setSha256(() => createHash("sha256"));

export * from "./tflock.js";
export * from "./update.js";
