//! Provider package file names: `terraform-provider-<type>_<version>_<os>_<arch>.zip`, as
//! registries and `terraform providers mirror` name them.

/// What a package's file name says about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackageName {
    /// Provider type (`aws`).
    pub provider_type: String,
    /// Version as written (`5.31.0`).
    pub version: String,
    /// Platform, `os_arch`.
    pub platform: String,
}

/// Parses a package file name (any directory part is ignored); `None` when it does not
/// follow the registry's naming.
pub fn parse(file_name: &str) -> Option<PackageName> {
    let base = file_name.rsplit(['/', '\\']).next()?;
    let rest = base
        .strip_prefix("terraform-provider-")?
        .strip_suffix(".zip")?;
    let mut parts = rest.rsplitn(4, '_');
    let arch = parts.next()?;
    let os = parts.next()?;
    let version = parts.next()?;
    let provider_type = parts.next()?;
    if [arch, os, version, provider_type]
        .iter()
        .any(|s| s.is_empty())
    {
        return None;
    }
    Some(PackageName {
        provider_type: provider_type.to_string(),
        version: version.to_string(),
        platform: format!("{os}_{arch}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_names() {
        let p = parse("dl/terraform-provider-null_2.1.0_linux_amd64.zip").unwrap();
        assert_eq!(
            (
                p.provider_type.as_str(),
                p.version.as_str(),
                p.platform.as_str()
            ),
            ("null", "2.1.0", "linux_amd64")
        );
        assert_eq!(parse("provider.zip"), None);
        assert_eq!(parse("terraform-provider-x_1.0.0_linux.zip"), None);
    }
}
