//! Fuzzes network-mirror index and version documents; the body is `tflock_fuzz_bodies`'s, which CI replays on stable.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    tflock_fuzz_bodies::run("mirror_json", data);
});
