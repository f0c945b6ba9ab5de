// The Worker's entry module: instantiates the wasm-bindgen output (`cargo xtask worker-test`
// or the build steps in README.md put it in ./build) and hands each request to Rust.
import * as glue from "./build/tflock_worker_bg.js";
import module from "./build/tflock_worker_bg.wasm";

const instance = new WebAssembly.Instance(module, { "./tflock_worker_bg.js": glue });
glue.__wbg_set_wasm(instance.exports);
instance.exports.__wbindgen_start?.();

export default {
  fetch(request, env, ctx) {
    return glue.fetch(request, env, ctx);
  },
  // Batches of the `tflock-fill` queue (producer binding FILL). The glue exports `queue` once
  // the Rust side has an `#[event(queue)]` handler; until then a batch is acknowledged as is.
  async queue(batch, env, ctx) {
    if (typeof glue.queue === "function") return glue.queue(batch, env, ctx);
  },
};
