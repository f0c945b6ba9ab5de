//! Every text the planner shows: the progress lines `init` and `providers lock` print and
//! the diagnostics and error texts of their failures, per flavour. The phases decide what
//! happened; only this file decides how it reads. Texts about the lock file itself (conflicts,
//! checksum mismatches, the written/readonly/incomplete outcomes) are the `lockfile` module's,
//! shared with its other users, and reach the planner through here.

use super::accept::Rejection;
use super::outbox::Asked;
use super::phase::Awaited;
use super::AnswerError;
use crate::addrs::{Platform, Provider};
use crate::gotext::quote;
use crate::install::needs::{Answer, NeedId, SourceError, SourceErrorKind};
use crate::lockfile::update::locked_version_conflict;
use crate::protocol::auth::{AuthKind, AuthResult};
use crate::version::{Constraints, Version};
use crate::{Diagnostic, Flavor};

// Progress lines.

/// `- Reusing previous version ...`, `- Finding ... versions matching ...` or
/// `- Finding latest version of ...` (Terraform's `QueryPackagesBegin`).
pub fn query_begin(p: &Provider, constraints: &Constraints, locked: bool, f: Flavor) -> String {
    let name = p.for_display(f);
    if locked {
        format!("- Reusing previous version of {name} from the dependency lock file")
    } else if !constraints.is_empty() {
        format!(
            "- Finding {name} versions matching {}...",
            quote(&constraints.canonical())
        )
    } else {
        format!("- Finding latest version of {name}...")
    }
}

/// `- Using previously-installed <p> v<v>`.
pub fn already_installed(p: &Provider, v: &Version, f: Flavor) -> String {
    format!("- Using previously-installed {} v{v}", p.for_display(f))
}

/// `- <p> is built in to Terraform`.
pub fn built_in(p: &Provider, f: Flavor) -> String {
    format!("- {} is built in to {}", p.for_display(f), f.product())
}

/// `- Using <p> v<v> from the shared cache directory`.
pub fn from_cache(p: &Provider, v: &Version, f: Flavor) -> String {
    format!(
        "- Using {} v{v} from the shared cache directory",
        p.for_display(f)
    )
}

/// `- Installing <p> v<v>...`.
pub fn installing(p: &Provider, v: &Version, f: Flavor) -> String {
    format!("- Installing {} v{v}...", p.for_display(f))
}

/// `- Installed <p> v<v> (<auth>[, key ID <id>])`; OpenTofu words a package whose signature
/// check was skipped differently (`ProviderInstalledSkippedSignature`).
pub fn installed(p: &Provider, v: &Version, auth: &str, f: Flavor) -> String {
    if f == Flavor::OpenTofu && auth == AuthKind::SigningSkipped.text() {
        return format!(
            "- Installed {} v{v}. Signature validation was skipped due to the registry not containing GPG keys for this provider",
            p.for_display(f)
        );
    }
    format!("- Installed {} v{v} ({auth})", p.for_display(f))
}

/// The text in parentheses after `- Installed` / `- Retrieved`: the result, then the key ID
/// where the product shows one, with its `[reset][bold]...[reset]` markup (Terraform's
/// `key_id` message, OpenTofu's `ProviderInstalled` / `FetchPackageSuccess`).
/// `None` (the source vouched for nothing) reads `unauthenticated`.
pub fn auth_in_line(a: Option<&AuthResult>) -> String {
    let Some(a) = a else {
        return AuthKind::Unauthenticated.to_string();
    };
    match a.displayed_key_id() {
        Some(id) => format!("{}, key ID [reset][bold]{id}[reset]", a.kind),
        None => a.kind.to_string(),
    }
}

/// The authentication result a provider's result reports per platform:
/// `<result>[, key ID <id>]` without markup, `unauthenticated` for `None`.
pub fn auth_summary(a: Option<&AuthResult>) -> String {
    a.map_or_else(
        || AuthKind::Unauthenticated.to_string(),
        AuthResult::summary,
    )
}

/// `- Fetching <p> <v> for <platform>...` (providers lock).
pub fn fetching(p: &Provider, v: &Version, platform: &Platform, f: Flavor) -> String {
    format!("- Fetching {} {v} for {platform}...", p.for_display(f))
}

