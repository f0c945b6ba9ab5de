// Reading a module tree from disk for `loadModule`, as the native CLI reads it: the bin's
// `providers lock` (cli.js) and the GitHub Action (action.js).
import { readFileSync, readdirSync, statSync, existsSync } from "node:fs";
import { join, normalize } from "node:path";
import * as tf from "./node.js";

/** The configuration and test files of one directory, as the native CLI reads them. */
export function readDirFiles(dir) {
  const wanted = /\.(tf|tf\.json|tofu|tofu\.json|tftest\.hcl|tftest\.json|tofutest\.hcl|tofutest\.json)$/;
  const files = [];
  for (const name of readdirSync(dir).sort()) {
    if (!wanted.test(name) || !statSync(join(dir, name)).isFile()) continue;
    files.push({ name, content: readFileSync(join(dir, name)) });
  }
  return files;
}

/**
 * The module in `dir` and its local child modules, as `loadModule` reads a tree: the
 * directories it says were not provided are read and the tree loaded again.
 */
export function loadTree(dir, flavor) {
  const modules = {};
  for (;;) {
    const root = readDirFiles(dir);
    const m = tf.loadModule(root, { flavor, modules });
    // The one signal of a directory still to read is this warning, naming it.
    const wanted = m.requirements.diagnostics
      .filter((d) => d.summary === "Module directory not provided")
      .map((d) => /^The files of (.+) \(module\./.exec(d.detail)?.[1])
      .filter((rel) => rel && !(rel in modules) && existsSync(join(dir, rel)));
    if (wanted.length === 0) {
      // The files' text by the names diagnostics give them, for their source lines.
      m.sources = Object.fromEntries(root.map((f) => [f.name, f.content]));
      for (const [rel, files] of Object.entries(modules)) {
        for (const f of files) m.sources[`${rel}/${f.name}`] = f.content;
      }
      return m;
    }
    for (const rel of wanted) modules[rel] = readDirFiles(join(dir, normalize(rel)));
  }
}
