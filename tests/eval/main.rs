//! Extraction quality: mean F1 floors on `../shared/corpus`, per-site
//! boilerplate learning in page order (cleanportaleval) and on the simulated
//! web's templates.

mod boilerplate_sequence;
mod boilerplate_simweb;
mod corpus;
