//! C4.5 training (Quinlan): labelled feature vectors → [`TreeModel`].
//!
//! In: [`Sample`]s (the six block features and a content label). Out: a
//! pruned binary tree.
//!
//! 1. A node with one class, fewer than 2 · [`MIN_LEAF`] samples, or at
//!    [`MAX_DEPTH`] is a leaf of its majority class (ties: noise).
//! 2. Each feature's best threshold (midpoint between adjacent distinct
//!    values) by information gain, less C4.5's penalty log2(candidates)/n
//!    for continuous features (Quinlan 1996).
//! 3. Among features whose gain is at least the average positive gain, the
//!    split with the largest gain ratio (gain / split information).
//! 4. Pessimistic (error-based) pruning, bottom-up: a subtree becomes a leaf
//!    when the leaf's estimated errors N · U_CF(E, N) are at most the
//!    subtree's plus 0.1, with C4.5's default confidence CF = 25 %
//!    (z = 0.6745, normal approximation of the binomial upper limit).

use super::{TreeModel, TreeNode};

/// Fewest samples on each side of a split.
pub const MIN_LEAF: usize = 2;
/// Deepest split (keeps the recursion and the model file bounded).
pub const MAX_DEPTH: usize = 24;
/// z of C4.5's default pruning confidence, CF = 25 %.
const Z: f64 = 0.6745;

/// One training example.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    pub x: [f64; 6],
    pub content: bool,
}

fn entropy(pos: usize, n: usize) -> f64 {
    if n == 0 || pos == 0 || pos == n {
        return 0.0;
    }
    let p = pos as f64 / n as f64;
    -(p * p.log2() + (1.0 - p) * (1.0 - p).log2())
}

/// Upper confidence limit of the error rate of `e` errors in `n` samples
/// (normal approximation used by C4.5), times `n`: the estimated errors.
pub fn estimated_errors(e: f64, n: f64) -> f64 {
    if n <= 0.0 {
        return 0.0;
    }
    let f = e / n;
    let z2 = Z * Z;
    let ucf = (f + z2 / (2.0 * n) + Z * (f / n - f * f / n + z2 / (4.0 * n * n)).max(0.0).sqrt())
        / (1.0 + z2 / n);
    n * ucf
}

/// The best split of a feature: (gain, split information, threshold).
fn best_threshold(samples: &[Sample], idx: &mut [u32], feature: usize) -> Option<(f64, f64, f64)> {
    let n = idx.len();
    idx.sort_unstable_by(|&a, &b| {
        samples[a as usize].x[feature].total_cmp(&samples[b as usize].x[feature])
    });
    let pos = idx.iter().filter(|&&i| samples[i as usize].content).count();
    let base = entropy(pos, n);
    let candidates = idx
        .windows(2)
        .filter(|w| samples[w[0] as usize].x[feature] < samples[w[1] as usize].x[feature])
        .count();
    if candidates == 0 {
        return None;
    }
    let mut best: Option<(f64, usize, f64)> = None; // (gain, left size, threshold)
    let mut left_pos = 0;
    for k in 0..n - 1 {
        let (a, b) = (&samples[idx[k] as usize], &samples[idx[k + 1] as usize]);
        left_pos += usize::from(a.content);
        let nl = k + 1;
        if a.x[feature] >= b.x[feature] || nl < MIN_LEAF || n - nl < MIN_LEAF {
            continue;
        }
        let (wl, wr) = (nl as f64 / n as f64, (n - nl) as f64 / n as f64);
        let gain = base - wl * entropy(left_pos, nl) - wr * entropy(pos - left_pos, n - nl);
        if best.is_none_or(|(g, _, _)| gain > g) {
            best = Some((gain, nl, (a.x[feature] + b.x[feature]) / 2.0));
        }
    }
    let (gain, nl, threshold) = best?;
    let gain = gain - (candidates as f64).log2() / n as f64;
    let (wl, wr) = (nl as f64 / n as f64, (n - nl) as f64 / n as f64);
    let split_info = -(wl * wl.log2() + wr * wr.log2());
    (gain > 0.0).then_some((gain, split_info, threshold))
}

