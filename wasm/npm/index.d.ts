export * from "./tflock.js";
import type { LockOptions, PlanOutcome, PlannerOptions, SigningKey, UpdateProviderOptions, VerifiedSums } from "./tflock.js";
import type { Planner as LoadedPlanner } from "./tflock_lock.js";

// lock(), Planner and verifySha256Sums() are in a second module (tflock_lock_bg.wasm),
// loaded on the first call that needs one of them: each resolves once it is loaded.

/**
 * `lock({ requirements, lock?, platforms, fetch, ... })`: runs the planner (`providers lock`
 * by default) against the registries and mirrors, performing every request with `fetch`,
 * and resolves to the outcome (the new lock file text, the change, the diagnostics).
 */
export declare function lock(options: LockOptions): Promise<PlanOutcome>;

/**
 * `verifySha256Sums(sums, signature, keys)`: checks the detached OpenPGP signature of a
 * `SHA256SUMS` document and resolves to the `zh:` hashes it vouches for; rejects with
 * Terraform's texts when the document or the signature does not check out.
 * Asynchronous: its module loads on first use.
 */
export declare function verifySha256Sums(sums: string | Uint8Array, signature: string | Uint8Array, keys: SigningKey[]): Promise<VerifiedSums>;

/** The planner behind `init` and `providers lock`, driven from JavaScript. */
export interface Planner extends LoadedPlanner {}
/**
 * Made by `await Planner.create(options)` (its module loads on first use; `new Planner()`
 * throws). The planner's own methods (`next()`, `answer()`, `isDone()`, `finish()`) are
 * synchronous.
 */
export declare const Planner: {
  create(options: PlannerOptions): Promise<Planner>;
  [Symbol.hasInstance](value: unknown): value is Planner;
};

/**
 * Moves `provider` to `version` in `lockText` and records every platform's `h1:` and the
 * signed `zh:`s, as `providers lock -platform=... <provider>` does once the configuration
 * selects that version; every other provider is left as it is. `platforms` defaults to
 * `["locked"]`, the platforms the provider's entry covers today.
 */
export declare function updateProvider(lockText: string, options: UpdateProviderOptions): Promise<PlanOutcome>;
