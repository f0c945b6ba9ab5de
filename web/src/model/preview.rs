//! Panel 4: the configuration's requirements against a lock file, without the network:
//! what `init` would have to add, upgrade or drop.

use tflock_core::api::check::{check_lock, LockStatus};
use tflock_core::api::lock_file::locked_version_conflict;
use tflock_core::api::lock_file::{header_flavor, load_locks, LoadOptions, LOCK_FILE_NAME};
use tflock_core::api::module::ProviderRequirements;
use tflock_core::api::requirements::from_configuration;
use tflock_core::Flavor;

/// What `init` would do about one provider.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// Locked at a version the constraints allow: nothing to do.
    Locked(String),
    /// Required but not in the lock: `init` would select and record a version.
    Missing,
    /// Locked at a version the constraints reject: `init` fails without `-upgrade`.
    Conflict(String),
    /// In the lock but no longer required: `init` would drop it.
    Unused(String),
}

/// One provider of the preview.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreviewRow {
    /// Provider address.
    pub provider: String,
    /// Combined constraints from the configuration (empty: any version).
    pub constraints: String,
    /// What `init` would do.
    pub status: Status,
}

/// The preview, or `Err` with the lock's first error when the lock cannot be read. The
/// verdicts are core's [`check_lock`]; the page adds `init`'s view of a conflict.
pub fn preview(
    reqs: &ProviderRequirements,
    lock_text: &str,
    flavor: Flavor,
) -> Result<Vec<PreviewRow>, String> {
    let lock_flavor = header_flavor(lock_text);
    let (locks, diags) = load_locks(lock_text, &LoadOptions::new(LOCK_FILE_NAME, lock_flavor));
    if let Some(d) = diags.iter().find(|d| d.is_error()) {
        return Err(d.summary.clone());
    }
    let check = check_lock(&from_configuration(reqs), &locks, flavor);
    let rows = check.providers.into_iter().map(|row| {
        let locked = row
            .locked
            .as_ref()
            .map(ToString::to_string)
            .unwrap_or_default();
        let status = match row.status {
            LockStatus::Satisfied => Status::Locked(locked),
            LockStatus::Missing => Status::Missing,
            LockStatus::Unsatisfied => Status::Conflict(match &row.locked {
                Some(v) => locked_version_conflict(&row.provider, v, &row.constraints, flavor),
                None => String::new(),
            }),
            LockStatus::Extra => Status::Unused(locked),
        };
        // The configuration's own spelling of the address and constraints, when required.
        let (provider, constraints) = match reqs.providers.get(&row.provider) {
            Some(req) => (req.provider.clone(), req.constraints.clone()),
            None => (row.provider.to_string(), String::new()),
        };
        PreviewRow {
            provider,
            constraints,
            status,
        }
    });
    Ok(rows.collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::config::analyze;
    use crate::samples::{CONFIG_FILES, LOCK_FILE};

    #[test]
    fn sample_lock_misses_random() {
        let files: Vec<(String, String)> = CONFIG_FILES
            .iter()
            .map(|(n, c)| (n.to_string(), c.to_string()))
            .collect();
        let r = analyze(&files, Flavor::Terraform);
        let rows = preview(&r.requirements, LOCK_FILE, Flavor::Terraform).unwrap();
        let missing: Vec<&str> = rows
            .iter()
            .filter(|r| r.status == Status::Missing)
            .map(|r| r.provider.as_str())
            .collect();
        assert_eq!(missing, ["registry.terraform.io/hashicorp/random"]);
    }
}
