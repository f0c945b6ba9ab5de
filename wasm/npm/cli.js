#!/usr/bin/env node
// `npx tflock ...`: the native CLI's offline commands and `providers lock` on Node, over the
// package's exports.
// Same command names, flags (Terraform's one-dash spelling too), outputs and exit codes
// as the native `tflock` (0 success, 1 error, 2 differences found):
//
//   tflock hash [--json] PATH...                   zips and unpacked provider directories
//   tflock lockfile fmt [FILE] [-w | -check] [--flavor F]
//   tflock lockfile check [FILE] [--flavor F]
//   tflock lockfile diff OLD NEW [--json] [-exit-code]
//   tflock lockfile coverage [-platform=OS_ARCH...] [--flavor F] [--json]
//   tflock merge [DIR] [--flavor F]
//   tflock version [-json]                         (also -v, -version, --version)
//   tflock providers lock [-platform=OS_ARCH|locked...] [-net-mirror=URL] [-metadata-hashes]
//                         [-no-hash-cache] [DIR...] (Node's fetch; the CLI's hash cache;
//                         without -platform: TFLOCK_PLATFORMS, the CLI configuration's
//                         tflock_platforms, else this machine's and those the lock covers)
//   -chdir=DIR before the command, as the native CLI.
//
// Every rule is the package's (the same core as the native CLI); this file only reads
// files, prints and picks the exit status.
import { readFileSync, writeFileSync, readdirSync, lstatSync, statSync, realpathSync, renameSync, chmodSync, mkdirSync, existsSync } from "node:fs";
import { join, dirname, basename } from "node:path";
import { homedir } from "node:os";
import * as tf from "./node.js";
import { renderDiff } from "./render.js";
import { readDirFiles, loadTree } from "./tree.js";

const LOCK_FILE_NAME = ".terraform.lock.hcl";
/** Exit status of the check modes when they find something to change. */
const DIFFERENCES_FOUND = 2;

class Usage extends Error {}

const out = (s) => process.stdout.write(s);
const err = (s) => process.stderr.write(s);

/** A diagnostic as the native CLI prints it on stderr (then a blank line). */
function printDiagnostic(d) {
  printDiagnostics([d]);
}

/** The text of the files read whose diagnostics show source lines, by the names they use. */
const sources = {};

/** Prints diagnostics as the native CLI does off a terminal: core renders them, in
 * Terraform's display order, with the source lines of the files read. */
function printDiagnostics(list) {
  const plain = list.map((d) => ({ severity: d.severity, summary: d.summary, detail: d.detail ?? "", range: d.range ?? null, ...(d.context ? { context: d.context } : {}) }));
  err(tf.renderDiagnostics(plain, sources));
}

/** Node's error as Rust's `io::Error` Display words it (`... (os error N)`). */
function ioText(e) {
  const words = {
    ENOENT: ["No such file or directory", 2],
    EACCES: ["Permission denied", 13],
    EISDIR: ["Is a directory", 21],
    ENOTDIR: ["Not a directory", 20],
    ELOOP: ["Too many levels of symbolic links", 40],
  }[e.code];
  return words ? `${words[0]} (os error ${words[1]})` : e.message;
}

/** Splits argv into flags (`--name[=value]`, one-dash long names too) and positionals. */
function parse(args, spec) {
  const flags = {};
  const positional = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--") {
      positional.push(...args.slice(i + 1));
      break;
    }
    const m = /^--?([a-zA-Z][\w-]*)(?:=(.*))?$/.exec(a);
    if (!m) {
      if (a.startsWith("-") && a !== "-") throw new Usage(`unexpected argument '${a}' found`);
      positional.push(a);
      continue;
    }
    const name = m[1];
    if (!(name in spec)) throw new Usage(`unexpected argument '${a}' found`);
    if (spec[name] === "value" || spec[name] === "values") {
      const v = m[2] ?? args[++i];
      if (v === undefined) throw new Usage(`a value is required for '--${name} <${name.toUpperCase()}>' but none was supplied`);
      if (spec[name] === "values") (flags[name] ??= []).push(v);
      else flags[name] = v;
    } else {
      if (m[2] !== undefined) throw new Usage(`unexpected value '${m[2]}' for '--${name}' found; no more were expected`);
      flags[name] = true;
    }
  }
  return { flags, positional };
}

