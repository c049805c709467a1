//! The Naive Bayes block classifier (seed paper, Hunan farmer site):
//! `--algorithm nb`.
//!
//! In: [`Block`]s (see [`super::blocks`]) and, for training, their labels.
//! Out: a [`NbModel`] (JSON-serialisable) and, per block, content or not.
//!
//! Four features, binned as the paper bins them:
//! 1. non-link characters: < 20, 20–40, 40–60, 60–80, 80–100, > 100 (6 bins);
//! 2. link-character ratio: < 10 %, 10–50 %, 50–80 %, > 80 %;
//! 3. punctuation ratio — sentence marks per character of the block
//!    (the paper's "punctuation / link-character ratio" read as marks over
//!    the block's characters): < 2 %, 2–10 %, > 10 %;
//! 4. number of `<p>`: 0, 1–3, > 3.
//!
//! P(class | bins) ∝ P(class) · Π P(bin | class), every probability with
//! Laplace (add-one) smoothing; a block is content when the content class
//! has the larger posterior.

use serde::{Deserialize, Serialize};

use super::blocks::{Block, Features};

/// Bins per feature, in the order of the module doc.
pub const BINS: [usize; 4] = [6, 4, 3, 3];

/// The bin of each feature.
pub fn bins(f: &Features) -> [usize; 4] {
    let non_link = f.chars.saturating_sub(f.link_chars);
    let b1 = match non_link {
        0..20 => 0,
        20..100 => 1 + (non_link as usize - 20) / 20,
        _ => 5,
    };
    let chars = f64::from(f.chars.max(1));
    let link_ratio = f64::from(f.link_chars) / chars;
    let b2 = if link_ratio < 0.1 {
        0
    } else if link_ratio < 0.5 {
        1
    } else if link_ratio < 0.8 {
        2
    } else {
        3
    };
    let punct_ratio = f64::from(f.punct) / chars;
    let b3 = if punct_ratio < 0.02 {
        0
    } else if punct_ratio <= 0.10 {
        1
    } else {
        2
    };
    let b4 = match f.paragraphs {
        0 => 0,
        1..=3 => 1,
        _ => 2,
    };
    [b1, b2, b3, b4]
}

/// Counts learned from labelled blocks; probabilities are derived with
/// Laplace smoothing at prediction time.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NbModel {
    /// Training blocks per class: `[noise, content]`.
    pub class_counts: [u64; 2],
    /// `bin_counts[class][feature][bin]`.
    pub bin_counts: [Vec<Vec<u64>>; 2],
}

impl NbModel {
    /// Count the bins of labelled blocks.
    pub fn train<'b>(samples: impl IntoIterator<Item = (&'b Features, bool)>) -> NbModel {
        let empty = || BINS.iter().map(|&k| vec![0u64; k]).collect::<Vec<_>>();
        let mut m = NbModel {
            class_counts: [0, 0],
            bin_counts: [empty(), empty()],
        };
        for (f, content) in samples {
            let c = usize::from(content);
            m.class_counts[c] += 1;
            for (feature, bin) in bins(f).into_iter().enumerate() {
                m.bin_counts[c][feature][bin] += 1;
            }
        }
        m
    }

    /// log P(class) + Σ log P(bin | class), add-one smoothed.
    fn log_posterior(&self, class: usize, bins: &[usize; 4]) -> f64 {
        let total: u64 = self.class_counts.iter().sum();
        let n_c = self.class_counts[class] as f64;
        let mut lp = ((n_c + 1.0) / (total as f64 + 2.0)).ln();
        for (feature, &bin) in bins.iter().enumerate() {
            let count = self.bin_counts[class]
                .get(feature)
                .and_then(|b| b.get(bin))
                .copied()
                .unwrap_or(0) as f64;
            lp += ((count + 1.0) / (n_c + BINS[feature] as f64)).ln();
        }
        lp
    }

    /// Is a block with these features content?
    pub fn is_content(&self, f: &Features) -> bool {
        let b = bins(f);
        self.log_posterior(1, &b) > self.log_posterior(0, &b)
    }

    /// Content or not, for every block.
    pub fn classify(&self, blocks: &[Block]) -> Vec<bool> {
        blocks
            .iter()
            .map(|b| self.is_content(&b.features))
            .collect()
    }

    /// The shape is right (bin vectors as long as [`BINS`] says).
    pub fn is_well_formed(&self) -> bool {
        self.bin_counts
            .iter()
            .all(|c| c.len() == BINS.len() && c.iter().zip(BINS).all(|(v, k)| v.len() == k))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(chars: u32, link_chars: u32, punct: u32, paragraphs: u32) -> Features {
        Features {
            chars,
            link_chars,
            punct,
            paragraphs,
            ..Features::default()
        }
    }

    #[test]
    fn bins_follow_the_paper() {
        assert_eq!(bins(&f(10, 0, 0, 0)), [0, 0, 0, 0]);
        assert_eq!(bins(&f(45, 5, 2, 2)), [2, 1, 1, 1]);
        assert_eq!(bins(&f(500, 450, 60, 9)), [2, 3, 2, 2]);
        assert_eq!(bins(&f(1000, 0, 30, 4)), [5, 0, 1, 2]);
    }

    #[test]
    fn learns_prose_versus_link_lists() {
        let prose = f(800, 20, 30, 5);
        let menu = f(60, 60, 0, 0);
        let samples = [(&prose, true), (&menu, false), (&menu, false)];
        let m = NbModel::train(samples);
        assert!(m.is_well_formed());
        assert_eq!(m.class_counts, [2, 1]);
        assert!(m.is_content(&f(600, 0, 25, 4)));
        assert!(!m.is_content(&f(40, 40, 0, 0)));
        let json = serde_json::to_string(&m).unwrap_or_default();
        let back: NbModel = serde_json::from_str(&json).unwrap_or_default();
        assert_eq!(back, m);
    }
}
