// Cloudflare Workers (wrangler/workerd): a `.wasm` import is a compiled WebAssembly.Module.
// The second module (lock(), Planner, verifySha256Sums) is instantiated on the first call
// that needs it.
import wasm from "./tflock_bg.wasm";
import lockWasm from "./tflock_lock_bg.wasm";
import { initSync } from "./tflock.js";
import { setLoader } from "./locking.js";

initSync({ module: wasm });
setLoader(async () => {
  const m = await import("./tflock_lock.js");
  m.initSync({ module: lockWasm });
  return m;
});

export * from "./tflock.js";
export { lock, Planner, setSha256, verifySha256Sums } from "./locking.js";
export * from "./update.js";