/// Build the subtree of `idx`; returns it with its estimated errors.
fn build(samples: &[Sample], idx: &mut [u32], depth: usize) -> (TreeNode, f64) {
    let n = idx.len();
    let pos = idx.iter().filter(|&&i| samples[i as usize].content).count();
    let content = pos * 2 > n;
    let errors = if content { n - pos } else { pos };
    let leaf = TreeNode::Leaf {
        content,
        samples: n as u64,
    };
    let leaf_est = estimated_errors(errors as f64, n as f64);
    // 1.
    if errors == 0 || n < 2 * MIN_LEAF || depth >= MAX_DEPTH {
        return (leaf, leaf_est);
    }
    // 2.
    let splits: Vec<(usize, f64, f64, f64)> = (0..6)
        .filter_map(|f| best_threshold(samples, idx, f).map(|(g, si, t)| (f, g, si, t)))
        .collect();
    if splits.is_empty() {
        return (leaf, leaf_est);
    }
    // 3.
    let avg_gain = splits.iter().map(|s| s.1).sum::<f64>() / splits.len() as f64;
    let Some(&(feature, _, _, threshold)) = splits
        .iter()
        .filter(|s| s.1 >= avg_gain - 1e-12)
        .max_by(|a, b| (a.1 / a.2.max(1e-12)).total_cmp(&(b.1 / b.2.max(1e-12))))
    else {
        return (leaf, leaf_est);
    };
    let (mut le, mut gt): (Vec<u32>, Vec<u32>) = idx
        .iter()
        .partition(|&&i| samples[i as usize].x[feature] <= threshold);
    let (le_node, le_est) = build(samples, &mut le, depth + 1);
    let (gt_node, gt_est) = build(samples, &mut gt, depth + 1);
    // 4.
    let subtree_est = le_est + gt_est;
    if leaf_est <= subtree_est + 0.1 {
        return (leaf, leaf_est);
    }
    (
        TreeNode::Split {
            feature,
            threshold,
            le: Box::new(le_node),
            gt: Box::new(gt_node),
        },
        subtree_est,
    )
}

/// Train a pruned C4.5 tree.
pub fn train(samples: &[Sample]) -> TreeModel {
    let mut idx: Vec<u32> = (0..samples.len() as u32).collect();
    TreeModel {
        root: build(samples, &mut idx, 0).0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(words: f64, link_ratio: f64, content: bool) -> Sample {
        Sample {
            x: [words, 0.0, 0.0, 0.0, 0.0, link_ratio],
            content,
        }
    }

    #[test]
    fn learns_a_threshold_split() {
        let mut samples = Vec::new();
        for i in 0..40 {
            let w = f64::from(i);
            samples.push(sample(w, 0.9, false));
            samples.push(sample(100.0 + w, 0.05, true));
        }
        let tree = train(&samples);
        assert!(tree.is_well_formed());
        assert_eq!(tree.leaves(), 2, "{tree:?}");
        match &tree.root {
            TreeNode::Split {
                feature, threshold, ..
            } => {
                assert!(*feature == 0 || *feature == 5, "{feature}");
                if *feature == 0 {
                    assert!(*threshold > 39.0 && *threshold < 100.0, "{threshold}");
                }
            }
            leaf => panic!("expected a split, got {leaf:?}"),
        }
    }

    #[test]
    fn pessimistic_pruning_removes_a_split_that_buys_nothing() {
        // Labels independent of the feature: any split is noise.
        let samples: Vec<Sample> = (0..60)
            .map(|i| sample(f64::from(i), 0.0, i % 3 == 0))
            .collect();
        let tree = train(&samples);
        assert_eq!(tree.leaves(), 1, "{tree:?}");
        assert!(matches!(
            tree.root,
            TreeNode::Leaf {
                content: false,
                samples: 60
            }
        ));
    }

    #[test]
    fn estimated_errors_exceed_observed() {
        assert!(estimated_errors(0.0, 10.0) > 0.0);
        assert!(estimated_errors(2.0, 10.0) > 2.0);
        assert!(estimated_errors(2.0, 10.0) < 10.0);
        assert_eq!(estimated_errors(0.0, 0.0), 0.0);
    }
}
