// Cloudflare Workers (wrangler/workerd): a `.wasm` import is a compiled WebAssembly.Module.
import wasm from "./tflock_bg.wasm";
import { initSync } from "./tflock.js";

initSync({ module: wasm });

export * from "./tflock.js";
export * from "./update.js";
