//! Provider package file names, `terraform-provider-<type>_<version>_<os>_<arch>.zip`: how
//! registries name release archives (and their `SHA256SUMS` lines) and how packed
//! filesystem mirrors and `terraform providers mirror` name packages.

/// What a package's file name says about it, as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackageFileName {
    /// Provider type (`aws`).
    pub provider_type: String,
    /// Version as written (`5.31.0`).
    pub version: String,
    /// Platform, `os_arch`.
    pub platform: String,
}

/// Parses a package file name (any directory part is ignored); `None` when it does not
/// follow the naming. The split is Terraform's (`filesystem_search.go`): the type ends at
/// the first `_` (a type cannot hold one), then version, OS and architecture are the next
/// three `_`-separated fields, and any further fields are ignored. An empty OS or
/// architecture passes, as Terraform's `ParsePlatform` lets it; an empty version never
/// parses as one, so it does not pass.
pub fn parse(file_name: &str) -> Option<PackageFileName> {
    let base = file_name.rsplit(['/', '\\']).next()?;
    let rest = base
        .strip_prefix("terraform-provider-")?
        .strip_suffix(".zip")?;
    let (provider_type, info) = rest.split_once('_')?;
    let mut fields = info.split('_');
    let (version, os, arch) = (fields.next()?, fields.next()?, fields.next()?);
    if provider_type.is_empty() || version.is_empty() {
        return None;
    }
    Some(PackageFileName {
        provider_type: provider_type.to_string(),
        version: version.to_string(),
        platform: format!("{os}_{arch}"),
    })
}

/// The file name of `type_`'s package for `version` and `platform` (`os_arch`).
pub fn file_name(type_: &str, version: &str, platform: &str) -> String {
    format!("terraform-provider-{type_}_{version}_{platform}.zip")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(name: &str) -> Option<(String, String, String)> {
        parse(name).map(|p| (p.provider_type, p.version, p.platform))
    }

    #[test]
    fn release_names_give_type_version_and_platform() {
        let want = |t: &str, v: &str, p: &str| Some((t.into(), v.into(), p.into()));
        assert_eq!(
            parts("dl/terraform-provider-null_2.1.0_linux_amd64.zip"),
            want("null", "2.1.0", "linux_amd64")
        );
        assert_eq!(
            parts("terraform-provider-aws_5.1.0-beta1_darwin_arm64.zip"),
            want("aws", "5.1.0-beta1", "darwin_arm64")
        );
        // Terraform reads three fields after the type and ignores the rest.
        assert_eq!(
            parts("terraform-provider-x_1.0.0_linux_amd64_extra.zip"),
            want("x", "1.0.0", "linux_amd64")
        );
        let name = file_name("null", "2.1.0", "linux_amd64");
        assert_eq!(parts(&name), want("null", "2.1.0", "linux_amd64"));
    }

    #[test]
    fn other_names_are_not_packages() {
        for name in [
            "provider.zip",
            "terraform-provider-x_1.0.0_linux.zip",
            "terraform-provider-x_1.0.0_linux_amd64.tar.gz",
            "terraform-provider-_1.0.0_linux_amd64.zip",
            "terraform-provider-x__linux_amd64.zip",
            "SHA256SUMS",
        ] {
            assert_eq!(parse(name), None, "{name}");
        }
    }
}
