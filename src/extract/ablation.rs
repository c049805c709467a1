//! Switching single heuristics of `auto` off, to measure what each is worth
//! (`eval --ablate NAME,…`): the ablation lines in `select`'s module doc are
//! reproducible with one command each.
//!
//! In: a comma-separated list of step names. Out: [`Ablations`], a set the
//! steps consult through [`Ablations::off`]. The default (empty) set is what
//! `extract` and the crawler run.

use std::fmt;

/// A heuristic of `auto` that can be switched off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Reader-comment threads removed (when comments are not kept).
    Comments,
    /// A heading at the start of the text that matches the title is the
    /// headline, not text.
    LeadingHeadline,
    /// Sibling content blocks of the selection's ancestors merged.
    AncestorSiblings,
    /// Lists of story teasers (headline link over a summary) left out.
    TeaserLists,
    /// Photo captions left out (`<figcaption>`, caption classes).
    Captions,
    /// Photo credits left out (credit classes, "Photo: …", "… / Getty Images").
    Credits,
    /// Byline and dateline boxes and lines left out.
    Bylines,
    /// Newsletter, subscription and cookie prompt lines left out.
    Prompts,
    /// "Read next" / "More from" / "Read more:" link lists left out.
    LinkLists,
    /// A plain first line that repeats the title left out.
    TitleLine,
    /// Tag / category lines and lone share-bar words left out.
    TagLines,
}

impl Step {
    pub const ALL: [Step; 11] = [
        Step::Comments,
        Step::LeadingHeadline,
        Step::AncestorSiblings,
        Step::TeaserLists,
        Step::Captions,
        Step::Credits,
        Step::Bylines,
        Step::Prompts,
        Step::LinkLists,
        Step::TitleLine,
        Step::TagLines,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Step::Comments => "comments",
            Step::LeadingHeadline => "leading-headline",
            Step::AncestorSiblings => "ancestor-siblings",
            Step::TeaserLists => "teaser-lists",
            Step::Captions => "captions",
            Step::Credits => "credits",
            Step::Bylines => "bylines",
            Step::Prompts => "prompts",
            Step::LinkLists => "link-lists",
            Step::TitleLine => "title-line",
            Step::TagLines => "tag-lines",
        }
    }

    fn bit(self) -> u32 {
        1 << (self as u32)
    }
}

/// A set of switched-off steps.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Ablations(u32);

impl Ablations {
    /// Whether `step` is switched off.
    pub fn off(self, step: Step) -> bool {
        self.0 & step.bit() != 0
    }

    pub fn with(self, step: Step) -> Ablations {
        Ablations(self.0 | step.bit())
    }

    /// `comments,leading-headline`; an unknown name is an error that lists
    /// the known ones.
    pub fn parse(list: &str) -> Result<Ablations, String> {
        let mut set = Ablations::default();
        for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let step = Step::ALL.iter().find(|s| s.name() == name).ok_or_else(|| {
                let known: Vec<&str> = Step::ALL.iter().map(|s| s.name()).collect();
                format!("unknown step {name:?} (known: {})", known.join(", "))
            })?;
            set = set.with(*step);
        }
        Ok(set)
    }
}

impl fmt::Display for Ablations {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Step::ALL
            .iter()
            .filter(|s| self.off(**s))
            .map(|s| s.name())
            .collect();
        write!(f, "{}", names.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_names_and_reject_unknown() {
        let a = Ablations::parse("comments, leading-headline").unwrap_or_default();
        assert!(a.off(Step::Comments) && a.off(Step::LeadingHeadline));
        assert!(!a.off(Step::AncestorSiblings));
        assert_eq!(a.to_string(), "comments,leading-headline");
        let err = Ablations::parse("comments,nope").err().unwrap_or_default();
        assert!(
            err.contains("\"nope\"") && err.contains("ancestor-siblings"),
            "{err}"
        );
        assert_eq!(Ablations::parse(""), Ok(Ablations::default()));
    }
}
