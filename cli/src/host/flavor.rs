//! The working directory's flavour: reads what core's [`choose_flavor`] weighs (the lock
//! file's text, the root module's file names) and prints the one line it has to say.

use std::path::Path;
use tflock_core::api::lock_file::LOCK_FILE_NAME;
use tflock_core::api::parse::choose_flavor;
use tflock_core::Flavor;

/// The flavour for the root module `dir` (its lock file is `dir/.terraform.lock.hcl`).
pub fn for_dir(given: Option<Flavor>, dir: &Path) -> Flavor {
    for_lock(given, &dir.join(LOCK_FILE_NAME), dir)
}

/// The flavour for the lock file at `lock` and the module in `dir`. An unreadable lock or
/// directory is no signal (the command reports it where it reads them for real).
pub fn for_lock(given: Option<Flavor>, lock: &Path, dir: &Path) -> Flavor {
    if let Some(flavor) = given {
        return flavor;
    }
    let text = std::fs::read(lock)
        .ok()
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned());
    let names: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| e.path().is_file())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let choice = choose_flavor(None, text.as_deref(), &names);
    if let Some(line) = choice.message() {
        eprintln!("{line}");
    }
    choice.flavor
}
