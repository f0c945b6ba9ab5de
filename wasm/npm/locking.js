// `lock()`, `Planner` and `verifySha256Sums()` live in a second module, `tflock_lock_bg.wasm`
// (the registry and mirror protocols, OpenPGP, the planner), so that `import` loads only
// `tflock_bg.wasm` (README.md, "Size"). The entry point of each runtime says how to load it
// (`setLoader`); this file loads it once, on the first call that needs it.
import { setSha256 as setMainSha256 } from "./tflock.js";

/** The entry's loader: () => Promise of the second module's initialized exports. */
let loader = null;
/** The load in progress or done (null before the first call, and again after a failure). */
let loading = null;
/** The second module once loaded, so `setSha256` reaches it too. */
let loaded = null;
/** The last `setSha256` argument, for the second module when it loads (undefined: none). */
let sha256;

/** Set by the entry point: how this runtime loads the second module. */
export function setLoader(load) {
  loader = load;
}

function second() {
  loading ??= loader().then(
    (m) => {
      if (sha256 !== undefined) m.setSha256(sha256);
      loaded = m;
      return m;
    },
    (e) => {
      // A failed fetch (offline, say) is tried again on the next call.
      loading = null;
      throw e;
    },
  );
  return loading;
}

/** `setSha256` for both modules: the main one now, the second one now or when it loads. */
export function setSha256(digest) {
  setMainSha256(digest);
  sha256 = digest;
  loaded?.setSha256(digest);
}

/** `lock(options)`: see the README, "Locking providers". */
export async function lock(options) {
  return (await second()).lock(options);
}

/** `verifySha256Sums(sums, signature, keys)`, resolving to what the signature vouches for. */
export async function verifySha256Sums(sums, signature, keys) {
  return (await second()).verifySha256Sums(sums, signature, keys);
}

/**
 * The install planner driven by hand. Made by `await Planner.create(options)`: its module
 * loads on first use, so there is no synchronous constructor. The planner it resolves to
 * has the synchronous `next()`, `answer()`, `isDone()` and `finish()`.
 */
export class Planner {
  constructor() {
    throw new TypeError("Planner: create one with `await Planner.create(options)` (its module is loaded on first use)");
  }

  /** A planner for `options` (PlannerOptions), once the second module is loaded. */
  static async create(options) {
    return new (await second()).Planner(options);
  }

  /** `planner instanceof Planner` holds for the planners `create` makes. */
  static [Symbol.hasInstance](value) {
    return loaded !== null && value instanceof loaded.Planner;
  }
}
