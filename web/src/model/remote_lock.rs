//! Panel 5, the Lock action: what it asks for (panel 1's requirements, panel 3's lock as the
//! previous one, the platforms), where (the source options of the npm package's `lock()`),
//! and what the page shows of the outcome (the core's lock text, change and diagnostics).

use super::config::ConfigReport;
use super::diagnostics::{rows, DiagnosticRow};
use serde::{Deserialize, Serialize};
use tflock_core::api::lock_file::strip_markup;
use tflock_core::api::lock_file::{load_locks, render_diff, LoadOptions, Locks, LOCK_FILE_NAME};
use tflock_core::api::parse::{option_mirror_url, registry_url};
use tflock_core::api::requirements::from_configuration;
use tflock_core::api::LockSources;
use tflock_core::api::Platform;
use tflock_core::api::SortedMap;
use tflock_core::api::{Mode, Outcome, OutcomeView, PlanOptions, Requirements};
use tflock_core::Flavor;

/// Where `cargo xtask worker-dev --https` serves the edge mirror: the default until the user
/// names another mirror.
pub const MIRROR_DEFAULT: &str = "https://127.0.0.1:8787/";

/// Where the Lock action asks for providers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SourceKind {
    /// One network mirror for every provider (`providers lock -net-mirror=URL`).
    #[default]
    Mirror,
    /// A registry's `providers.v1` URL standing in for every provider's hostname (a CLI
    /// config `host` block).
    Registry,
    /// Each provider's origin registry, found by service discovery.
    Origin,
}

impl SourceKind {
    /// The `<select>` value.
    pub fn as_str(self) -> &'static str {
        match self {
            SourceKind::Mirror => "mirror",
            SourceKind::Registry => "registry",
            SourceKind::Origin => "origin",
        }
    }

    /// The kind a `<select>` value names (the default for anything else).
    pub fn parse(s: &str) -> SourceKind {
        match s {
            "registry" => SourceKind::Registry,
            "origin" => SourceKind::Origin,
            _ => SourceKind::Mirror,
        }
    }
}

/// Everything one Lock run needs but `fetch`.
#[derive(Debug)]
pub struct LockRequest {
    /// Panel 1's requirements, in the planner's shape.
    pub requirements: Requirements,
    /// Panel 3's lock: the previous lock `providers lock` starts from.
    pub previous: Locks,
    /// `providers lock` for the chosen platforms.
    pub options: PlanOptions,
    /// Where `lock_with` asks: one network mirror, or `host` blocks.
    pub source: LockSources,
}

/// The request for the page's inputs, or what the user must fix first.
pub fn request(
    report: &ConfigReport,
    lock_text: &str,
    flavor: Flavor,
    kind: SourceKind,
    url: &str,
    platforms: &str,
) -> Result<LockRequest, String> {
    if report.failed {
        return Err("The configuration has errors (panel 1): fix them first.".into());
    }
    let platforms = parse_platforms(platforms)?;
    let (previous, diags) = load_locks(lock_text, &LoadOptions::new(LOCK_FILE_NAME, flavor));
    if diags.has_errors() {
        return Err(
            "The lock file in panel 3 has errors: fix or clear it; it is the lock this run \
             starts from."
                .into(),
        );
    }
    let requirements = from_configuration(&report.requirements);
    let source = source_options(&requirements, kind, url.trim())?;
    Ok(LockRequest {
        requirements,
        previous,
        options: PlanOptions::new(flavor, Mode::ProvidersLock, platforms),
        source,
    })
}

/// The platforms (`os_arch`, separated by spaces or commas), each once, in order.
pub fn parse_platforms(text: &str) -> Result<Vec<Platform>, String> {
    let mut out: Vec<Platform> = Vec::new();
    for word in text.split([' ', ',', '\n', '\t']).filter(|w| !w.is_empty()) {
        let p = Platform::parse(word).map_err(|e| format!("Platform {word:?}: {e}"))?;
        if !out.contains(&p) {
            out.push(p);
        }
    }
    if out.is_empty() {
        return Err("Name at least one platform (os_arch, e.g. linux_amd64).".into());
    }
    Ok(out)
}

