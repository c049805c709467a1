//! Lines that label the story rather than tell it: tag and category
//! lines, section labels, the lone words of tool bars, ad slots' labels,
//! and the summaries of teasers that lead to other stories.

use std::sync::LazyLock;

use regex::Regex;

use super::tune;

/// Tag and category lines ("Tags: FAQ", "Categories: News", "Filed under:
/// …", "Posted in …").
const TAG_LINE: &str = r"(?i)^(?:tags?|tagged(?:\s+with)?|categories|category|filed\s+under|posted\s+in|topics|mots-clés|schlagwörter|schlagworte|stichwörter|stichworte|themen|kategorien|kategorie|étiquettes|catégories|etiquetas|categorías|tematy|tagi)\s*:";

/// The lone words of share and tool bars ("Share", "Save", "Print",
/// "Email", "12 Comments").
const TOOL_WORD: &str = r"(?i)^(?:share(?:\s+this(?:\s+(?:article|story))?)?|save|print|email|e-mail|tweet|pin\s+it|(?:\d+\s+)?comments?|view\s+comments|reply|found\s+this\s+helpful|permalink|permalien|teilen|drucken|merken|(?:\d+\s+)?kommentare?|partager|imprimer|compartir|imprimir|udostępnij|drukuj|(?:download\s+(?:as\s+)?|save\s+as\s+)pdf|(?:\S+\s+){0,2}als\s+pdf\s+(?:herunterladen|downloaden|speichern)|pdf\s+herunterladen|(?:artikel|seite|beitrag)\s+drucken|télécharger\s+(?:le\s+|en\s+)?pdf|descargar\s+(?:en\s+)?pdf)$";

/// The label an ad slot prints over the ad ("Advertisement", "Anzeige",
/// "[PR]"): left alone on its line when the ad itself is stripped.
const AD_LABEL: &str = r"(?i)^[\[(]?(?:advertisements?|advertising|ad|pr|anzeige|werbung|publicité|publicidad|pubblicità|publicidade|reklama|annonse|annons|mainos|advertentie|reclame|広告|广告|광고)[\])]?$";

/// The section label some sites put over the story ("From the section US
/// & Canada").
const SECTION_LINE: &str = r"^(?i:from\s+the\s+section)\s+\p{Lu}";

/// The four kinds in one regex: one search per line instead of four.
static LABEL_LINE: LazyLock<Regex> = LazyLock::new(|| {
    let kinds = [TAG_LINE, TOOL_WORD, SECTION_LINE, AD_LABEL].map(|p| format!("(?:{p})"));
    Regex::new(&kinds.join("|")).expect("static regex")
});

/// A tag or category line, a section label, a lone tool-bar word or an ad
/// slot's label.
pub fn is_tag_line(line: &str) -> bool {
    let line = line.trim();
    line.chars().count() <= tune::PROMPT_MAX_CHARS && LABEL_LINE.is_match(line)
}

/// A teaser of another story: its summary, a sentence end, then the
/// "more" word of the link or button that leads to it ("… überfordert.
/// mehr", "… the vote. Continue reading →"). A story's own paragraph does
/// not end in a lone "more"; an excerpt cut mid-word ("… your luxuriou
/// ... more") is a listing's entry, which gold texts keep, so the sentence
/// end must follow a word.
static TEASER_END: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?i)[\p{L}\p{N})][.!?]["'”“»«]?\s+(?:mehr|more|read\s+more|weiterlesen|continue\s+reading|lire\s+la\s+suite|leer\s+más|czytaj\s+więcej|więcej)\s*[»›→>]?$"#)
        .expect("static regex")
});

/// A teaser's summary line (at most [`TEASER_MAX_CHARS`]).
pub fn is_teaser_line(line: &str) -> bool {
    let line = line.trim();
    line.chars().count() <= TEASER_MAX_CHARS && TEASER_END.is_match(line)
}

/// A teaser's summary holds a sentence or two.
const TEASER_MAX_CHARS: usize = 400;
