//! Differential suites against the real Terraform CLI (see `tflock_tests::terraform`):
//! the same generated inputs go to `terraform` and `tflock`, and the observable results
//! (exit status, lock file bytes, installed files, plans, diagnostics) must agree.
//! Every generated suite prints its seed; `TFLOCK_ORACLE_SEED=<n>` replays one
//! (`TFLOCK_ORACLE_SEED=<n> cargo test -p tflock-tests --test it -- terraform_oracle::`).

mod block_schemas;
mod broken_syntax;
mod broken_syntax_decoding;
mod config_errors;
mod fixtures;
mod gen_config;
mod go_templates;
mod harness;
mod init_config;
mod init_diagnostics;
mod init_trees;
mod installed_modules;
mod load_values;
mod lock;
mod lockfile_diags;
mod merge;
mod module_sources;
mod operators;
mod provider_configs;
mod providers;
mod rendered;
mod required_version;
mod syntax;
mod test_files;
mod var_files;
