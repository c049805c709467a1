//! The `newshound` command line.
fn main() {}
