//! What the panels show, computed from their inputs with `tflock-core`. Pure functions
//! over strings and bytes, so they build and test natively; the view only renders them.

pub mod config;
pub mod diagnostics;
pub mod lock;
pub mod open;
pub mod preview;
pub mod remote_lock;
pub mod share;
