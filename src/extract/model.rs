//! Learned block models (`nb`, `tree`): the JSON model file, the models
//! shipped inside the binary, and block-classifier extraction.
//!
//! In: a model file's bytes (or the embedded defaults) and a [`Dom`]. Out: a
//! [`BlockModel`], and the article text it selects.
//!
//! The shipped models (`src/extract/models/{nb,tree}.json`, embedded with
//! `include_bytes!`) were trained with `newshound train` on the
//! `readability-dev` set of the corpus (tests/corpus) only; `eval` never scores them:
//! it scores `nb` and `tree` by held-out folds (see `eval::folds`).

use std::path::Path;
use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

use super::blocks::{blocks, text_of_blocks};
use super::dom::Dom;
use super::nb::NbModel;
use super::tree::rule::{RuleOutcome, SiteRule};
use super::tree::TreeModel;
use super::Algorithm;

/// A trained block classifier, as stored in a model file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "algorithm", rename_all = "lowercase")]
pub enum BlockModel {
    Nb(NbModel),
    Tree(TreeModel),
}

/// Errors reading a model file.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    #[error("{path}: cannot read model: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}: not a newshound model: {source}")]
    Format {
        path: String,
        source: serde_json::Error,
    },
    #[error("{path}: malformed {algorithm} model (wrong feature or bin counts)")]
    Malformed {
        path: String,
        algorithm: &'static str,
    },
    #[error("{path}: the model is for {model}, but the algorithm is {algorithm}")]
    WrongAlgorithm {
        path: String,
        model: &'static str,
        algorithm: &'static str,
    },
}

static DEFAULT_NB: LazyLock<BlockModel> = LazyLock::new(|| {
    BlockModel::parse(include_bytes!("models/nb.json"), "models/nb.json")
        .expect("the embedded nb model is checked by a unit test")
});
static DEFAULT_TREE: LazyLock<BlockModel> = LazyLock::new(|| {
    BlockModel::parse(include_bytes!("models/tree.json"), "models/tree.json")
        .expect("the embedded tree model is checked by a unit test")
});

impl BlockModel {
    /// Parse model JSON; `path` names it in errors.
    pub fn parse(bytes: &[u8], path: &str) -> Result<BlockModel, ModelError> {
        let model: BlockModel =
            serde_json::from_slice(bytes).map_err(|source| ModelError::Format {
                path: path.to_string(),
                source,
            })?;
        let ok = match &model {
            BlockModel::Nb(m) => m.is_well_formed(),
            BlockModel::Tree(m) => m.is_well_formed(),
        };
        if !ok {
            return Err(ModelError::Malformed {
                path: path.to_string(),
                algorithm: model.name(),
            });
        }
        Ok(model)
    }

    /// Read a model file.
    pub fn load(path: &Path) -> Result<BlockModel, ModelError> {
        let shown = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|source| ModelError::Io {
            path: shown.clone(),
            source,
        })?;
        BlockModel::parse(&bytes, &shown)
    }

    /// Read a model file for `algorithm` (`nb` or `tree`): a model of the
    /// other kind is an error.
    pub fn load_for(path: &Path, algorithm: Algorithm) -> Result<BlockModel, ModelError> {
        let model = BlockModel::load(path)?;
        if model.algorithm() != algorithm {
            return Err(ModelError::WrongAlgorithm {
                path: path.display().to_string(),
                model: model.name(),
                algorithm: algorithm.name(),
            });
        }
        Ok(model)
    }

    /// Pretty JSON for a model file.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// The shipped model of an algorithm (`nb` or `tree`).
    pub fn default_for(algorithm: Algorithm) -> Option<&'static BlockModel> {
        match algorithm {
            Algorithm::Nb => Some(&*DEFAULT_NB),
            Algorithm::Tree => Some(&*DEFAULT_TREE),
            _ => None,
        }
    }

    /// `nb` or `tree`.
    pub fn name(&self) -> &'static str {
        match self {
            BlockModel::Nb(_) => "nb",
            BlockModel::Tree(_) => "tree",
        }
    }

    /// The algorithm this model runs under.
    pub fn algorithm(&self) -> Algorithm {
        match self {
            BlockModel::Nb(_) => Algorithm::Nb,
            BlockModel::Tree(_) => Algorithm::Tree,
        }
    }

    /// Content or not, per block.
    pub fn classify(&self, blocks: &[super::blocks::Block]) -> Vec<bool> {
        match self {
            BlockModel::Nb(m) => m.classify(blocks),
            BlockModel::Tree(m) => m.classify(blocks),
        }
    }

    /// The article text of a page by the site's rule when it matches, else
    /// by this model — learning the rule to use from then on (`tree`'s site
    /// rules, `super::tree::rule`).
    pub fn extract_by_rule(&self, dom: &Dom<'_>, rule: Option<&SiteRule>) -> (String, RuleOutcome) {
        if let Some(text) = rule.and_then(|r| r.apply(dom)) {
            return (text, RuleOutcome::ByRule);
        }
        let blocks = blocks(dom);
        let content = self.classify(&blocks);
        let text = text_of_blocks(dom, &blocks, &content);
        let learned = SiteRule::learn(dom, &blocks, &content);
        let outcome = if rule.is_some() {
            RuleOutcome::Relearned(learned)
        } else {
            RuleOutcome::Learned(learned)
        };
        (text, outcome)
    }

    /// The article text: the blocks the model judges content.
    pub fn extract(&self, dom: &Dom<'_>) -> String {
        let blocks = blocks(dom);
        let content = self.classify(&blocks);
        text_of_blocks(dom, &blocks, &content)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_models_parse() {
        for alg in [Algorithm::Nb, Algorithm::Tree] {
            let m = BlockModel::default_for(alg);
            assert_eq!(m.map(BlockModel::algorithm), Some(alg));
        }
    }

    #[test]
    fn bad_model_files_say_what_is_wrong() {
        let e = BlockModel::parse(b"{\"algorithm\":\"svm\"}", "m.json");
        let msg = e
            .map(|_| ())
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(msg.starts_with("m.json: not a newshound model"), "{msg}");
        let e = BlockModel::parse(
            b"{\"algorithm\":\"nb\",\"class_counts\":[1,1],\"bin_counts\":[[[1]],[[1]]]}",
            "m.json",
        );
        assert!(matches!(e, Err(ModelError::Malformed { .. })), "{e:?}");
        let e = BlockModel::load(Path::new("/nonexistent/model.json"));
        assert!(matches!(e, Err(ModelError::Io { .. })), "{e:?}");
        let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = tmp.path().join("nb.json");
        let nb = BlockModel::default_for(Algorithm::Nb).map(BlockModel::to_json);
        std::fs::write(&path, nb.unwrap_or_default()).unwrap_or_else(|e| panic!("{e}"));
        assert!(BlockModel::load_for(&path, Algorithm::Nb).is_ok());
        let e = BlockModel::load_for(&path, Algorithm::Tree);
        let msg = e
            .map(|_| ())
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            msg.ends_with("nb.json: the model is for nb, but the algorithm is tree"),
            "{msg}"
        );
    }
}
