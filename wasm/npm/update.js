// `updateProvider()`: a dependency bot's bump of one provider, as one `lock()` call. The
// bump itself is planned in the module (the core's `install::ProviderUpdate`, behind the
// `__updateTo` option): this file only shapes the call, which costs the module nothing.
import { lock } from "./locking.js";

/**
 * Moves `provider` to `version` in `lockText` and records every platform's `h1:` and the
 * signed `zh:`s, as `providers lock -platform=... <provider>` does once the configuration
 * selects that version; every other provider is left as it is. `platforms` defaults to
 * `["locked"]`: the platforms the provider's entry covers today, named as the CLI names
 * them (the sources' metadata, and the `cache`'s `h1:` for each `zh:`). Takes `lock()`'s
 * sources, `fetch`, `cache`, `metadataHashes` and `onProgress`; resolves to `lock()`'s
 * outcome, its changes measured from `lockText`.
 */
export function updateProvider(lockText, options) {
  const { provider, version, constraints } = options ?? {};
  for (const [name, value] of [["provider", provider], ["version", version]]) {
    if (typeof value !== "string") {
      return Promise.reject(Object.assign(new Error(`Invalid argument: "${name}" is required`), { severity: "error", summary: "Invalid argument", detail: `"${name}" is required`, file: null, range: null }));
    }
  }
  return lock({
    ...options,
    platforms: options.platforms ?? ["locked"],
    lock: lockText,
    // The recorded constraints: the given ones, or ("") the lock entry's.
    requirements: { [provider]: constraints ?? "" },
    mode: "providers-lock",
    __updateTo: version,
  });
}
