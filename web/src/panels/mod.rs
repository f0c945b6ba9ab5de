//! The panels of the page and the pieces they share.

pub mod config;
pub mod diagnostics;
pub mod hash;
pub mod lock;
pub mod open;
pub mod preview;
pub mod remote_lock;
