// Node (>= 20): the module is compiled synchronously from the file next to this one, so
// every export is ready as soon as the import resolves; the second module (lock(),
// Planner, verifySha256Sums) is read the same way on the first call that needs it. Hashing
// runs SHA-256 on node:crypto, which uses the CPU's SHA instructions that wasm cannot reach
// (same hashes; `setSha256(null)` switches back to the built-in wasm SHA-256).
import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { initSync } from "./tflock.js";
import { setLoader, setSha256 } from "./locking.js";

initSync({ module: readFileSync(new URL("./tflock_bg.wasm", import.meta.url)) });
setLoader(async () => {
  const m = await import("./tflock_lock.js");
  m.initSync({ module: readFileSync(new URL("./tflock_lock_bg.wasm", import.meta.url)) });
  return m;
});
setSha256(() => createHash("sha256"));

export * from "./tflock.js";
export { lock, Planner, setSha256, verifySha256Sums } from "./locking.js";
export * from "./update.js";
