//! frontier
