//! The progress lines `init` and `providers lock` print, per flavour.

use crate::addrs::{Platform, Provider};
use crate::gotext::quote;
use crate::protocol::auth::AuthKind;
use crate::version::{Constraints, Version};
use crate::Flavor;

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
pub fn auth_in_line(a: &crate::protocol::auth::AuthResult) -> String {
    match a.displayed_key_id() {
        Some(id) => format!("{}, key ID [reset][bold]{id}[reset]", a.kind),
        None => a.kind.to_string(),
    }
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
