//! Deterministic news text: a seed → headlines, paragraphs, names, comments.
//!
//! In: an [`Rng`] (SplitMix64, seeded from the web's seed, the site and the
//! article id) and a [`Lang`]. Out: strings that read like news copy in
//! English, French or Chinese, built from the embedded word lists and sentence
//! templates of [`super::lexicon`]. Nothing is read at run time, so the same
//! seed gives byte-identical text on every machine.

use super::lexicon::{self, Lexicon};

/// SplitMix64: tiny, fast, and good enough to pick words; no crate needed.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    #[cfg(test)]
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// A generator for one item of a family (site, article...), independent of
    /// how many items came before it, so adding articles never changes old ones.
    pub fn derive(seed: u64, parts: &[u64]) -> Rng {
        let mut rng = Rng(seed ^ 0x005e_ed0f_2026);
        for p in parts {
            rng.0 ^= p.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            rng.next_u64();
        }
        rng
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n` > 0; returns 0 for `n` = 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        (self.next_u64() % n as u64) as usize
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi.saturating_sub(lo) + 1)
    }

    pub fn pick<'a>(&mut self, items: &'a [&'a str]) -> &'a str {
        items.get(self.below(items.len())).copied().unwrap_or("")
    }
}

/// Language of a site's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    En,
    Fr,
    Zh,
}

impl Lang {
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Fr => "fr",
            Lang::Zh => "zh",
        }
    }

    fn lexicon(self) -> &'static Lexicon {
        match self {
            Lang::En => &lexicon::EN,
            Lang::Fr => &lexicon::FR,
            Lang::Zh => &lexicon::ZH,
        }
    }
}

/// Text generator for one language.
pub struct Writer<'r> {
    rng: &'r mut Rng,
    lex: &'static Lexicon,
    lang: Lang,
    /// Sentence templates already used by this writer: an article uses each
    /// at most once until all have been used.
    used: Vec<bool>,
}

impl<'r> Writer<'r> {
    pub fn new(rng: &'r mut Rng, lang: Lang) -> Writer<'r> {
        Writer {
            rng,
            lex: lang.lexicon(),
            lang,
            used: vec![false; lang.lexicon().sentences.len()],
        }
    }

    /// Uniform in `lo..=hi`, from the writer's generator.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        self.rng.range(lo, hi)
    }

    pub fn person(&mut self) -> String {
        let first = self.rng.pick(self.lex.first_names);
        let last = self.rng.pick(self.lex.last_names);
        match self.lang {
            Lang::Zh => format!("{last}{first}"),
            _ => format!("{first} {last}"),
        }
    }

    /// A headline, unique enough that two articles of a site rarely share one
    /// (the article id in the URL keeps URLs unique regardless).
    pub fn headline(&mut self) -> String {
        let template = self.rng.pick(self.lex.headlines);
        self.fill(template)
    }

    /// One paragraph of 2–4 sentences.
    pub fn paragraph(&mut self) -> String {
        let n = self.rng.range(2, 4);
        let sentences: Vec<String> = (0..n).map(|_| self.sentence()).collect();
        match self.lang {
            Lang::Zh => sentences.concat(),
            _ => sentences.join(" "),
        }
    }

    pub fn sentence(&mut self) -> String {
        let all = self.lex.sentences;
        if self.used.iter().all(|&u| u) {
            self.used.iter_mut().for_each(|u| *u = false);
        }
        let fresh: Vec<usize> = (0..all.len()).filter(|&i| !self.used[i]).collect();
        let i = fresh.get(self.rng.below(fresh.len())).copied().unwrap_or(0);
        if let Some(u) = self.used.get_mut(i) {
            *u = true;
        }
        self.fill(all.get(i).copied().unwrap_or(""))
    }

    /// A reader comment: opinion phrases recur across the site, as they do.
    pub fn comment(&mut self) -> String {
        let a = self.rng.pick(self.lex.comments);
        let b = self.sentence();
        match self.lang {
            Lang::Zh => format!("{a}{b}"),
            _ => format!("{a} {b}"),
        }
    }

    /// Replace `{slot}` markers with words of the lexicon.
    fn fill(&mut self, template: &str) -> String {
        let mut out = String::with_capacity(template.len() + 64);
        let mut rest = template;
        while let Some(open) = rest.find('{') {
            out.push_str(&rest[..open]);
            let after = &rest[open + 1..];
            let Some(close) = after.find('}') else {
                out.push_str(&rest[open..]);
                return out;
            };
            let slot = &after[..close];
            let word = self.slot(slot);
            out.push_str(&word);
            rest = &after[close + 1..];
        }
        out.push_str(rest);
        capitalise_first(out)
    }

    fn slot(&mut self, slot: &str) -> String {
        let lex = self.lex;
        match slot {
            "P" => self.person(),
            "R" => self.rng.pick(lex.roles).to_string(),
            "O" => self.rng.pick(lex.orgs).to_string(),
            "C" => self.rng.pick(lex.cities).to_string(),
            "T" => self.rng.pick(lex.topics).to_string(),
            "V" => self.rng.pick(lex.verbs).to_string(),
            "A" => self.rng.pick(lex.adjectives).to_string(),
            "D" => self.rng.pick(lex.days).to_string(),
            "Q" => self.rng.pick(lex.quotes).to_string(),
            "N" => (self.rng.range(2, 98)).to_string(),
            "M" => format!("{}.{}", self.rng.range(1, 40), self.rng.below(10)),
            "Y" => (self.rng.range(2026, 2030)).to_string(),
            other => other.to_string(),
        }
    }
}

fn capitalise_first(s: String) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if c.is_lowercase() => c.to_uppercase().chain(chars).collect(),
        _ => s,
    }
}

/// ASCII slug of a headline: lower case, accents folded, words joined by `-`,
/// at most 8 words. Empty for text without Latin letters (Chinese).
pub fn slug(title: &str) -> String {
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    for c in title.chars() {
        let folded = fold(c);
        if folded.is_empty() {
            if !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
        } else {
            word.push_str(folded);
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words.truncate(8);
    words.join("-")
}

/// One character → its lowercase ASCII letters/digits ("" for separators).
fn fold(c: char) -> &'static str {
    const ASCII: &str = "abcdefghijklmnopqrstuvwxyz0123456789";
    let lower = c.to_ascii_lowercase();
    if let Some(i) = ASCII.find(lower) {
        return &ASCII[i..i + 1];
    }
    match c {
        'à' | 'â' | 'ä' | 'À' | 'Â' => "a",
        'é' | 'è' | 'ê' | 'ë' | 'É' | 'È' => "e",
        'î' | 'ï' => "i",
        'ô' | 'ö' => "o",
        'ù' | 'û' | 'ü' => "u",
        'ç' | 'Ç' => "c",
        'œ' => "oe",
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_text_and_different_seed_differs() {
        let gen = |seed| {
            let mut rng = Rng::derive(seed, &[1, 2]);
            let mut w = Writer::new(&mut rng, Lang::En);
            (w.headline(), w.paragraph())
        };
        assert_eq!(gen(7), gen(7));
        assert_ne!(gen(7), gen(8));
    }

    #[test]
    fn slots_are_all_filled() {
        for lang in [Lang::En, Lang::Fr, Lang::Zh] {
            let mut rng = Rng::new(3);
            let mut w = Writer::new(&mut rng, lang);
            for _ in 0..200 {
                let p = w.paragraph();
                let h = w.headline();
                assert!(!p.contains('{') && !p.contains('}'), "{p}");
                assert!(!h.contains('{') && !h.contains('}'), "{h}");
            }
        }
    }

    #[test]
    fn chinese_paragraphs_are_cjk() {
        let mut rng = Rng::new(11);
        let p = Writer::new(&mut rng, Lang::Zh).paragraph();
        let cjk = p
            .chars()
            .filter(|c| ('\u{4e00}'..='\u{9fff}').contains(c))
            .count();
        assert!(cjk * 2 > p.chars().count(), "{p}");
    }

    #[test]
    fn slug_folds_accents_and_drops_punctuation() {
        assert_eq!(
            slug("À Lyon, l'État rénove ses écoles"),
            "a-lyon-l-etat-renove-ses-ecoles"
        );
        assert_eq!(slug("中国经济"), "");
    }
}
