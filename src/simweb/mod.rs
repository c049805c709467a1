//! The simulated news web: several news sites served on 127.0.0.1 for the
//! demo, the integration tests and the benches.
