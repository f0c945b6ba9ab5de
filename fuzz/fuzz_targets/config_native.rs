//! Fuzzes native HCL module loading with override files; the body is `tflock_fuzz_bodies`'s, which CI replays on stable.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    tflock_fuzz_bodies::run("config_native", data);
});
