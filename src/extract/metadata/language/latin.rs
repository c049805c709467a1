//! Text of the Latin script → its language and whatlang's confidence, the
//! same to the last bit as whatlang 0.18's "combined" method over the
//! languages of `latin_profiles.txt` (the tests compare the two).
//!
//! whatlang scores a text by its letters (the share that belongs to each
//! language's alphabet) and by its trigrams: the text's 600 most frequent
//! trigrams ranked, and for each language the sum over the 300 trigrams of
//! its profile of the distance between the trigram's rank in the profile and
//! in the text (300 when the text lacks it). It looks every profile trigram
//! up in the text's table, 25 × 300 lookups whatever the text's length. Here
//! one table, built once, maps a trigram to its rank in every profile that
//! has it, so one lookup per text trigram scores all languages at once:
//! distance = 300 · 300 + Σ over the profile trigrams the text has of
//! (|rank in text − rank in profile| − 300). Every other number
//! (lowercasing, letter scores, the trigrams' ranks, the weighting, the
//! confidence) is computed as whatlang computes it, and its lists are sorted
//! from the same order with the same sorts, so ties fall the same way.

use std::cmp::Reverse;
use std::collections::HashMap;
use std::sync::LazyLock;
use whatlang::Lang;

use crate::extract::key_hash::KeyHash;

/// Largest distance one trigram adds (its absence); whatlang's
/// `MAX_TRIGRAM_DISTANCE`.
const MAX_TRIGRAM_DISTANCE: i64 = 300;
/// The text's trigrams that are ranked; whatlang's `TEXT_TRIGRAMS_SIZE`.
const TEXT_TRIGRAMS: usize = 600;

/// The languages scored, in whatlang's profile order.
pub(super) fn languages() -> &'static [Lang] {
    &PROFILES.langs
}

/// Whether whatlang finds the Latin script to be the text's main one: it
/// counts each letter (not a stop char) for the first script that claims
/// it and takes the script with the highest count. More than half of the
/// letters Latin makes Latin that script whatever the others are; below
/// that the caller asks whatlang.
pub(super) fn is_mainly_latin(text: &str) -> bool {
    let (mut letters, mut latin) = (0usize, 0usize);
    for ch in text.chars() {
        if ch.is_ascii() {
            // Of the ASCII chars, the letters are Latin and DEL is the one
            // other that is no stop char.
            let alphabetic = ch.is_ascii_alphabetic();
            letters += usize::from(alphabetic || ch == '\u{7f}');
            latin += usize::from(alphabetic);
        } else {
            letters += 1;
            latin += usize::from(is_latin(ch));
        }
    }
    2 * latin > letters
}

/// The language and its confidence, for a text that [`is_mainly_latin`].
pub(super) fn detect(text: &str) -> (Lang, f64) {
    let profiles = &*PROFILES;
    let lower = text.to_lowercase();
    let (letter_count, by_letters) = profiles.letter_scores(&lower);
    let (trigram_count, by_trigrams) = profiles.trigram_scores(&lower);

    // whatlang's `calc_alphabet_weight`: letters count less as the text grows.
    let letter_weight = (-(letter_count as f64 / 300.0) + 2.0 / 3.0).clamp(1.0 / 3.0, 2.0 / 3.0);
    let trigram_weight = 1.0 - letter_weight;
    let mut scores: Vec<(Lang, f64)> = by_letters
        .iter()
        .map(|&(lang, a)| {
            let t = by_trigrams
                .iter()
                .find(|(l, _)| *l == lang)
                .map_or(0.0, |x| x.1);
            (lang, a * letter_weight + t * trigram_weight)
        })
        .collect();
    scores.sort_unstable_by(|a, b| b.1.partial_cmp(&a.1).unwrap_or(std::cmp::Ordering::Less));
    match scores[..] {
        [(lang, first), (_, second), ..] => (lang, confidence(first, second, trigram_count)),
        [(lang, _)] => (lang, 1.0),
        [] => unreachable!("the profile file holds languages"),
    }
}

/// whatlang's `calculate_confidence`: how far the best score is ahead of
/// the second, against a margin that shrinks as the text grows.
fn confidence(highest: f64, second: f64, count: usize) -> f64 {
    if highest == 0.0 {
        return 0.0;
    }
    if second == 0.0 {
        return highest;
    }
    let confident_rate = (3.0 / count as f64) + 0.015;
    let rate = (highest - second) / second;
    if rate > confident_rate {
        1.0
    } else {
        rate / confident_rate
    }
}

/// whatlang's stop chars: ASCII space, punctuation and digits.
fn is_stop_char(ch: char) -> bool {
    matches!(ch, '\u{0000}'..='\u{0040}' | '\u{005B}'..='\u{0060}' | '\u{007B}'..='\u{007E}')
}

