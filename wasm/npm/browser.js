// Browsers and bundlers: fetches and instantiates the .wasm next to this module with a
// top-level await, so the exports are ready when the import resolves. The second module
// (lock(), Planner, verifySha256Sums) is fetched the same way on the first call that needs it.
import init from "./tflock.js";
import { setLoader } from "./locking.js";

await init({ module_or_path: new URL("./tflock_bg.wasm", import.meta.url) });
setLoader(async () => {
  const m = await import("./tflock_lock.js");
  await m.default({ module_or_path: new URL("./tflock_lock_bg.wasm", import.meta.url) });
  return m;
});

export * from "./tflock.js";
export { lock, Planner, setSha256, verifySha256Sums } from "./locking.js";
export * from "./update.js";
