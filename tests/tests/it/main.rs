//! tflock's integration tests, as one test binary: every suite is a module here (one link of
//! the dependency graph instead of one per suite). Run one suite with
//! `cargo test -p tflock-tests --test it -- <suite>::`.

// Helpers shared by several suites.
mod e2e_common;
mod hash_common;

// The suites (each was a test binary of its own).
mod addrs_match_x_net_idna;
mod addrs_tables;
mod cli_e2e;
mod cli_e2e_mirrors;
mod cli_e2e_modules;
mod cli_e2e_network;
mod cli_e2e_no_silent_failures;
mod cli_flavor_from_workdir;
mod cli_metadata_hashes;
mod cli_mirror_incremental;
mod cli_module_tree;
mod cli_platforms_remembered;
mod cli_required_version;
mod cli_scripting;
mod cli_terraform_flags;
mod collections_match_btree;
mod config_cli;
mod config_fuzz;
mod config_merge;
mod config_remote_modules;
mod config_requirements;
mod config_syntax_errors_match_hclsyntax;
mod core_layers_match_architecture;
mod crash_safety;
mod edge_fill;
mod edge_mirror;
mod hash_bad_input;
mod hash_cli_golden;
mod hash_matches_go_dirhash;
mod hash_streaming_memory;
mod lockfile_cli;
mod lockfile_fixtures;
mod lockfile_mutations;
mod lockfile_reader_oracle;
mod lockfile_rules;
mod lockfile_writer_oracle;
mod parser_memory;
mod plan_metadata_hashes;
mod plan_scenarios;
mod plan_signatures;
mod pre_commit_hooks;
mod protocol_models;
mod protocol_openpgp;
mod protocol_signature;
mod terraform_oracle;
mod versions_explain;
mod versions_match_go_versions;
mod versions_props;
mod versions_tables;