function flavorOption(v) {
  if (v === undefined) return undefined;
  if (v !== "terraform" && v !== "opentofu") {
    throw new Usage(`invalid value '${v}' for '--flavor <FLAVOR>': "${v}" is neither "terraform" nor "opentofu"\n\nFor more information, try '--help'.`);
  }
  return v;
}

/** The names of the files in `dir` (none when it cannot be listed). */
function fileNames(dir) {
  try {
    return readdirSync(dir).filter((n) => {
      try {
        return statSync(join(dir, n)).isFile();
      } catch {
        return false;
      }
    });
  } catch {
    return [];
  }
}

/**
 * The flavour for the module in `dir` whose lock file text is `lockText` (or null), as the
 * native CLI picks it without `-flavor`; prints the CLI's line about the choice.
 */
function workdirFlavor(given, lockText, dir) {
  const choice = chooseFlavor(given, lockText, fileNames(dir));
  if (choice.message) err(`${choice.message}\n`);
  return choice.flavor;
}

const PRODUCT = { terraform: "Terraform", opentofu: "OpenTofu" };
const COMMAND = { terraform: "terraform", opentofu: "tofu" };

/**
 * A copy of the core's `install::choose_flavor` and its `message` (the differential test
 * holds the two together): `given`, else the product the lock file's first line names
 * (the header `formatLock` writes), else OpenTofu when the directory has `.tofu` files,
 * else Terraform. Exported from the module it would cost 3 KB gzipped, over the package's
 * size ceiling until issue 32 item 1 shrinks the module.
 */
function chooseFlavor(given, lockText, names) {
  if (given) return { flavor: given, message: null };
  const tofu = names.filter((n) => /\.tofu(\.json)?$/.test(n)).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  const first = (lockText ?? "").split("\n")[0].replace(/^\uFEFF/, "").replace(/\r+$/, "");
  const header = lockText === null ? undefined : ["opentofu", "terraform"].find((f) => first === tf.formatLock({ providers: [] }, { flavor: f }).split("\n")[0]);
  const say = (flavor, why) => ({
    flavor,
    message: `tflock: following ${PRODUCT[flavor]} (${why}); -flavor=${flavor === "terraform" ? "opentofu" : "terraform"} overrides`,
  });
  if (header === "terraform") {
    return tofu.length === 0 ? { flavor: header, message: null } : say(header, `${LOCK_FILE_NAME} was written by "terraform init"; ${tofu[0]} is ignored`);
  }
  if (header === "opentofu") return say(header, `${LOCK_FILE_NAME} was written by "${COMMAND[header]} init"`);
  if (tofu.length > 0) return say("opentofu", `${tofu[0]} is OpenTofu configuration`);
  return { flavor: "terraform", message: null };
}

/**
 * Reads and parses a lock file: `{ text, lock, diagnostics }`; HCL's error when unreadable.
 * With `inDir`, the flavour is the working directory's (the file's directory), as the CLI's
 * `lockfile fmt` and `check` pick it; without, the file's header (`lockfile diff`).
 */
function loadLock(path, flavor, inDir = false) {
  let bytes;
  try {
    bytes = readFileSync(path);
  } catch {
    return {
      text: "",
      lock: null,
      diagnostics: [{ severity: "error", summary: "Failed to read file", detail: `The configuration file "${path}" could not be read.` }],
    };
  }
  // Terraform's commands show no lock file source; tflock's own lockfile commands do.
  sources[path] = bytes;
  const text = new TextDecoder().decode(bytes); // U+FFFD for bad bytes; a BOM is dropped
  if (inDir) flavor = workdirFlavor(flavor, new TextDecoder().decode(bytes), dirname(path));
  const { lock, diagnostics } = tf.parseLock(text, { filename: path, flavor });
  return { text, lock, diagnostics };
}

/** Prints the diagnostics; true when one is an error. */
function report(loaded) {
  printDiagnostics(loaded.diagnostics);
  return loaded.diagnostics.some((d) => d.severity === "error");
}

/** Writes through a temporary file in the same directory and a rename, keeping the mode. */
function writeAtomically(path, text) {
  const tmp = join(dirname(path), `.${basename(path)}.tflock-${process.pid}.tmp`);
  let mode = 0o644;
  try {
    mode = statSync(path).mode & 0o7777;
  } catch {}
  writeFileSync(tmp, text, { mode });
  chmodSync(tmp, mode);
  renameSync(tmp, path);
}

