// Browsers and bundlers: fetches and instantiates the .wasm next to this module with a
// top-level await, so the exports are ready when the import resolves.
import init from "./tflock.js";

await init({ module_or_path: new URL("./tflock_bg.wasm", import.meta.url) });

export * from "./tflock.js";
export * from "./update.js";
