//! politeness
