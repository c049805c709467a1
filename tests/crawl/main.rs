//! The crawler end to end on local servers (the simulated news web on
//! 127.0.0.1): sites and discovery, politeness, robots.txt, faults, refetch,
//! continuous mode, shutdown, resume and kill -9 of the real binary, and the
//! (ignored) memory measurement. `support` starts the web with its config.

mod continuous;
mod faults;
mod kill;
mod memory;
mod modern;
mod politeness;
mod refetch;
mod resume;
mod robots;
mod shutdown;
mod simweb;
mod sites;
mod support;