/// whatlang's Latin script (its ranges, adjacent ones joined, the common
/// ones tested first).
pub(super) fn is_latin(ch: char) -> bool {
    match u32::from(ch) {
        0..=0x7F => ch.is_ascii_alphabetic(),
        0x80..=0x2AF => true,
        c => matches!(c,
            0x1D00..=0x1DBF
            | 0x1E00..=0x1EFF
            | 0x2100..=0x214F
            | 0x2C60..=0x2C7F
            | 0xA720..=0xA7FF
            | 0xAB30..=0xAB6F
        ),
    }
}

/// Three chars as one key whose order is the chars' order (21 bits each).
fn trigram_key(a: char, b: char, c: char) -> u64 {
    (u64::from(a) << 42) | (u64::from(b) << 21) | u64::from(c)
}

/// The languages' letters and trigram profiles, read once from
/// `latin_profiles.txt`.
struct Profiles {
    /// In whatlang's profile order; an index into it is a language's bit.
    langs: Vec<Lang>,
    /// Indexes of `langs` in the order of `Script::Latin.langs()`, the order
    /// whatlang scores letters in.
    letter_order: Vec<usize>,
    /// Per ASCII char, the languages whose alphabet has it (bits).
    ascii_letters: [u32; 128],
    /// The other letters of any alphabet, sorted, with their languages.
    other_letters: Vec<(char, u32)>,
    /// Trigram key → its span of `ranks`.
    trigrams: HashMap<u64, (u32, u32), KeyHash>,
    /// (language index, rank in its profile), grouped by trigram.
    ranks: Vec<(u8, u16)>,
    /// Trigrams in each language's profile.
    profile_len: Vec<usize>,
}

static PROFILES: LazyLock<Profiles> =
    LazyLock::new(|| Profiles::parse(include_str!("latin_profiles.txt")));

impl Profiles {
    /// Reads the embedded file (its format is in its header); a broken file
    /// is a build mistake, caught by every language test.
    fn parse(file: &str) -> Profiles {
        let mut langs = Vec::new();
        let mut ascii_letters = [0u32; 128];
        let mut other: HashMap<char, u32> = HashMap::new();
        let mut by_trigram: HashMap<u64, Vec<(u8, u16)>> = HashMap::new();
        let mut profile_len = Vec::new();
        for line in file.lines().filter(|l| !l.starts_with('#')) {
            let mut fields = line.split('\t');
            let (Some(code), Some(letters), Some(trigrams)) =
                (fields.next(), fields.next(), fields.next())
            else {
                panic!("latin_profiles.txt: a line without three fields: {line:?}");
            };
            let lang = Lang::from_code(code)
                .unwrap_or_else(|| panic!("latin_profiles.txt: unknown language {code:?}"));
            let index = langs.len();
            assert!(index < 32, "latin_profiles.txt: more than 32 languages");
            langs.push(lang);
            let bit = 1u32 << index;
            for ch in letters.chars().map(|c| if c == '_' { ' ' } else { c }) {
                match usize::try_from(u32::from(ch)) {
                    Ok(i) if i < 128 => ascii_letters[i] |= bit,
                    _ => *other.entry(ch).or_default() |= bit,
                }
            }
            let chars: Vec<char> = trigrams
                .chars()
                .map(|c| if c == '_' { ' ' } else { c })
                .collect();
            assert!(
                chars.len().is_multiple_of(3),
                "latin_profiles.txt: {code}: trigrams are not whole"
            );
            for (rank, t) in chars.chunks(3).enumerate() {
                let rank = u16::try_from(rank).expect("a profile of fewer than 65,536 trigrams");
                by_trigram
                    .entry(trigram_key(t[0], t[1], t[2]))
                    .or_default()
                    .push((index as u8, rank));
            }
            profile_len.push(chars.len() / 3);
        }
        let letter_order = whatlang::Script::Latin
            .langs()
            .iter()
            .filter_map(|l| langs.iter().position(|x| x == l))
            .collect();
        let mut other_letters: Vec<(char, u32)> = other.into_iter().collect();
        other_letters.sort_unstable();
        let mut ranks = Vec::new();
        let mut trigrams = HashMap::with_capacity_and_hasher(by_trigram.len(), KeyHash);
        for (key, entries) in by_trigram {
            let start = ranks.len() as u32;
            ranks.extend(entries);
            trigrams.insert(key, (start, ranks.len() as u32));
        }
        Profiles {
            langs,
            letter_order,
            ascii_letters,
            other_letters,
            trigrams,
            ranks,
            profile_len,
        }
    }

