/** Whose rules, texts and defaults to follow. */
export type Flavor = "terraform" | "opentofu";

/** Options taking only a flavour (Terraform when omitted). */
export interface FlavorOptions { flavor?: Flavor | "tofu"; }

/** A position: 1-based line and column (characters), 0-based byte offset. */
export interface Pos { line: number; column: number; byte: number; }

/** A span of a named file. */
export interface Range { filename: string; start: Pos; end: Pos; }

/** A problem report with Terraform's or OpenTofu's texts. */
export interface Diagnostic {
  severity: "error" | "warning";
  summary: string;
  detail: string;
  /** The file the range points into, or null. */
  file: string | null;
  range: Range | null;
  /** A wider range around `range` that the source snippet shows (HCL's context), if any. */
  context?: Range;
}

/** What every function throws: an Error carrying a diagnostic's fields. */
export interface TflockError extends Error, Diagnostic {
  /** Only from hashing: the stream cannot be hashed without random access; use hashZip. */
  needsRandomAccess?: boolean;
}

/** The hashes of a provider zip. */
export interface ZipHashes {
  /** The lock-file `h1:` (the directory the zip extracts to). */
  h1: string;
  /** `zh:` + hex SHA-256 of the archive bytes. */
  zh: string;
  /** Go's `dirhash.HashZip` form, present only when it differs from `h1`. */
  h1Archive?: string;
}

/** An incremental SHA-256 object for `setSha256`; Node's `crypto.Hash` is one. */
export interface Sha256Digest {
  update(bytes: Uint8Array): unknown;
  digest(): Uint8Array;
}

/** One file of an unpacked package. */
export interface HashFile { path: string; bytes: Uint8Array | ArrayBuffer | string; }

/** `parseConstraints` result. */
export interface ParsedConstraints {
  /** Terraform's canonical form (`VersionConstraintsString`). */
  canonical: string;
  /** Each selection in canonical form, in written order. */
  selections: string[];
}

/** `selectVersion` result. */
export interface Selected {
  /** The chosen version, or null when nothing matched. */
  version: string | null;
  /** The canonical constraints. */
  constraints: string;
  /** Human-readable outcome, then one line per newer candidate that was passed over. */
  explanation: string;
  /** Candidates newer than the pick (all, when nothing matched), newest first. */
  rejected: { version: string; reasons: string[] }[];
  /** Inputs that are not valid versions (skipped). */
  invalidVersions: string[];
}

/** One provider's entry in a lock file. */
export interface ProviderLock {
  /** Full address, e.g. `registry.terraform.io/hashicorp/aws`. */
  provider: string;
  version: string;
  /** Canonical constraints, "" when none. */
  constraints: string;
  hashes: string[];
}

/** A lock file's contents. */
export interface Lock { flavor?: Flavor; providers: ProviderLock[]; }

/** `parseLock` options. */
export interface ParseLockOptions extends FlavorOptions {
  /** File name used in diagnostics (default `.terraform.lock.hcl`). */
  filename?: string;
}

/**
 * `parseLock` result. `lock` is `null` when a diagnostic is an error: what the file's valid
 * parts hold is not the file (a duplicate block or an invalid one is left out), and the CLI
 * refuses such a file too.
 */
export interface ParsedLock { lock: (Lock & { flavor: Flavor }) | null; diagnostics: Diagnostic[]; }

/** One change to a provider's entry (`kind` decides the other fields). */
export type LockChange =
  | { kind: "new_provider"; version: string; constraints: string; checksums: { scheme: string; count: number }[] }
  | { kind: "removed_provider"; version: string }
  | { kind: "new_version"; from: string; to: string; direction: "upgrade" | "downgrade" | "other" }
  | { kind: "constraints_changed"; from: string; to: string }
  | { kind: "new_checksums"; schemes: string[]; added: string[] }
  | { kind: "removed_checksums"; removed: string[] }
  | { kind: "checksums_replaced"; removed: number; added: number };

