//! CETD family on a scraper DOM: text density, composite text density,
//! DensitySum selection.
