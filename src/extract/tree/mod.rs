//! The C4.5 decision tree over block features (hybrid approach paper):
//! `--algorithm tree`.
//!
//! In: [`Block`]s (see [`super::blocks`]) and, for training, their labels.
//! Out: a [`TreeModel`] (JSON-serialisable) and, per block, content or not.
//!
//! Features ([`super::blocks::TREE_FEATURES`]): word count, density in page
//! (block words / page words), link count, words in links, average words
//! per link, link-word ratio. Training ([`c45`]) splits on the threshold of
//! a feature with the best gain ratio and prunes pessimistically; the
//! paper's second half — learn the content block's id/class path once per
//! site and reuse it — is [`rule`].

pub mod c45;
pub mod rule;

use serde::{Deserialize, Serialize};

use super::blocks::{Block, Features};

/// A node of the tree: a leaf with its class, or a binary split
/// `feature ≤ threshold`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TreeNode {
    Leaf {
        content: bool,
        /// Training samples that reached the leaf.
        samples: u64,
    },
    Split {
        feature: usize,
        threshold: f64,
        /// `feature ≤ threshold`.
        le: Box<TreeNode>,
        gt: Box<TreeNode>,
    },
}

/// A trained tree.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TreeModel {
    pub root: TreeNode,
}

impl TreeModel {
    /// Is a block with these features content?
    pub fn is_content(&self, f: &Features) -> bool {
        let v = f.tree_vector();
        let mut node = &self.root;
        loop {
            match node {
                TreeNode::Leaf { content, .. } => return *content,
                TreeNode::Split {
                    feature,
                    threshold,
                    le,
                    gt,
                } => {
                    let x = v.get(*feature).copied().unwrap_or(0.0);
                    node = if x <= *threshold { le } else { gt };
                }
            }
        }
    }

    /// Content or not, for every block.
    pub fn classify(&self, blocks: &[Block]) -> Vec<bool> {
        blocks
            .iter()
            .map(|b| self.is_content(&b.features))
            .collect()
    }

    /// Every split names one of the six features.
    pub fn is_well_formed(&self) -> bool {
        let mut stack = vec![&self.root];
        while let Some(node) = stack.pop() {
            if let TreeNode::Split {
                feature, le, gt, ..
            } = node
            {
                if *feature >= super::blocks::TREE_FEATURES.len() {
                    return false;
                }
                stack.push(le);
                stack.push(gt);
            }
        }
        true
    }

    /// Leaves of the tree.
    pub fn leaves(&self) -> usize {
        let mut stack = vec![&self.root];
        let mut n = 0;
        while let Some(node) = stack.pop() {
            match node {
                TreeNode::Leaf { .. } => n += 1,
                TreeNode::Split { le, gt, .. } => {
                    stack.push(le);
                    stack.push(gt);
                }
            }
        }
        n
    }
}