/** `diffLock` result (same data as `tflock lockfile diff --json`, camelCase keys). */
export interface LockDiff { providers: { provider: string; changes: LockChange[] }[]; }

/** `mergeLock` result. */
export interface MergedLock {
  /** The merged file, with conflict markers for conflicting providers. */
  text: string;
  clean: boolean;
  lock: Lock & { flavor: Flavor };
  conflicts: { provider: string; ours: string | null; theirs: string | null; reason: string }[];
}

/** `lockCoverage` result. */
export interface Coverage {
  complete: boolean;
  providers: {
    provider: string;
    version: string;
    covered: string[];
    missing: string[];
    hashPlatforms: { hash: string; platforms: string[] }[];
  }[];
}

/** Configuration files: `[{ name, content }]` or `{ [name]: content }`. */
export type ModuleFiles =
  | { name?: string; path?: string; content: string | Uint8Array }[]
  | Record<string, string | Uint8Array>;

/** `loadModule` options. */
export interface LoadModuleOptions extends FlavorOptions {
  /** Local child modules' files by directory relative to the root (`modules/vpc`). */
  modules?: Record<string, ModuleFiles>;
}

/** Where one part of the merged module came from. */
export interface Provenance { block: string; path: string; file: string; range: Range; }

/** One place that mentions a provider. */
export interface RequirementOrigin {
  module: string;
  localName: string;
  kind: "required_providers" | "provider_block_version" | "provider_block" | "resource";
  constraint: string | null;
  range: Range;
}

/** Everything known about one required provider. */
export interface ProviderRequirement {
  provider: string;
  /** All constraints intersected, canonical ("" = any version). */
  constraints: string;
  builtin: boolean;
  origins: RequirementOrigin[];
}

/** `loadModule` result. */
export interface LoadedModule {
  /** The merged configuration as HCL. */
  merged: string;
  files: { primary: string[]; overrides: string[]; shadowed: string[] };
  /** Loading and merging problems (bad configuration never throws). */
  diagnostics: Diagnostic[];
  provenance: Provenance[];
  /** Provider requirements of the module and its local child modules, with every
   *  diagnostic of the tree (the root's loading diagnostics included). */
  requirements: { providers: ProviderRequirement[]; diagnostics: Diagnostic[] };
}

/** One provider of a `checkLock` result. */
export interface CheckedProvider {
  provider: string;
  /** `extra`: locked but no longer required (`plan` ignores it, `init` removes it). */
  status: "satisfied" | "missing" | "unsatisfied" | "extra";
  /** The locked version; null when the lock has none. */
  locked: string | null;
}

/** `checkLock` result. */
export interface LockCheck {
  /** True when every required provider is locked at an allowed version and nothing errs. */
  consistent: boolean;
  /** Required providers by address, then the extra ones in lock order. */
  providers: CheckedProvider[];
  /** The lock's, the configuration's and the check's diagnostics (Terraform's texts: why
   *  each missing or unsatisfied provider fails). */
  diagnostics: Diagnostic[];
}

/** A registry `signing_keys.gpg_public_keys` entry (camelCase or snake_case keys). */
export interface SigningKey {
  keyId?: string; key_id?: string;
  asciiArmor?: string; ascii_armor?: string;
  trustSignature?: string; trust_signature?: string;
  source?: string;
  sourceUrl?: string; source_url?: string;
}

/** `verifySha256Sums` result. */
export interface VerifiedSums {
  signer: "hashicorp" | "partner" | "community";
  /** 16 upper-case hex digits. */
  keyId: string;
  /** Index of the verifying key in `keys`. */
  keyIndex: number;
  /** Every line as a `zh:` hash: what the signature makes acceptable. */
  hashes: string[];
  files: { filename: string; sha256: string }[];
}