/// `- Retrieved <p> <v> for <platform> (<auth>)` (providers lock).
pub fn retrieved(p: &Provider, v: &Version, platform: &Platform, auth: &str, f: Flavor) -> String {
    format!(
        "- Retrieved {} {v} for {platform} ({auth})",
        p.for_display(f)
    )
}

/// `- Took <p> <v> for <platform> from the source's metadata (<auth>)` (`-metadata-hashes`:
/// the package was not downloaded).
pub fn from_metadata(
    p: &Provider,
    v: &Version,
    platform: &Platform,
    auth: &str,
    f: Flavor,
) -> String {
    format!(
        "- Took {} {v} for {platform} from the source's metadata, without downloading ({auth})",
        p.for_display(f)
    )
}

/// What `providers lock` reports per provider and platform.
pub fn obtained(p: &Provider, platform: &Platform, change: LockChange, f: Flavor) -> String {
    let tail = match change {
        LockChange::NewProvider => "This was a new provider and the checksums for this platform are now tracked in the lock file",
        LockChange::NewHashes => "Additional checksums for this platform are now tracked in the lock file",
        LockChange::NoChange => "All checksums for this platform were already tracked in the lock file",
    };
    format!(
        "- Obtained {} checksums for {platform}; {tail}",
        p.for_display(f)
    )
}

/// `providersLockCalculateChangeType`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LockChange {
    /// No previous entry.
    NewProvider,
    /// The previous entry lacked some of this platform's hashes.
    NewHashes,
    /// Everything was already recorded.
    NoChange,
}

/// The closing lines of `providers lock`.
pub fn lock_success(changed: bool, f: Flavor) -> Vec<String> {
    let product = f.product();
    if changed {
        vec![
            format!("\n[bold][green]Success![reset] [bold]{product} has updated the lock file.[reset]"),
            // Terraform's text ends with a newline before Output adds one; OpenTofu's view
            // prints it without (views/providers_lock.go).
            format!(
                "\nReview the changes in .terraform.lock.hcl and then commit to your\nversion control system to retain the new checksums.{}",
                if f == Flavor::Terraform { "\n" } else { "" }
            ),
        ]
    } else {
        vec![format!(
            "\n[bold][green]Success![reset] [bold]{product} has validated the lock file and found no need for changes.[reset]"
        )]
    }
}

/// The note `init` prints after installing packages signed by their developers rather than
/// by HashiCorp (Terraform: partner or self-signed; OpenTofu: any signature).
pub fn signing_note(kinds: impl IntoIterator<Item = AuthKind>, f: Flavor) -> Option<String> {
    let third_party = kinds.into_iter().any(|k| match f {
        Flavor::Terraform => matches!(k, AuthKind::SignedByPartner | AuthKind::SelfSigned),
        Flavor::OpenTofu => k == AuthKind::Signed,
    });
    third_party.then(|| match f {
        Flavor::Terraform => "\nPartner and community providers are signed by their developers.\nIf you'd like to know more about provider signing, you can read about it here:\nhttps://developer.hashicorp.com/terraform/cli/plugins/signing".to_string(),
        Flavor::OpenTofu => "\nProviders are signed by their developers.\nIf you'd like to know more about provider signing, you can read about it here:\nhttps://opentofu.org/docs/cli/plugins/signing/".to_string(),
    })
}

// Selection problems, and the registry's warnings.

/// `Invalid dependency on built-in provider`, with `reason` from [`no_such_builtin`] or
/// [`BUILTIN_CONSTRAINED`].
pub fn invalid_builtin(p: &Provider, reason: &str, f: Flavor) -> Diagnostic {
    Diagnostic::error(
        "Invalid dependency on built-in provider",
        format!("Cannot use {}: {reason}.", p.for_display(f)),
    )
}

