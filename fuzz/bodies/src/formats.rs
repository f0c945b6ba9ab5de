//! Single-document parsers: lock files, `SHA256SUMS`, registry and mirror JSON, CLI
//! configuration, `modules.json`.

use tflock_core::config::modules_manifest::ModuleManifest;
use tflock_core::lockfile::{load_locks, load_locks_bytes, write_locks, LoadOptions};
use tflock_core::protocol::mirror::{MirrorIndex, MirrorVersion};
use tflock_core::protocol::{CliConfig, Discovery, DownloadResponse, Sha256Sums, VersionsResponse};
use tflock_core::Flavor;

const FLAVORS: [Flavor; 2] = [Flavor::Terraform, Flavor::OpenTofu];

/// Lock files: any bytes give locks and diagnostics; what loads without errors writes out
/// and reads back to the same bytes.
pub fn lockfile_parse(data: &[u8]) {
    for flavor in FLAVORS {
        let opts = LoadOptions::new(".terraform.lock.hcl", flavor);
        let (locks, diags) = load_locks_bytes(data, &opts);
        for d in diags.iter() {
            let _ = d.to_string();
        }
        let written = write_locks(&locks, flavor);
        if !diags.has_errors() {
            let (again, diags2) = load_locks(&written, &opts);
            assert!(
                !diags2.has_errors(),
                "rewritten file does not load:\n{written}"
            );
            assert_eq!(write_locks(&again, flavor), written);
        }
    }
}

/// `SHA256SUMS`: parse, then every query the verifier makes.
pub fn sha256sums(data: &[u8]) {
    if let Ok(sums) = Sha256Sums::parse(data) {
        for line in sums.lines() {
            let _ = format!("{line:?}");
        }
        let _ = sums.lookup("terraform-provider-null_2.1.0_linux_amd64.zip");
        let _ = sums.acceptable_hashes();
    }
}

/// Registry documents: discovery, the versions list and a download answer (validated for a
/// platform, as the planner does).
pub fn registry_json(data: &[u8]) {
    let base = url::Url::parse(
        "https://registry.example.com/v1/providers/hashicorp/null/2.1.0/download/linux/amd64",
    )
    .expect("a valid URL constant");
    if let Ok(d) = Discovery::parse(data, &base) {
        for flavor in FLAVORS {
            let _ = d.providers_v1("registry.example.com", flavor);
        }
        let _ = d.service_url("modules.v1");
    }
    if let Ok(v) = VersionsResponse::parse(data, "hashicorp/null") {
        let _ = v.valid_versions().count();
        let _ = v.warnings_diagnostic("hashicorp/null");
    }
    if let Ok(r) = DownloadResponse::parse(data, "hashicorp/null") {
        for flavor in FLAVORS {
            let _ = r.validate(flavor, "hashicorp/null", "2.1.0", "linux", "amd64", &base);
        }
    }
}

/// Network-mirror documents: the version index and one version's archives.
pub fn mirror_json(data: &[u8]) {
    let _ = MirrorIndex::parse(data);
    if let Ok(v) = MirrorVersion::parse(data) {
        let _ = format!("{v:?}");
    }
}

/// CLI configuration (`.terraformrc`, `.tofurc`): parse, then the sources and host
/// overrides the installer asks for.
pub fn cliconfig(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for flavor in FLAVORS {
        let (cfg, diags) = CliConfig::parse(text, ".terraformrc", flavor);
        for d in diags.iter() {
            let _ = d.to_string();
        }
        let _ = cfg.sources(flavor);
        let _ = cfg.host_override("registry.terraform.io");
        let _ = cfg.host_override("example.com");
        let _ = cfg.plugin_cache_dir_expanded(|_| Some("/home/u".to_owned()));
    }
}

/// `.terraform/modules/modules.json`.
pub fn modules_manifest(data: &[u8]) {
    if let Ok(m) = ModuleManifest::parse(data) {
        let _ = m.get("");
        let _ = m.get("a.b");
    }
}