/** Settings of a planner run. */
export interface PlannerOptions extends FlavorOptions {
  /** Provider address (`hashicorp/aws` or fully qualified) → constraint string ("" = any). */
  requirements: Record<string, string>;
  /** The previous lock file (text or object); none when omitted. */
  lock?: Lock | string | null;
  /**
   * Target platforms, `os_arch`. For `lock()` also `locked`: every platform the lock covers
   * today (named from the sources' metadata and the `cache`), as the CLI's
   * `-platform=locked`; omitted, the `cliConfig`'s `tflock_platforms`.
   */
  platforms?: string[];
  /** The command whose decisions to reproduce (default `providers-lock`). */
  mode?: "providers-lock" | "init" | "init-upgrade";
  /**
   * The CLI's `-metadata-hashes`: each platform's `h1:` from the source's metadata
   * (OpenTofu's `packages`, a network mirror's `hashes`) once one downloaded package per
   * provider matched it, so the other platforms are not downloaded.
   */
  metadataHashes?: boolean;
}

/** One request from `Planner.next()`; `kind` decides which `PlannerAnswer` fits. */
export interface PlannerRequest {
  id: number;
  kind: "versions" | "installedPackage" | "cachedPackage" | "packageMeta" | "package";
  provider: string;
  version: string | null;
  platform: string | null;
  /** For `package`: where the zip is. */
  location: { kind: "url" | "localArchive" | "localDir"; value: string } | null;
  /** For `package`: hashes it will be checked against. */
  expect: string[];
  /** For `package`: the `zh:` the source announced. */
  knownZh: string | null;
}

/** Why a source could not answer (`kind` decides Terraform's wording). */
export interface SourceFailure {
  message: string;
  kind?: "other" | "host_no_providers" | "provider_not_known" | "platform_not_supported";
  hostname?: string;
  /** host_no_providers: the host offers another `providers.*` protocol version. */
  otherVersion?: boolean;
  mirrorUrl?: string;
}

/** The host's reply to a `PlannerRequest`, by kind. */
export type PlannerAnswer =
  | { error: SourceFailure }
  /** versions */
  | { versions: string[]; warnings?: string[] }
  /** installedPackage / cachedPackage: the unpacked package's `h1:`, or null when absent */
  | { h1: string | null }
  /** packageMeta: the registry `download` body fetched from `url`, and the documents it names */
  | { registry: { url: string; download: string | Uint8Array; sha256sums: string | Uint8Array; signature: Uint8Array } }
  /** package: the zip */
  | { bytes: Uint8Array | ArrayBuffer };

/** What a finished run produces. */
export interface PlanOutcome {
  /** The lock file after the run, as text (Terraform's exact bytes). */
  lockText: string;
  lock: Lock & { flavor: Flavor };
  /** Whether a host should write the lock file. */
  writeLock: boolean;
  changes: LockDiff;
  diagnostics: Diagnostic[];
  /** Progress and summary lines, with `[bold]`/`[reset]` markup. */
  messages: string[];
  providers: ProviderOutcome[];
  /** `lock()`: the platforms it locked (`locked` resolved). */
  platforms?: string[];
  /** `lock()`: the CLI's line on how the platforms were chosen (`tflock: keeping ...`), if any. */
  platformNote?: string | null;
}

/** One provider's result: the selection, authentication per platform, each hash's trust. */
export interface ProviderOutcome {
  provider: string;
  version: string | null;
  auth: { platform: string; result: string }[];
  hashes: HashOutcome[];
}

/** One recorded hash and where trust in it came from. */
export interface HashOutcome {
  hash: string;
  /** Platforms it is known to belong to (empty when the source did not say). */
  platforms: string[];
  /** Key ID of the verified signature covering it. */
  signedBy: string | null;
  computedLocally: boolean;
  reportedByRegistry: boolean;
  /** Reported by a network mirror (OpenTofu `trust_all_hashes`). */
  reportedByMirror: boolean;
  fromPreviousLock: boolean;
  /** Its platform's `h1:` taken from the source's metadata (OpenTofu `packages`, a mirror's
   * `hashes`) once another platform's download matched, instead of from its own package
   * (`metadataHashes`, the CLI's `-metadata-hashes`). */
  fromMetadata: boolean;
}

