//! Load a module (or a tree of modules) from in-memory files, merge its override files,
//! and read its provider requirements.

/// Which file names are configuration (`.tf`, `.tofu`, `.tf.json`) or test files, and why
/// another one is ignored.
pub use crate::config::files::{config_ext, ignore_reason};
/// Which files of a mock data directory Terraform reads.
pub use crate::config::mock_data::is_mock_data_file;
/// Load a working directory's tree in passes: the directories still to read, the
/// installed modules' manifest, the directories that could not be read.
pub use crate::config::modules_manifest::ModuleManifest;
/// The name a module directory's file goes by in diagnostics (and in the sources that
/// render them).
pub use crate::config::requirements::in_dir as source_name;
pub use crate::config::requirements::{
    load_tree_with_manifest, unread_dirs, unreadable_file, UnreadableDir,
};
/// The tree's provider requirements, and their rendering as `terraform providers` does.
pub use crate::config::requirements::{
    render_tree, OriginKind, ProviderRequirement, ProviderRequirements, RequirementOrigin,
};
pub use crate::config::test_files::is_test_file;
pub use crate::config::tree_requirements;
/// Load one module with the changes its `*_override.tf` files made.
pub use crate::config::{load_module_with_changes, ChangeKind, OverrideChanges};
/// Load a tree of modules from its root's files (or every directory's files at once).
pub use crate::config::{load_tree, load_tree_with_root};
/// Render the merged configuration, and where each of its lines came from.
pub use crate::config::{provenance, provenance_with_lines, render_merged, Provenance};
/// How a module is loaded, and the loaded tree.
pub use crate::config::{LoadOptions, ModuleTree};
