//! Hash benchmark (being written).
fn main() {}