function lockfileFmt(args) {
  const { flags, positional } = parse(args, { w: "flag", write: "flag", check: "flag", flavor: "value" });
  if (positional.length > 1) throw new Usage(`unexpected argument '${positional[1]}' found`);
  const write = flags.w || flags.write;
  if (write && flags.check) throw new Usage("the argument '--write' cannot be used with '--check'");
  const path = positional[0] ?? LOCK_FILE_NAME;
  const loaded = loadLock(path, flavorOption(flags.flavor), true);
  if (report(loaded)) return 1;
  const text = tf.formatLock(loaded.lock, { flavor: loaded.lock.flavor });
  if (flags.check) {
    if (text === loaded.text) return 0;
    out(`${path}\n`);
    return DIFFERENCES_FOUND;
  }
  if (!write) {
    out(text);
    return 0;
  }
  if (text !== loaded.text) writeAtomically(path, text);
  return 0;
}

function lockfileCheck(args) {
  const { flags, positional } = parse(args, { flavor: "value", config: "value" });
  if (flags.config !== undefined) {
    err("Error: lockfile check --config needs the native tflock (module trees are read by the CLI's host)\n");
    return 1;
  }
  if (positional.length > 1) throw new Usage(`unexpected argument '${positional[1]}' found`);
  const path = positional[0] ?? LOCK_FILE_NAME;
  const loaded = loadLock(path, flavorOption(flags.flavor), true);
  if (report(loaded)) return 1;
  const n = loaded.lock.providers.length;
  out(`${path}: valid, ${n} provider${n === 1 ? "" : "s"} locked\n`);
  return 0;
}

/** snake_case keys, as the native CLI's JSON documents have them. */
function snakeKeys(v) {
  if (Array.isArray(v)) return v.map(snakeKeys);
  if (v && typeof v === "object") {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k.replace(/[A-Z]/g, (c) => "_" + c.toLowerCase()), snakeKeys(x)]));
  }
  return v;
}

/** The members of `lockfile diff --json`'s objects in the order the native CLI writes them. */
const DIFF_ORDER = ["provider", "changes", "kind", "version", "constraints", "checksums", "scheme", "count", "from", "to", "direction", "schemes", "removed", "added"];

/** `v` with object members in DIFF_ORDER (the package's objects come with sorted keys). */
function ordered(v) {
  if (Array.isArray(v)) return v.map(ordered);
  if (v && typeof v === "object") {
    const rank = (k) => (DIFF_ORDER.includes(k) ? DIFF_ORDER.indexOf(k) : DIFF_ORDER.length);
    return Object.fromEntries(Object.entries(v).sort(([a], [b]) => rank(a) - rank(b)).map(([k, x]) => [k, ordered(x)]));
  }
  return v;
}

/** JSON as the native CLI prints it: an object with `"format_version": "1.0"` first. */
function printJson(value) {
  out(JSON.stringify({ format_version: "1.0", ...value }, null, 2) + "\n");
}

function lockfileDiff(args) {
  const { flags, positional } = parse(args, { json: "flag", "exit-code": "flag" });
  if (positional.length !== 2) throw new Usage("lockfile diff takes the lock file before and the lock file after");
  const o = loadLock(positional[0]);
  const n = loadLock(positional[1]);
  const badOld = report(o);
  if (report(n) || badOld) return 1;
  const d = tf.diffLock(o.lock, n.lock);
  if (flags.json) printJson(ordered(snakeKeys(d)));
  else out(renderDiff(d));
  return flags["exit-code"] && d.providers.length > 0 ? DIFFERENCES_FOUND : 0;
}

/**
 * `lockfile coverage`: which of the wanted platforms (default this machine's) the lock's
 * checksums cover, from the sources' metadata and the hash cache, without downloading a
 * package; 0 complete, 2 a platform missing, 1 a source that could not be asked. The
 * module asks the sources (`lock()`'s coverage mode) and `lockCoverage()` judges.
 */