/** `lock()` settings: a planner run plus the transport and the installation sources. */
export interface LockOptions extends PlannerOptions {
  /**
   * Performs a GET (the global `fetch` works). `url` is the final URL after redirects
   * (relative URLs in documents resolve against it); network mirrors need
   * `headers.get("content-type")` to be `application/json`.
   */
  fetch: (url: string, init?: { headers: Record<string, string> }) => Promise<{
    status: number;
    statusText: string;
    url: string;
    headers?: { get(name: string): string | null };
    arrayBuffer(): Promise<ArrayBuffer>;
    /** When present, package zips are hashed as this stream arrives (bounded memory). */
    body?: ReadableStream<Uint8Array> | null;
  }>;
  /** Service URLs per hostname, like a CLI config `host` block (added to `cliConfig`'s). */
  hosts?: Record<string, Record<string, string>>;
  /**
   * CLI config text (`.terraformrc` / `.tofurc` syntax): its `provider_installation`
   * block (`direct`, `network_mirror`, `include`/`exclude`, OpenTofu `trust_all_hashes`)
   * picks the sources and its `host` blocks replace service discovery. Filesystem mirrors
   * cannot be read from JavaScript and count as empty. Default: the origin registries.
   */
  cliConfig?: string;
  /**
   * One network mirror (an `https:` base URL) for every provider, ignoring
   * `cliConfig`'s `provider_installation`, like `providers lock -net-mirror=URL`.
   */
  networkMirror?: string;
  /**
   * Bearer tokens per hostname (a mirror's `host:port`), like `TF_TOKEN_<host>`: they win
   * over `cliConfig`'s `credentials` blocks. Sent as `fetch(url, { headers: { Authorization } })`
   * for that host's registry or mirror documents only, never with package downloads.
   */
  credentials?: Record<string, string>;
  /** Hears each progress line (`[bold]` markup, as the CLI prints) and each package's bytes. */
  onProgress?: (event: LockProgress) => void;
  /**
   * Verified package hashes kept between runs (the CLI's hash cache, keyed the same way: a
   * package's `zh:` digest, 64 lowercase hex digits). `get` is asked before a download whose
   * `zh:` the source announced (return the stored hashes, or `undefined`); `put` is called
   * after the run for each downloaded package the run authenticated. Either may return a
   * promise.
   */
  cache?: HashCache;
}

/** Storage for `lock()`'s and `updateProvider()`'s verified hash cache. */
export interface HashCache {
  get(key: string): CachedHashes | null | undefined | Promise<CachedHashes | null | undefined>;
  put(key: string, hashes: CachedHashes): void | Promise<void>;
}

/** What the hash cache keeps for one package zip (its `zh:` is the key). */
export interface CachedHashes {
  /** `h1:` of the unpacked package. */
  h1: string;
  /** `h1:` of the zip as Terraform hashes an archive it does not unpack. */
  h1Archive: string;
  /** The zip's size in bytes. */
  size: number;
}

/** `updateProvider()` settings: `lock()`'s sources, transport, cache and progress. */
export interface UpdateProviderOptions extends Omit<LockOptions, "requirements" | "lock" | "mode"> {
  /** The provider to move (`hashicorp/aws` or fully qualified). */
  provider: string;
  /** The version to move it to. */
  version: string;
  /** The constraints to record (the configuration's, once changed); default: the entry's. */
  constraints?: string;
}

/** A `lock()` progress event. */
export type LockProgress =
  | { kind: "message"; text: string }
  | {
      kind: "package";
      provider: string;
      version: string;
      platform: string;
      /** Bytes received so far. */
      received: number;
      /** The response's `Content-Length`, when it has one. */
      total: number | null;
      /** The last event for this package. */
      done: boolean;
    };
