// The Worker `hosts.mjs` benchmarks: `/load` fetches the zip once through the ZIP service
// binding and keeps it; every other request hashes it with the package's `workerd` entry.
import * as tf from "../pkg/workerd.js";

let bytes = null;

export default {
  async fetch(request, env) {
    try {
      if (new URL(request.url).pathname === "/load") {
        bytes = new Uint8Array(await (await env.ZIP.fetch("http://zip/")).arrayBuffer());
        return Response.json({ ok: true, size: bytes.length });
      }
      return Response.json({ ok: true, h1: tf.hashZip(bytes).h1 });
    } catch (e) {
      return Response.json({ ok: false, error: String(e) });
    }
  },
};
