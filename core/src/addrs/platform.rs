//! Target platforms `os_arch` (`getproviders.Platform`).

use std::fmt;

/// A platform such as `linux_amd64`. Ordered by OS, then architecture, bytewise.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Platform {
    /// Operating system (Go's `GOOS`).
    pub os: String,
    /// Architecture (Go's `GOARCH`).
    pub arch: String,
}

/// Why a platform string was rejected; `Display` is Terraform's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlatformError(pub &'static str);

impl fmt::Display for PlatformError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl std::error::Error for PlatformError {}

fn has_whitespace(s: &str) -> bool {
    s.contains([' ', '\t', '\n', '\r'])
}

impl Platform {
    /// A platform from its parts.
    pub fn new(os: &str, arch: &str) -> Platform {
        Platform {
            os: os.to_string(),
            arch: arch.to_string(),
        }
    }

    /// `ParsePlatform`: exactly one `_`, no white space in either part. Empty parts and
    /// any case are accepted, as in Terraform.
    pub fn parse(s: &str) -> Result<Platform, PlatformError> {
        let parts: Vec<&str> = s.split('_').collect();
        let [os, arch] = parts[..] else {
            return Err(PlatformError(
                "must be two words separated by an underscore",
            ));
        };
        if has_whitespace(os) {
            return Err(PlatformError("OS portion must not contain whitespace"));
        }
        if has_whitespace(arch) {
            return Err(PlatformError(
                "architecture portion must not contain whitespace",
            ));
        }
        Ok(Platform::new(os, arch))
    }

    /// The platform this binary was compiled for, in Go's `GOOS_GOARCH` spelling
    /// (`linux_amd64`, `darwin_arm64`, `windows_386`, ...).
    pub fn current() -> Platform {
        let os = match std::env::consts::OS {
            "macos" => "darwin",
            "ios" => "ios",
            other => other,
        };
        let arch = match std::env::consts::ARCH {
            "x86_64" => "amd64",
            "x86" => "386",
            "aarch64" => "arm64",
            "powerpc64" if cfg!(target_endian = "little") => "ppc64le",
            "powerpc64" => "ppc64",
            "powerpc" => "ppc",
            "loongarch64" => "loong64",
            "mips64" if cfg!(target_endian = "little") => "mips64le",
            "mips" if cfg!(target_endian = "little") => "mipsle",
            "wasm32" => "wasm",
            other => other,
        };
        Platform::new(os, arch)
    }
}

/// `os_arch`.
impl fmt::Display for Platform {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}_{}", self.os, self.arch)
    }
}

impl std::str::FromStr for Platform {
    type Err = PlatformError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Platform::parse(s)
    }
}

/// Serialized as `os_arch`.
impl serde::Serialize for Platform {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Deserialized with [`Platform::parse`].
impl<'de> serde::Deserialize<'de> for Platform {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Platform::parse(&s).map_err(serde::de::Error::custom)
    }
}
