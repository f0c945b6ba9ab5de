//! Fuzzes the lock file reader: any input must give locks and diagnostics, never a panic;
//! whatever loads without errors must write out and read back to the same bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tflock_core::lockfile::{load_locks, write_locks, LoadOptions};
use tflock_core::Flavor;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for flavor in [Flavor::Terraform, Flavor::OpenTofu] {
        let opts = LoadOptions::new(".terraform.lock.hcl", flavor);
        let (locks, diags) = load_locks(text, &opts);
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
});
