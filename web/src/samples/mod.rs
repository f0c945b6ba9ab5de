//! Inputs the playground starts with: a small module with an override file, a lock file
//! and provider zips from `tests/fixtures/hash/samples`, all embedded in the wasm.

/// The configuration files the first panel is preloaded with, as `(name, content)`.
pub const CONFIG_FILES: &[(&str, &str)] = &[
    ("main.tf", include_str!("config/main.tf")),
    ("main_override.tf", include_str!("config/main_override.tf")),
    ("triggers.tf.json", include_str!("config/triggers.tf.json")),
];

/// A lock file for the sample module: unsorted (so formatting changes it), one provider
/// missing, and `hashicorp/null` recorded with the sample zip's hashes.
pub const LOCK_FILE: &str = include_str!("terraform.lock.hcl");

/// A provider zip embedded in the page.
#[derive(Debug, Clone, Copy)]
pub struct SampleZip {
    /// File name, in the registry's `terraform-provider-<type>_<version>_<os>_<arch>.zip` form.
    pub name: &'static str,
    /// The archive.
    pub bytes: &'static [u8],
}

/// The sample provider zips (the same files `cargo xtask demo` hashes).
pub const ZIPS: &[SampleZip] = &[
    SampleZip {
        name: "terraform-provider-null_2.1.0_linux_amd64.zip",
        bytes: include_bytes!(
            "../../../tests/fixtures/hash/samples/terraform-provider-null_2.1.0_linux_amd64.zip"
        ),
    },
    SampleZip {
        name: "terraform-provider-layout_0.2.0_darwin_arm64.zip",
        bytes: include_bytes!(
            "../../../tests/fixtures/hash/samples/terraform-provider-layout_0.2.0_darwin_arm64.zip"
        ),
    },
];
