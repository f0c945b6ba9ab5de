// A tiny Worker that imports the package through its `workerd` entry (the .wasm arrives as a
// compiled WebAssembly.Module import, as wrangler bundles it) and runs the host cases; zips
// come as streamed responses from the ZIPS service binding.
import * as tf from "../../pkg/workerd.js";
import { runCases } from "../run-cases.mjs";

export default {
  async fetch(request, env) {
    try {
      const cases = await request.json();
      const results = await runCases(tf, cases, async (url) => {
        const r = await env.ZIPS.fetch("http://zips" + url);
        if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
        return r.body;
      });
      return Response.json({ ok: true, results });
    } catch (e) {
      return Response.json({ ok: false, error: `${e}\n${e?.stack ?? ""}` });
    }
  },
};