async function lockfileCoverage(args) {
  const { flags, positional } = parse(args, { platform: "values", flavor: "value", json: "flag" });
  if (positional.length > 0) throw new Usage(`unexpected argument '${positional[0]}' found`);
  const given = flags.flavor ?? (process.env.TFLOCK_FLAVOR || undefined);
  if (given !== undefined && given !== "terraform" && given !== "opentofu") {
    err(`Error: invalid -flavor: "${given}" is neither "terraform" nor "opentofu"\n`);
    return 1;
  }
  const wanted = flags.platform ?? [platform()];
  for (const p of wanted) {
    // The module's parser, in the CLI's words (`locked` is no platform here).
    const bad = p === "locked" ? "must be two words separated by an underscore" : await platformError(p);
    if (bad) {
      err(`Error: invalid -platform ${JSON.stringify(p)}: ${bad}\n`);
      return 1;
    }
  }
  let lockText = null;
  try {
    lockText = new TextDecoder().decode(readFileSync(LOCK_FILE_NAME));
  } catch {}
  const flavor = workdirFlavor(given, lockText, ".");
  const parsed = lockText === null ? { lock: { providers: [] }, diagnostics: [] } : tf.parseLock(lockText, { filename: LOCK_FILE_NAME, flavor });
  const diags = [...parsed.diagnostics];
  if (diags.some((d) => d.severity === "error")) {
    printDiagnostics(diags);
    return 1;
  }
  const configFile = cliConfigFile(flavor);
  let found;
  try {
    found = await tf.lock({
      requirements: {},
      lock: parsed.lock,
      platforms: wanted,
      flavor,
      fetch,
      cliConfig: configFile ? readFileSync(configFile, "utf8") : undefined,
      cache: fileCache(),
      __coverage: true,
    });
  } catch (e) {
    if (!e.summary) throw e;
    diags.push(e);
    printDiagnostics(diags);
    return 1;
  }
  diags.push(...found.diagnostics);
  const report = tf.lockCoverage(parsed.lock, found.known, wanted);
  printDiagnostics(diags);
  const unchecked = (provider, p) => found.unchecked.some(([a, b]) => a === provider && b === p);
  if (flags.json) {
    printJson({
      platforms: wanted,
      // Members in the native CLI's (serde_json's sorted) order.
      providers: report.providers.map((p) => ({
        covered: p.covered,
        hashes: p.hashPlatforms,
        missing: p.missing.filter((pl) => !unchecked(p.provider, pl)),
        provider: p.provider,
        unchecked: p.missing.filter((pl) => unchecked(p.provider, pl)),
        version: p.version,
      })),
    });
  } else {
    for (const p of report.providers) {
      const missing = p.missing.filter((pl) => !unchecked(p.provider, pl));
      const unknown = p.missing.filter((pl) => unchecked(p.provider, pl));
      const parts = [];
      if (missing.length > 0) parts.push(`missing ${missing.join(", ")}`);
      if (unknown.length > 0) parts.push(`not checked ${unknown.join(", ")} (see the errors)`);
      const covers = p.covered.length === 0 ? "no wanted platform" : p.covered.join(", ");
      out(`${found.display[p.provider] ?? p.provider} ${p.version}: covers ${covers} — ${parts.length === 0 ? "ok" : parts.join("; ")}\n`);
    }
  }
  if (diags.some((d) => d.severity === "error")) return 1;
  return report.complete ? 0 : DIFFERENCES_FOUND;
}

/** Why `name` is no platform, in the core parser's words (null when it is one). */
async function platformError(name) {
  try {
    await tf.Planner.create({ requirements: {}, platforms: [name] });
    return null;
  } catch (e) {
    return /target platform: ([\s\S]*)\.$/.exec(e.detail ?? "")?.[1] ?? e.detail ?? e.message;
  }
}

async function lockfile(args) {
  const [sub, ...rest] = args;
  switch (sub) {
    case "fmt":
      return lockfileFmt(rest);
    case "check":
      return lockfileCheck(rest);
    case "diff":
      return lockfileDiff(rest);
    case "coverage":
      return lockfileCoverage(rest);
    default:
      throw new Usage(sub === undefined ? "lockfile needs a subcommand: fmt, check, diff or coverage" : `unrecognized subcommand '${sub}' (the npm bin has fmt, check, diff and coverage)`);
  }
}

