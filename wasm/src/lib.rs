//! Placeholder member: the wasm-bindgen bindings arrive with the npm package issue.
//! Nothing here is exported yet.
