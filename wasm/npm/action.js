#!/usr/bin/env node
// The GitHub Action (action.yml at the repository root, which runs this file as the
// package's `tflock-action` bin): locks a root module's providers
// for the given platforms with the package's `lock()` — Node and WebAssembly, no Rust on
// the runner — or checks that its lock file already covers them, and writes the change as
// Markdown to the step summary and the `diff` output.
//
// Inputs (`INPUT_*` variables, as action.yml passes them): `platforms` (required; commas,
// spaces or lines), `working-directory` (default `.`), `mode` (`lock` writes the lock file,
// `check` fails when it would change), `flavor` (`terraform` or `opentofu`), and
// `metadata-hashes` (`true`: the CLI's `-metadata-hashes`). The CLI configuration named by
// `TF_CLI_CONFIG_FILE` supplies `host` blocks, credentials and `provider_installation`, as
// for the CLI. Outputs: `changed` (`true`/`false`), `diff` (Markdown), `lock-file`.
import { readFileSync, writeFileSync, appendFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import * as tf from "./node.js";
import { renderDiffMarkdown } from "./render.js";
import { loadTree } from "./tree.js";

const LOCK_FILE_NAME = ".terraform.lock.hcl";

/**
 * An input as action.yml passes it (`INPUT_<NAME>`, `-` and spaces as `_`: the bin runs
 * under `sh`, which drops names with `-`), else as a JavaScript action's runner would.
 */
const input = (name) => {
  const env = process.env;
  const upper = name.toUpperCase();
  return (env[`INPUT_${upper.replace(/[- ]/g, "_")}`] ?? env[`INPUT_${upper.replace(/ /g, "_")}`] ?? "").trim();
};

/** A workflow command's data, escaped as the runner expects. */
const escape = (s) => s.replaceAll("%", "%25").replaceAll("\r", "%0D").replaceAll("\n", "%0A");

/** An annotation on the run (`::error::` / `::warning::`) for a diagnostic. */
function annotate(d) {
  const level = d.severity === "error" ? "error" : "warning";
  const params = [...(d.range ? [`file=${d.range.filename}`, `line=${d.range.start.line}`] : []), `title=${escape(d.summary).replaceAll(",", "%2C")}`];
  process.stdout.write(`::${level} ${params.join(",")}::${escape(d.detail || d.summary)}\n`);
}

/** Appends `name` = `value` to `GITHUB_OUTPUT` (the multi-line form). */
function setOutput(name, value) {
  const file = process.env.GITHUB_OUTPUT;
  if (!file) return;
  const delimiter = `tflock_${randomUUID()}`;
  appendFileSync(file, `${name}<<${delimiter}\n${value}\n${delimiter}\n`);
}

async function run() {
  const dir = input("working-directory") || ".";
  const platforms = input("platforms").split(/[\s,]+/).filter(Boolean);
  const mode = input("mode") || "lock";
  const flavor = input("flavor") || undefined;
  if (platforms.length === 0) throw new Error("the platforms input is required (os_arch, separated by commas)");
  if (mode !== "lock" && mode !== "check") throw new Error(`mode must be "lock" or "check", not "${mode}"`);

  const module = loadTree(dir, flavor);
  const problems = module.requirements.diagnostics.filter((d) => d.summary !== "Module directory not provided");
  problems.forEach(annotate);
  if (problems.some((d) => d.severity === "error")) return 1;
  const requirements = Object.fromEntries(module.requirements.providers.filter((p) => !p.builtin).map((p) => [p.provider, p.constraints]));

  const lockFile = join(dir, LOCK_FILE_NAME);
  let previous = null;
  try {
    previous = readFileSync(lockFile, "utf8");
  } catch {}
  const configFile = process.env.TF_CLI_CONFIG_FILE;
  const out = await tf.lock({
    requirements,
    lock: previous ?? undefined,
    platforms,
    flavor,
    fetch,
    cliConfig: configFile ? readFileSync(configFile, "utf8") : undefined,
    metadataHashes: input("metadata-hashes") === "true",
  });
  out.diagnostics.forEach(annotate);
  if (out.diagnostics.some((d) => d.severity === "error")) return 1;

  const changed = out.lockText !== previous;
  // The platforms locked (`locked` resolved to the lock file's).
  const locked = out.platforms ?? platforms;
  const markdown = renderDiffMarkdown(out.changes, `Provider lock changes in \`${dir}\` (${locked.join(", ")})`);
  if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, markdown + "\n");
  setOutput("changed", String(changed));
  setOutput("diff", markdown);
  setOutput("lock-file", lockFile);
  if (mode === "check") {
    if (!changed) return 0;
    annotate({
      severity: "error",
      summary: "Dependency lock file out of date",
      detail: `${lockFile} does not lock every required provider with hashes for ${locked.join(", ")}: run tflock providers lock${locked.map((p) => ` -platform=${p}`).join("")}`,
    });
    return 1;
  }
  if (changed) {
    // A temporary file and a rename: a cancelled job never leaves half a lock file.
    const tmp = `${lockFile}.tflock-${process.pid}.tmp`;
    writeFileSync(tmp, out.lockText);
    renameSync(tmp, lockFile);
  }
  return 0;
}

try {
  process.exitCode = await run();
} catch (e) {
  annotate({ severity: "error", summary: e.summary ?? "tflock failed", detail: e.detail ?? e.message });
  process.exitCode = 1;
}