/** Non-directories under `dir`, as Go's dirhash lists them (symlinks listed, read through). */
function walk(dir, prefix, files) {
  const names = readdirSync(dir).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  for (const name of names) {
    const rel = prefix ? `${prefix}/${name}` : name;
    const full = join(dir, name);
    const st = lstatSync(full);
    if (st.isDirectory()) walk(full, rel, files);
    else if (st.isFile() || st.isSymbolicLink()) files.push({ path: rel, bytes: readFileSync(full) });
    else throw new Error(`${rel} is not a regular file`);
  }
}

/** One path's hashes: `{ kind, path, h1, zh?, h1_archive? }` as `tflock hash --json`. */
function hashPath(path) {
  let st;
  try {
    st = statSync(path);
  } catch (e) {
    throw new Error(`cannot read: ${ioText(e)}`);
  }
  if (st.isDirectory()) {
    const files = [];
    walk(realpathSync(path), "", files);
    return { kind: "directory", path, h1: tf.hashFiles(files).h1 };
  }
  let bytes;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw new Error(`cannot open: ${ioText(e)}`);
  }
  const z = tf.hashZip(bytes);
  return { kind: "zip", path, h1: z.h1, zh: z.zh, h1_archive: z.h1Archive ?? z.h1 };
}

function hash(args) {
  const { flags, positional } = parse(args, { json: "flag" });
  if (positional.length === 0) throw new Usage("the following required arguments were not provided: <PATHS>...");
  const results = [];
  let failed = false;
  for (const path of positional) {
    try {
      results.push(hashPath(path));
    } catch (e) {
      // The package throws `Cannot hash provider package` with the core's reason as the
      // detail; the native CLI prints the reason.
      err(`Error: ${path}: ${e.detail || e.summary || e.message}\n`);
      failed = true;
    }
  }
  if (flags.json) {
    printJson({ files: results });
  } else {
    for (const r of results) {
      const lines = r.kind === "zip" ? [r.h1, r.zh, ...(r.h1_archive !== r.h1 ? [r.h1_archive] : [])] : [r.h1];
      for (const h of lines) out(positional.length > 1 ? `${h}  ${r.path}\n` : `${h}\n`);
    }
  }
  return failed ? 1 : 0;
}

function merge(args) {
  const { flags, positional } = parse(args, { flavor: "value", json: "flag", requirements: "flag" });
  if (flags.json || flags.requirements) {
    err("Error: merge --json and --requirements need the native tflock\n");
    return 1;
  }
  if (positional.length > 1) throw new Usage(`unexpected argument '${positional[1]}' found`);
  const dir = positional[0] ?? ".";
  const given = flags.flavor ?? (process.env.TFLOCK_FLAVOR || undefined);
  if (given !== undefined && given !== "terraform" && given !== "opentofu") {
    err(`Error: invalid -flavor: "${given}" is neither "terraform" nor "opentofu"\n`);
    return 1;
  }
  let lockText = null;
  try {
    lockText = new TextDecoder().decode(readFileSync(join(dir, LOCK_FILE_NAME)));
  } catch {}
  const flavor = workdirFlavor(given, lockText, dir);
  let files;
  try {
    files = readDirFiles(dir);
  } catch {
    printDiagnostic({ severity: "error", summary: "Failed to read module directory", detail: `Module directory ${dir} does not exist or cannot be read.` });
    return 1;
  }
  // Only this directory's own files: no child modules take part in a merge.
  for (const f of files) sources[f.name] = f.content;
  const m = tf.loadModule(files, { flavor });
  printDiagnostics(m.diagnostics);
  if (m.diagnostics.some((d) => d.severity === "error")) return 1;
  out(m.merged);
  return 0;
}

/** Node's platform in Go's `os_arch` names, as the native CLI prints its own. */
function platform() {
  const os = { win32: "windows" }[process.platform] ?? process.platform;
  const arch = { x64: "amd64", ia32: "386", loong64: "loong64", ppc64: "ppc64le" }[process.arch] ?? process.arch;
  return `${os}_${arch}`;
}

