// The Worker's entry with its R2 bucket counted, for tests that prove a request makes no
// polling loop: every call the Worker makes on `MIRROR` is recorded as [method, key], and
// `GET /_test/r2-ops` (answered here, never by the Worker) returns the calls since the last
// such request. The test's own bucket calls (`mf.getR2Bucket`) are not counted.
import worker from "../entry.mjs";

const COUNTED = ["head", "get", "put", "delete", "list", "createMultipartUpload", "resumeMultipartUpload"];
const ops = [];

function counted(bucket) {
  return new Proxy(bucket, {
    get(target, prop) {
      const value = Reflect.get(target, prop);
      if (typeof value !== "function" || prop === "constructor") return value;
      if (!COUNTED.includes(prop)) return value.bind(target);
      return (...args) => {
        ops.push([prop, typeof args[0] === "string" ? args[0] : ""]);
        return value.apply(target, args);
      };
    },
  });
}

export default {
  fetch(request, env, ctx) {
    if (new URL(request.url).pathname === "/_test/r2-ops") return new Response(JSON.stringify(ops.splice(0)));
    return worker.fetch(request, { ...env, MIRROR: counted(env.MIRROR) }, ctx);
  },
  queue(batch, env, ctx) {
    return worker.queue(batch, { ...env, MIRROR: counted(env.MIRROR) }, ctx);
  },
};