/// `lock_with`'s sources: a network mirror must be `https:`, a registry URL `http:` or
/// `https:` (core's rules, refused here before any request); a registry URL is the
/// `providers.v1` service of every required provider's hostname.
fn source_options(reqs: &Requirements, kind: SourceKind, url: &str) -> Result<LockSources, String> {
    let mut source = LockSources::default();
    match kind {
        SourceKind::Origin => {}
        SourceKind::Mirror => {
            let u = option_mirror_url(url, "network mirror").map_err(|e| e.to_string())?;
            source.network_mirror = Some(u);
        }
        SourceKind::Registry => {
            let u = registry_url(url).map_err(|e| e.to_string())?;
            for p in reqs.keys() {
                let mut services = SortedMap::new();
                services.insert("providers.v1".to_string(), u.to_string());
                source.cli_config.hosts.insert(p.hostname.clone(), services);
            }
        }
    }
    Ok(source)
}

/// What the page shows of a finished run.
#[derive(Debug, Clone, PartialEq)]
pub struct LockResult {
    /// The new `.terraform.lock.hcl` (Terraform's bytes); `None` when the run failed.
    pub text: Option<String>,
    /// The change from panel 3's lock, as `tflock lockfile diff` prints it.
    pub diff: String,
    /// Errors and warnings, with the product's texts.
    pub diagnostics: Vec<DiagnosticRow>,
    /// The run's messages without markup, as the CLI prints them.
    pub messages: Vec<String>,
}

/// The page's view of `outcome`.
pub fn result(outcome: &Outcome, flavor: Flavor) -> LockResult {
    let failed = outcome.has_errors();
    LockResult {
        text: (!failed).then(|| OutcomeView::new(outcome, flavor).lock_text),
        diff: render_diff(&outcome.changes),
        diagnostics: rows(outcome.diagnostics.iter()),
        messages: outcome.messages.iter().map(|m| strip_markup(m)).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::config::analyze;

    fn config(source: &str) -> ConfigReport {
        let main = format!(
            "terraform {{\n  required_providers {{\n    demo = {{\n      source  = \"{source}\"\n      version = \"~> 1.1\"\n    }}\n  }}\n}}\n"
        );
        analyze(&[("main.tf".into(), main)], Flavor::Terraform)
    }

    #[test]
    fn a_mirror_must_be_https() {
        let r = config("registry.test/acme/demo");
        let e = request(
            &r,
            "",
            Flavor::Terraform,
            SourceKind::Mirror,
            "http://m/",
            "linux_amd64",
        );
        assert!(e.unwrap_err().contains("https:"));
        let ok = request(
            &r,
            "",
            Flavor::Terraform,
            SourceKind::Mirror,
            "https://m/",
            "linux_amd64",
        );
        let source = ok.unwrap().source;
        assert_eq!(source.network_mirror.unwrap().as_str(), "https://m/");
        assert!(source.cli_config.hosts.is_empty());
    }

    #[test]
    fn a_registry_url_stands_in_for_every_required_hostname() {
        let r = config("registry.test/acme/demo");
        let req = request(
            &r,
            "",
            Flavor::Terraform,
            SourceKind::Registry,
            " http://127.0.0.1:9/v1/providers/ ",
            "linux_amd64, darwin_arm64 linux_amd64",
        )
        .unwrap();
        let hosts = &req.source.cli_config.hosts;
        assert_eq!(hosts.len(), 1);
        assert_eq!(
            hosts["registry.test"]["providers.v1"],
            "http://127.0.0.1:9/v1/providers/"
        );
        assert_eq!(req.source.network_mirror, None);
        assert_eq!(req.options.platforms.len(), 2);
        assert_eq!(req.requirements.len(), 1);
    }

    #[test]
    fn bad_platforms_and_broken_inputs_say_what_to_fix() {
        let r = config("registry.test/acme/demo");
        let run = |lock: &str, platforms: &str| {
            request(
                &r,
                lock,
                Flavor::Terraform,
                SourceKind::Origin,
                "",
                platforms,
            )
            .unwrap_err()
        };
        assert!(run("", "").contains("at least one platform"));
        assert!(run("", "linux").starts_with("Platform \"linux\""));
        assert!(run("provider {", "linux_amd64").contains("panel 3"));
        let broken = analyze(
            &[("main.tf".into(), "terraform {".into())],
            Flavor::Terraform,
        );
        let e = request(
            &broken,
            "",
            Flavor::Terraform,
            SourceKind::Origin,
            "",
            "linux_amd64",
        );
        assert!(e.unwrap_err().contains("panel 1"));
    }
}