function version(args) {
  const { flags, positional } = parse(args, { json: "flag" });
  if (positional.length > 0) throw new Usage(`unexpected argument '${positional[0]}' found`);
  const selections = {};
  try {
    const text = new TextDecoder().decode(readFileSync(LOCK_FILE_NAME));
    const { lock } = tf.parseLock(text);
    for (const p of lock?.providers ?? []) selections[p.provider] = p.version;
  } catch {}
  const sorted = Object.fromEntries(Object.entries(selections).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const doc = { tflock_version: tf.version(), platform: platform(), provider_selections: sorted, tflock_outdated: false };
  if (flags.json) {
    printJson(doc);
    return 0;
  }
  let text = `tflock v${doc.tflock_version}\non ${doc.platform}\n`;
  for (const [p, v] of Object.entries(sorted)) text += v === "0.0.0" ? `+ provider ${p} (unversioned)\n` : `+ provider ${p} v${v}\n`;
  out(`${text}\n`);
  return 0;
}

/** The CLI configuration file in effect, as the native CLI locates it (or null). */
function cliConfigFile(flavor) {
  if (process.env.TF_CLI_CONFIG_FILE) return process.env.TF_CLI_CONFIG_FILE;
  const names = flavor === "opentofu" ? [".tofurc", ".terraformrc"] : [".terraformrc"];
  return names.map((n) => join(homedir(), n)).find((p) => existsSync(p)) ?? null;
}

/**
 * `text` without its top-level `provider_installation` blocks: `providers lock` ignores the
 * configured installation methods, as Terraform does (upstream registries, or the one mirror
 * given), while `lock()` would honour them. Strings and comments are skipped over.
 */
function withoutInstallation(text) {
  const start = /^[ \t]*provider_installation\s*\{/m.exec(text);
  if (!start) return text;
  let depth = 0;
  for (let i = start.index; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
    } else if (c === "#" || (c === "/" && text[i + 1] === "/")) {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return withoutInstallation(text.slice(0, start.index) + text.slice(i + 1));
  }
  return text;
}

/**
 * The CLI's verified hash cache directory (`TFLOCK_CACHE_DIR`, else the user cache
 * directory) as `lock()`'s `cache`: the same files, so both binaries share one cache.
 */
function fileCache() {
  const root = process.env.TFLOCK_CACHE_DIR || (process.env.XDG_CACHE_HOME ? join(process.env.XDG_CACHE_HOME, "tflock") : join(homedir(), ".cache", "tflock"));
  const dir = join(root, "zh");
  return {
    get(key) {
      try {
        const e = JSON.parse(readFileSync(join(dir, `${key}.json`), "utf8"));
        return { h1: e.h1, h1Archive: e.h1_archive, size: e.size };
      } catch {
        return undefined;
      }
    },
    put(key, hashes) {
      try {
        mkdirSync(dir, { recursive: true });
        writeAtomically(join(dir, `${key}.json`), JSON.stringify({ h1: hashes.h1, h1_archive: hashes.h1Archive, size: hashes.size }));
      } catch {}
    },
  };
}

async function providersLock(args) {
  const { flags, positional } = parse(args, {
    platform: "values",
    "net-mirror": "value",
    "fs-mirror": "value",
    "metadata-hashes": "flag",
    "no-hash-cache": "flag",
    "enable-plugin-cache": "flag",
    parallelism: "value",
    json: "flag",
    flavor: "value",
    // Terraform's, accepted and ignored as the native CLI does.
    "test-directory": "value",
    var: "values",
    "var-file": "values",
  });
  for (const native of ["fs-mirror", "enable-plugin-cache", "json"]) {
    if (flags[native] !== undefined) {
      err(`Error: providers lock -${native} needs the native tflock (the npm bin reads no plugin or mirror directories)\n`);
      return 1;
    }
  }
  const dirs = positional.filter((p) => existsSync(p) && statSync(p).isDirectory());
  const providers = positional.filter((p) => !dirs.includes(p));
  if (providers.length > 0) {
    err("Error: providers lock with provider arguments needs the native tflock\n");
    return 1;
  }
  let failed = false;
  const all = dirs.length > 0 ? dirs : ["."];
  for (const dir of all) {
    if (all.length > 1) out(`\n${dir}:\n`);
    failed ||= !(await lockOne(dir, flags));
  }
  return failed ? 1 : 0;
}

/** Locks the root module in `dir`, as the native CLI's `lock_one`; true on success. */
async function lockOne(dir, flags) {
  const lockFile = join(dir, LOCK_FILE_NAME);
  let lockText = null;
  try {
    lockText = new TextDecoder().decode(readFileSync(lockFile));
  } catch {}
  const flavor = workdirFlavor(flavorOption(flags.flavor ?? (process.env.TFLOCK_FLAVOR || undefined)), lockText, dir);
  const configFile = cliConfigFile(flavor);
  const cliConfig = configFile ? withoutInstallation(readFileSync(configFile, "utf8")) : undefined;
  const tree = loadTree(dir, flavor);
  Object.assign(sources, tree.sources);
  const diags = tree.requirements.diagnostics.filter((d) => d.summary !== "Module directory not provided");
  let previous;
  if (lockText !== null) {
    const parsed = tf.parseLock(lockText, { filename: LOCK_FILE_NAME, flavor });
    diags.push(...parsed.diagnostics);
    previous = parsed.lock ?? undefined;
  }
  printDiagnostics(diags);
  if (diags.some((d) => d.severity === "error")) return false;
  const requirements = Object.fromEntries(tree.requirements.providers.filter((p) => !p.builtin).map((p) => [p.provider, p.constraints]));
  let outcome;
  try {
    outcome = await tf.lock({
      requirements,
      lock: previous,
      // Core chooses as for the CLI: the flags, else TFLOCK_PLATFORMS, else the CLI
      // configuration's tflock_platforms, else this machine's (and a several-platform
      // lock's); `locked` is every platform the lock covers.
      platforms: flags.platform,
      __platformsEnv: process.env.TFLOCK_PLATFORMS,
      __currentPlatform: platform(),
      flavor,
      fetch,
      cliConfig,
      networkMirror: flags["net-mirror"],
      metadataHashes: flags["metadata-hashes"] === true,
      cache: flags["no-hash-cache"] ? undefined : fileCache(),
    });
  } catch (e) {
    if (!e.summary) throw e;
    printDiagnostic(e);
    return false;
  }
  if (outcome.platformNote) err(`${outcome.platformNote}\n`);
  const errors = outcome.diagnostics.some((d) => d.severity === "error");
  if (outcome.writeLock && !errors) writeAtomically(lockFile, outcome.lockText);
  for (const m of outcome.messages) out(`${m.replace(/\[(bold|reset|green|red|yellow)\]/g, "")}\n`);
  printDiagnostics(outcome.diagnostics);
  return !errors;
}

async function providers(args) {
  const [sub, ...rest] = args;
  if (sub === "lock") return providersLock(rest);
  throw new Usage(sub === undefined ? "providers needs a subcommand: the npm bin has lock" : `unrecognized subcommand '${sub}' (the npm bin has providers lock)`);
}

async function main(argv) {
  const args = [...argv];
  const chdir = args.length > 0 && /^--?chdir(=|$)/.test(args[0]) ? args.shift() : null;
  if (chdir !== null) {
    const dir = chdir.includes("=") ? chdir.slice(chdir.indexOf("=") + 1) : args.shift();
    try {
      process.chdir(dir);
    } catch (e) {
      err(`Error handling -chdir option: chdir ${dir}: ${ioText(e).replace(/ \(os error \d+\)$/, "").toLowerCase()}\n`);
      return 1;
    }
  }
  if (["-v", "-version", "--version"].includes(args[0])) args[0] = "version";
  const [command, ...rest] = args;
  try {
    switch (command) {
      case "hash":
        return hash(rest);
      case "lockfile":
        return await lockfile(rest);
      case "merge":
        return merge(rest);
      case "version":
        return version(rest);
      case "providers":
        return await providers(rest);
      case undefined:
      case "help":
      case "-h":
      case "--help":
        (command === undefined ? err : out)(
          "Usage: tflock <hash|lockfile fmt|check|diff|merge|providers lock|version> ...\n(`init` and the rest need the native tflock)\n",
        );
        return command === undefined ? 1 : 0;
      default:
        throw new Usage(`unrecognized subcommand '${command}' (the npm bin has hash, lockfile, merge, providers lock and version)`);
    }
  } catch (e) {
    if (e instanceof Usage) {
      err(`error: ${e.message}\n`);
      return 1;
    }
    err(`Error: ${e.summary ? [e.summary, e.detail].filter(Boolean).join(": ") : e.message}\n`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