    /// whatlang's alphabet scores: per language, the letters of the
    /// (lowercased) text in its alphabet less those not in it, over the
    /// letters; best first. Also the number of letters.
    fn letter_scores(&self, lower: &str) -> (usize, Vec<(Lang, f64)>) {
        let mut ascii = [0usize; 128];
        let mut other = vec![0usize; self.other_letters.len()];
        let mut count = 0usize;
        for ch in lower.chars() {
            if is_stop_char(ch) {
                continue;
            }
            count += 1;
            if ch.is_ascii() {
                ascii[ch as usize] += 2;
            } else if let Ok(i) = self.other_letters.binary_search_by_key(&ch, |&(c, _)| c) {
                other[i] += 2;
            }
        }
        let mut per_lang = [0usize; 32];
        let seen = ascii
            .iter()
            .zip(&self.ascii_letters)
            .chain(other.iter().zip(self.other_letters.iter().map(|(_, m)| m)));
        for (&score, &mask) in seen.filter(|(&s, _)| s > 0) {
            let mut bits = mask;
            while bits != 0 {
                per_lang[bits.trailing_zeros() as usize] += score;
                bits &= bits - 1;
            }
        }
        let mut raw: Vec<(Lang, usize)> = self
            .letter_order
            .iter()
            .map(|&i| (self.langs[i], per_lang[i].saturating_sub(count)))
            .collect();
        raw.sort_unstable_by_key(|(_, score)| Reverse(*score));
        let scores = raw
            .iter()
            .map(|&(lang, score)| (lang, score as f64 / count as f64))
            .collect();
        (count, scores)
    }

    /// whatlang's trigram scores: the text's trigrams (a space stands for
    /// any stop char; none is all spaces in the middle) ranked by count, then
    /// by the trigram itself, both descending; per language 1 − distance /
    /// (ranked trigrams · 300); best first. Also the number ranked.
    fn trigram_scores(&self, lower: &str) -> (usize, Vec<(Lang, f64)>) {
        let ranked = ranked_trigrams(lower);
        let count = ranked.len();

        // Σ (|rank in text − rank in profile| − 300) over the trigrams found.
        let mut found = [0i64; 32];
        for (text_rank, key) in ranked.iter().enumerate() {
            if let Some(&(start, end)) = self.trigrams.get(key) {
                for &(lang, rank) in &self.ranks[start as usize..end as usize] {
                    found[usize::from(lang)] +=
                        (text_rank as i64 - i64::from(rank)).abs() - MAX_TRIGRAM_DISTANCE;
                }
            }
        }
        let missing_in_text = (MAX_TRIGRAM_DISTANCE - count as i64).max(0);
        let mut distances: Vec<(Lang, u32)> = self
            .langs
            .iter()
            .enumerate()
            .map(|(i, &lang)| {
                let total = self.profile_len[i] as i64 * MAX_TRIGRAM_DISTANCE + found[i]
                    - missing_in_text * MAX_TRIGRAM_DISTANCE;
                let capped = total.clamp(0, MAX_TRIGRAM_DISTANCE * MAX_TRIGRAM_DISTANCE);
                (lang, capped as u32)
            })
            .collect();
        distances.sort_unstable_by_key(|(_, dist)| *dist);
        let max = count as u32 * MAX_TRIGRAM_DISTANCE as u32;
        let scores = distances
            .iter()
            .map(|&(lang, dist)| (lang, (max - dist) as f64 / max as f64))
            .collect();
        (count, scores)
    }
}

/// The text's trigrams (a space stands for any stop char; none is all
/// spaces in the middle) ranked as whatlang ranks them: by count, then by
/// the trigram itself, both descending; the first 600. Sorting the keys
/// once counts them (whatlang counts in a hash map, then sorts the pairs):
/// most trigrams occur once, and those only need the keys' order.
fn ranked_trigrams(lower: &str) -> Vec<u64> {
    let mut keys = Vec::with_capacity(lower.len() + 1);
    let mut chars = lower.chars().map(|c| if is_stop_char(c) { ' ' } else { c });
    let mut c1 = ' ';
    let Some(mut c2) = chars.next() else {
        return Vec::new();
    };
    for c3 in chars {
        if !(c2 == ' ' && (c1 == ' ' || c3 == ' ')) {
            keys.push(trigram_key(c1, c2, c3));
        }
        c1 = c2;
        c2 = c3;
    }
    // The text ends in a space: its last char's trigram.
    if c2 != ' ' {
        keys.push(trigram_key(c1, c2, ' '));
    }
    keys.sort_unstable();
    let mut repeated: Vec<(usize, u64)> = Vec::new();
    let mut once: Vec<u64> = Vec::with_capacity(keys.len());
    for run in keys.chunk_by(|a, b| a == b) {
        match run {
            [key] => once.push(*key),
            _ => repeated.push((run.len(), run[0])),
        }
    }
    repeated.sort_unstable_by(|a, b| b.cmp(a));
    let mut ranked: Vec<u64> = repeated.iter().map(|&(_, key)| key).collect();
    ranked.extend(
        once.iter()
            .rev()
            .take(TEXT_TRIGRAMS.saturating_sub(ranked.len())),
    );
    ranked.truncate(TEXT_TRIGRAMS);
    ranked
}
