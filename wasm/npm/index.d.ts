export * from "./tflock.js";
import type { PlanOutcome, UpdateProviderOptions } from "./tflock.js";
/**
 * Moves `provider` to `version` in `lockText` and records every platform's `h1:` and the
 * signed `zh:`s, as `providers lock -platform=... <provider>` does once the configuration
 * selects that version; every other provider is left as it is. `platforms` defaults to
 * `["locked"]`, the platforms the provider's entry covers today.
 */
export declare function updateProvider(lockText: string, options: UpdateProviderOptions): Promise<PlanOutcome>;
