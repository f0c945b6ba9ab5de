//! The tflock browser playground: a Leptos client-side app that runs `tflock-core` in the
//! page (no server logic). `model` computes what each panel shows and builds natively;
//! the Leptos view (`app`, `panels`) exists only for wasm32. Built and served by
//! `cargo xtask playground`, tested in headless Chromium by `cargo xtask playground-test`.

pub mod model;
pub mod samples;

#[cfg(target_arch = "wasm32")]
mod app;
#[cfg(target_arch = "wasm32")]
mod panels;
#[cfg(target_arch = "wasm32")]
mod stream;
