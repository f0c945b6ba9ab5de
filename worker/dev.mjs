// A local dev server for the edge mirror Worker, for people (`cargo xtask worker-dev`) and for
// the Rust integration tests (`tflock_tests::edge_dev`): the built Worker (worker/build/, see
// README.md) in workerd through Miniflare, with the bindings of wrangler.toml.
//
//   node worker/dev.mjs [--port P] [--https --cert FILE --key FILE] [--cli-config FILE]
//                       [--persist DIR] [--upload-token T] [--var NAME=VALUE]...
//
// When it is listening it prints one JSON line, {"url":"http(s)://127.0.0.1:PORT/"}, to stdout
// (the only thing it ever prints there, so callers can wait for it); Miniflare's and the
// Worker's logs go to stderr. It runs until SIGTERM or SIGINT, which stop workerd too.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = fileURLToPath(new URL("../", import.meta.url));
const fail = (message) => {
  process.stderr.write(`worker/dev.mjs: ${message}\n`);
  process.exit(2);
};

const { values: args } = parseArgs({
  options: {
    port: { type: "string", default: "8787" },
    https: { type: "boolean", default: false },
    cert: { type: "string" },
    key: { type: "string" },
    "cli-config": { type: "string" },
    persist: { type: "string" },
    "upload-token": { type: "string" },
    var: { type: "string", multiple: true, default: [] },
  },
});
const port = Number(args.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`bad --port ${args.port}`);
if (args.https && !(args.cert && args.key)) fail("--https needs --cert FILE and --key FILE");
if (!existsSync(root + "worker/build/tflock_worker_bg.wasm")) {
  fail("worker/build/ is missing: build the Worker first (cargo xtask worker-test or worker-dev)");
}

// Miniflare comes from the npm tools `cargo xtask wasm` installs (wasm/tools/node_modules).
let Miniflare, Log;
try {
  ({ Miniflare, Log } = createRequire(root + "wasm/tools/package.json")("miniflare"));
} catch {
  fail("miniflare is missing from wasm/tools/node_modules: run cargo xtask worker-test");
}

// Secrets and vars, as `wrangler secret put` / [vars] would give them. TF_TOKEN_<host> comes
// from this process's environment so credentials never appear on a command line.
const bindings = {};
for (const [name, value] of Object.entries(process.env)) {
  if (name.startsWith("TF_TOKEN_")) bindings[name] = value;
}
if (args["cli-config"]) bindings.TFLOCK_CLI_CONFIG = readFileSync(args["cli-config"], "utf8");
if (args["upload-token"]) bindings.UPLOAD_TOKEN = args["upload-token"];
for (const pair of args.var) {
  const eq = pair.indexOf("=");
  if (eq <= 0) fail(`--var wants NAME=VALUE, not ${pair}`);
  bindings[pair.slice(0, eq)] = pair.slice(eq + 1);
}

/** Miniflare's own log (ready, request lines) on stderr: stdout carries only the URL line. */
class StderrLog extends Log {
  log(message) {
    process.stderr.write(message + "\n");
  }
}

const mf = new Miniflare({
  modules: true,
  scriptPath: root + "worker/entry.mjs",
  modulesRules: [
    { type: "CompiledWasm", include: ["**/*.wasm"], fallthrough: true },
    { type: "ESModule", include: ["**/*.js"], fallthrough: true },
  ],
  compatibilityDate: "2026-04-01",
  compatibilityFlags: ["nodejs_compat"], // node:crypto's SHA-256, as wrangler.toml sets it
  host: "127.0.0.1",
  port,
  ...(args.https
    ? { httpsCert: readFileSync(args.cert, "utf8"), httpsKey: readFileSync(args.key, "utf8") }
    : {}),
  r2Buckets: ["MIRROR"],
  queueProducers: { FILL: { queueName: "tflock-fill" } },
  // As in wrangler.toml; Miniflare counts maxBatchTimeout in seconds.
  queueConsumers: { "tflock-fill": { maxBatchSize: 10, maxBatchTimeout: 1, maxRetries: 3 } },
  bindings,
  // R2 (and any other storage) survives restarts under DIR; Miniflare keeps queues in memory.
  ...(args.persist ? { defaultPersistRoot: args.persist } : {}),
  cf: false,
  log: new StderrLog(),
  logRequests: true,
  // workerd's stdout (the Worker's console.log) joins stderr too.
  handleRuntimeStdio(stdout, stderr) {
    stdout.pipe(process.stderr);
    stderr.pipe(process.stderr);
  },
});

let url;
try {
  url = await mf.ready;
} catch (e) {
  fail(`Miniflare did not start: ${e?.stack ?? e}`);
}
process.stdout.write(JSON.stringify({ url: url.href }) + "\n");

// Miniflare's own exit hook stops workerd on SIGINT/SIGTERM and exits with 128 + the signal;
// this is the fallback should it ever leave the signals to us.
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, () => mf.dispose().finally(() => process.exit(0)));
}
