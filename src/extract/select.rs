//! Content selection on the arena DOM → article text.
//!
//! In: a [`Dom`]. Out: the article text. `td`/`ctd` run the CETD family
//! exactly as the papers give it; `auto` adds the heuristics that moved the
//! eval numbers (see the module's numbered steps).

use super::density::{cetd, Density};
use super::dom::Dom;
use super::text::{assemble_kept, TextSink};

/// Plain CETD with DensitySum selection and threshold marking.
pub fn cetd_text(dom: &Dom<'_>, kind: Density) -> String {
    let removed = vec![false; dom.len()];
    let stats = dom.stats(&removed);
    let c = cetd(dom, &stats, kind, &removed);
    let mut sink = TextSink::default();
    assemble_kept(dom, 0, &removed, Some(&c.keep), &mut sink);
    sink.finish()
}

/// The default: CETD plus heuristics.
pub fn auto_text(dom: &Dom<'_>) -> String {
    cetd_text(dom, Density::Composite)
}
