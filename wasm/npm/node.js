// Node (>= 20): the module is compiled synchronously from the file next to this one, so
// every export is ready as soon as the import resolves.
import { readFileSync } from "node:fs";
import { initSync } from "./tflock.js";

initSync({ module: readFileSync(new URL("./tflock_bg.wasm", import.meta.url)) });

export * from "./tflock.js";
