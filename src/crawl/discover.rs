//! discover