/// Why a `terraform.io/builtin/<type>` the product lacks cannot be used.
pub fn no_such_builtin(p: &Provider, f: Flavor) -> String {
    format!(
        "this {} release has no built-in provider named {}",
        f.product(),
        quote(&p.r#type)
    )
}

/// Why a built-in provider with version constraints cannot be used.
pub const BUILTIN_CONSTRAINED: &str =
    "built-in providers do not support explicit version constraints";

/// The locked version no longer meets the constraints (the lock file's own wording).
pub fn locked_conflict(p: &Provider, locked: &Version, c: &Constraints, f: Flavor) -> String {
    locked_version_conflict(p, locked, c, f)
}

/// The source no longer offers the locked version.
pub fn locked_version_gone(locked: &Version) -> String {
    format!("the previously-selected version {locked} is no longer available")
}

/// No offered version meets the constraints.
pub fn no_matching_version(c: &Constraints) -> String {
    format!(
        "no available releases match the given constraints {}",
        c.canonical()
    )
}

/// `Additional provider information from registry`: the registry's `warnings`.
pub fn registry_warnings(p: &Provider, warnings: &[String]) -> Diagnostic {
    let list: Vec<String> = warnings.iter().map(|w| format!("- {w}")).collect();
    Diagnostic::warning(
        "Additional provider information from registry",
        format!(
            "The remote registry returned warnings for {p}:\n{}",
            list.join("\n")
        ),
    )
}

/// The diagnostic `init` shows when no version could be chosen, worded by the error's kind.
pub fn query_failure(p: &Provider, err: &SourceError, f: Flavor) -> Diagnostic {
    let name = p.for_display(f);
    match &err.kind {
        SourceErrorKind::HostNoProviders {
            hostname,
            other_version,
        } => Diagnostic::error(
            "Invalid provider registry host",
            if *other_version {
                format!(
                    "The host {} given in provider source address {} does not offer a {product} provider registry that is compatible with this {product} version, but it may be compatible with a different {product} version.",
                    quote(hostname),
                    quote(&p.to_string()),
                    product = f.product()
                )
            } else if hostname == "github.com" {
                // Terraform's hint for a GitHub repository given as a provider source.
                format!(
                    "The given source address {} specifies a GitHub repository rather than a {} provider. Refer to the documentation of the provider to find the correct source address to use.",
                    quote(&p.to_string()),
                    f.product()
                )
            } else {
                format!(
                    "The host {} given in provider source address {} does not offer a {} provider registry.",
                    quote(hostname),
                    quote(&p.to_string()),
                    f.product()
                )
            },
        ),
        SourceErrorKind::ProviderNotKnown => Diagnostic::error(
            "Failed to query available provider packages",
            format!(
                "Could not retrieve the list of available versions for provider {name}: {}\n\nAll modules should specify their required_providers so that external consumers will get the correct providers when using a module. To see which modules are currently depending on {name}, run the following command:\n    {} providers",
                err.message,
                f.command()
            ),
        ),
        _ => Diagnostic::error(
            "Failed to query available provider packages",
            format!(
                "Could not retrieve the list of available versions for provider {name}: {}\n\nTo see which modules are currently depending on {name} and what versions are specified, run the following command:\n    {} providers",
                err.message,
                f.command()
            ),
        ),
    }
}

// Installation failures.

/// The diagnostic `init` shows when a platform's package could not be obtained from the
/// source, worded by the error's kind.
pub fn install_source_failure(
    p: &Provider,
    v: &Version,
    platform: &Platform,
    err: &SourceError,
    f: Flavor,
) -> Diagnostic {
    match &err.kind {
        SourceErrorKind::PlatformNotSupported { mirror_url: Some(url) } => Diagnostic::error(
            "Incompatible provider version",
            format!(
                "Your chosen provider mirror at {url} does not have a {p} v{v} package available for your current platform, {platform}.\n\nProvider releases are separate from {} CLI releases, so this provider might not support your current platform. Alternatively, the mirror itself might have only a subset of the plugin packages available in the origin registry, at {}.",
                f.product(),
                crate::addrs::hostname::for_display(&p.hostname)
            ),
        ),
        SourceErrorKind::PlatformNotSupported { mirror_url: None } => Diagnostic::error(
            "Incompatible provider version",
            format!(
                "Provider {p} v{v} does not have a package available for your current platform, {platform}.\n\nProvider releases are separate from {} CLI releases, so not all providers are available for all platforms. Other versions of this provider may have different platforms supported.",
                f.product()
            ),
        ),
        _ => install_failure(p, v, &err.message, f),
    }
}

/// `Failed to install provider` / `Error while installing <p> v<v>: <err>`.
pub fn install_failure(p: &Provider, v: &Version, err: &str, f: Flavor) -> Diagnostic {
    Diagnostic::error(
        "Failed to install provider",
        install_failure_detail(p, v, err, f),
    )
}

fn install_failure_detail(p: &Provider, v: &Version, err: &str, f: Flavor) -> String {
    format!("Error while installing {} v{v}: {err}", p.for_display(f))
}

/// Why a fetched package was refused, as the error [`install_failure`] wraps.
pub fn rejection(r: &Rejection) -> String {
    match r {
        Rejection::NotAnArchive => "registry package is not an archive".to_string(),
        Rejection::Unauthentic(e) => e.to_string(),
        Rejection::ChecksumMismatch(m) => m.error.clone(),
    }
}

/// The plugin cache's copy does not match the lock, though
/// `plugin_cache_may_break_dependency_lock_file` let it be used.
pub fn cache_mismatch(p: &Provider, v: &Version, f: Flavor) -> Diagnostic {
    Diagnostic::error(
        "Failed to install provider from shared cache",
        format!(
            "Error while importing {} v{v} from the shared cache directory: the provider cache has a copy of {p} {v} that doesn't match any of the checksums recorded in the dependency lock file.",
            p.for_display(f)
        ),
    )
}

/// `providers lock`'s one diagnostic for the first platform some provider failed on;
/// `errors` are `(provider, error)` pairs.
pub fn lock_fetch_failed(
    platform: &Platform,
    errors: &[(&Provider, &str)],
    f: Flavor,
) -> Diagnostic {
    let list: Vec<String> = errors.iter().map(|(p, e)| format!("- {p}: {e}")).collect();
    Diagnostic::error(
        "Could not retrieve providers for locking",
        format!(
            "{} failed to fetch the requested providers for {platform} in order to calculate their checksums: some providers could not be installed:\n{}.",
            f.product(),
            list.join("\n")
        ),
    )
}

/// The run ended with `n` requests the host never answered.
pub fn unfinished(n: usize) -> Diagnostic {
    Diagnostic::error(
        "Provider installation did not finish",
        format!("{n} requests were never answered."),
    )
}

// The lock file's outcome: worded by the lock file module, which tests them on their own.

pub use crate::lockfile::messages::{
    incomplete_lock_warning, lock_written_message, readonly_outcome,
};

// Host errors.

/// [`crate::install::Planner::answer`] got an id it is not waiting for.
pub fn unknown_request(id: NeedId) -> AnswerError {
    AnswerError::UnknownRequest(id.0)
}

/// [`crate::install::Planner::answer`] got an answer of another kind than the request's.
pub fn misfit_answer(
    id: NeedId,
    answer: &Answer,
    asked: &Asked,
    awaited: Option<Awaited>,
) -> AnswerError {
    AnswerError::Misfit(format!(
        "answer {answer:?} does not fit request {} ({awaited:?} for {} {:?})",
        id.0, asked.provider, asked.about
    ))
}

/// The line `init` prints before installing providers. Terraform 1.15 says where the
/// providers come from (state-stored ones are installed in a separate step); OpenTofu keeps
/// the older wording.
pub fn init_header(f: Flavor) -> &'static str {
    match f {
        Flavor::Terraform => "Initializing provider plugins found in the configuration...",
        Flavor::OpenTofu => "Initializing provider plugins...",
    }
}

/// What `init` says when the configuration itself has errors (and its core version check
/// passed): Terraform makes it an error diagnostic beside the configuration's, OpenTofu prints
/// it as a message before them.
pub fn init_config_error(f: Flavor) -> &'static str {
    match f {
        Flavor::Terraform => "Terraform encountered problems during initialisation, including problems\nwith the configuration, described below.\n\nThe Terraform configuration must be valid before initialization so that\nTerraform can determine which modules and providers need to be installed.",
        Flavor::OpenTofu => "OpenTofu encountered problems during initialization, including problems\nwith the configuration, described below.\n\nThe OpenTofu configuration must be valid before initialization so that\nOpenTofu can determine which modules and providers need to be installed.",
    }
}
