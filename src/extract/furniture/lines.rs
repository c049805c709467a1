//! Furniture that only the words give away: byline and dateline lines,
//! photo credits, newsletter / subscription / cookie prompts, tag and
//! category lines, the lone words of share bars, and the heading of a
//! "Read next" / "More from" link list.
//!
//! In: the text of one output paragraph. Out: whether it is that kind of
//! furniture. Patterns are general across sites (English first, the common
//! byline words of French, Spanish, Portuguese, German, Italian, Dutch and
//! Scandinavian pages where that is cheap); every one stops at a length
//! where a line turns into prose.

use std::sync::LazyLock;

use regex::Regex;

use super::tune;
use crate::extract::calendar;

pub use super::tag_lines::{is_tag_line, is_teaser_line};

/// Words that open a byline ("By", "Posted by", "Par", "Por", "Von", …).
static BYLINE_LEAD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^(?://\s*)?(?:(?:posted|written|words|reported|story|text|photos?)\s+by|by|par|por|von|di|door|av|af)[:\s]\s*",
    )
    .expect("static regex")
});

/// Words that open a dateline ("Posted on", "Published", "Updated", …).
static DATE_LEAD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^(?:(?:posted|published|updated|last\s+updated|modified|first\s+published|publié|mis\s+à\s+jour|publicado|actualizado|veröffentlicht|aktualisiert|pubblicato)(?:\s+(?:on|at|le|el|am|il))?[:\s]\s*)+",
    )
    .expect("static regex")
});

/// A month or weekday name ([`calendar`]).
fn is_calendar_word(w: &str) -> bool {
    let w = w.trim_end_matches('.');
    calendar::month_of(w).is_some() || calendar::is_weekday(w)
}

/// Words a dateline holds besides the date itself: times, zones, "ago".
fn is_time_word(w: &str) -> bool {
    let w = w.trim_end_matches([',', '.', ';']).to_lowercase();
    matches!(
        w.as_str(),
        "at" | "on"
            | "am"
            | "pm"
            | "a.m"
            | "p.m"
            | "utc"
            | "gmt"
            | "est"
            | "edt"
            | "cst"
            | "cdt"
            | "pst"
            | "pdt"
            | "bst"
            | "cet"
            | "cest"
            | "et"
            | "pt"
            | "ist"
            | "aest"
            | "ago"
            | "min"
            | "mins"
            | "minute"
            | "minutes"
            | "hour"
            | "hours"
            | "hr"
            | "hrs"
            | "day"
            | "days"
            | "week"
            | "weeks"
            | "month"
            | "months"
            | "year"
            | "years"
            | "yesterday"
            | "today"
            | "le"
            | "à"
            | "às"
            | "de"
            | "del"
            | "um"
            | "uhr"
            | "of"
            | "the"
            | "updated"
            | "published"
            | "posted"
            | "and"
            | "h"
    )
}

/// A token with a digit in it, made of digits and date/time punctuation
/// (`2019`, `12:46`, `08.04.2015`, `29,`, `6/13/2018`, `12h55`, `3rd`).
fn is_number_token(w: &str) -> bool {
    w.chars().any(|c| c.is_ascii_digit())
        && w.chars().all(|c| {
            c.is_ascii_digit()
                || matches!(c, '.' | ',' | ':' | '/' | '-' | 'h' | '(' | ')')
                || c.is_ascii_alphabetic() && w.len() <= 5
        })
}

/// Separators between the parts of a byline or dateline.
fn is_separator(w: &str) -> bool {
    w.chars().all(|c| {
        matches!(
            c,
            '|' | '·' | '•' | '-' | '–' | '—' | '/' | ',' | '@' | ':' | '(' | ')'
        )
    })
}

/// Connecting words inside a byline's list of names and roles.
fn is_name_connector(w: &str) -> bool {
    matches!(
        w.trim_end_matches(','),
        "and"
            | "&"
            | "in"
            | "for"
            | "of"
            | "the"
            | "at"
            | "with"
            | "y"
            | "et"
            | "und"
            | "e"
            | "de"
            | "da"
            | "del"
            | "van"
            | "von"
            | "der"
            | "le"
            | "la"
            | "on"
    )
}

/// A word that reads as part of a name or a role: capitalised, an initial,
/// a handle.
fn is_name_word(w: &str) -> bool {
    let w = w.trim_matches(|c: char| matches!(c, ',' | '(' | ')' | '"' | '“' | '”'));
    w.starts_with('@') || w.chars().next().is_some_and(char::is_uppercase)
}

/// Whether a dateline's words are all date and time words, with at most a
/// short name in front ("Alex Perry 1 day ago", "Dan Goodin - Apr 16, 2015
/// 8:02 pm UTC"), and at least one number.
fn is_dateline_words(words: &[&str]) -> bool {
    let mut names = 0;
    let mut numbers = 0;
    let mut calendar = false;
    let mut ago = false;
    for w in words {
        if is_number_token(w) {
            // "08.04.2015" and "6/13/2018" are whole dates.
            numbers += if w.matches(['.', '/', '-']).count() >= 2 {
                2
            } else {
                1
            };
        } else if is_calendar_word(w) {
            calendar = true;
        } else if is_time_word(w) {
            ago |= w.eq_ignore_ascii_case("ago");
        } else if is_separator(w) {
        } else if is_name_word(w) {
            names += 1;
        } else {
            return false;
        }
    }
    numbers > 0 && names <= tune::DATELINE_MAX_NAME_WORDS && (calendar || ago || numbers >= 2)
}

/// A line that is only a date and time ("24 July 2015", "April 5, 2018 |
/// 6:00 PM", "08.04.2015 12:46", "Published Thu 27 Jul 2017", "Updated 3
/// hours ago"), perhaps after the author's name.
pub fn is_dateline(line: &str) -> bool {
    if line.chars().count() > tune::LINE_MAX_CHARS {
        return false;
    }
    let rest = DATE_LEAD.replace(line.trim(), "");
    let words: Vec<&str> = rest.split_whitespace().collect();
    !words.is_empty() && words.len() <= tune::LINE_MAX_WORDS && is_dateline_words(&words)
}

/// A byline ("By Jane Roe", "By JANE ROE, AP Technology Writer", "Posted by
/// jane on May 3, 2019", "By Jane Roe | Sep 5, 2019", "Par Jean Dupont"):
/// a byline word, then names, roles, separators and perhaps a date, no
/// sentence. "By the end of the year …" and "By Monday the river rose."
/// are prose: a lower-case word that is no connector, or a sentence end.
pub fn is_byline(line: &str) -> bool {
    let line = line.trim();
    if line.chars().count() > tune::LINE_MAX_CHARS {
        return false;
    }
    let Some(lead) = BYLINE_LEAD.find(line) else {
        return false;
    };
    let rest = &line[lead.end()..];
    let words: Vec<&str> = rest.split_whitespace().collect();
    let Some(first) = words.first() else {
        return false;
    };
    // "Posted by jroe": a user name need not be capitalised.
    let handle = lead.as_str().to_ascii_lowercase().contains("posted")
        && first
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | '-'));
    if words.len() > tune::LINE_MAX_WORDS || !(is_name_word(first) || handle) {
        return false;
    }
    // A sentence ends with a full stop after a word, not after an initial
    // ("By Jane Q. Public", "By John Smith Jr.").
    let last = words.last().copied().unwrap_or_default();
    let sentence_end = last.ends_with(['!', '?'])
        || last.ends_with('.') && last.trim_end_matches('.').chars().count() > 3;
    if sentence_end {
        return false;
    }
    words.iter().skip(usize::from(handle)).all(|w| {
        is_name_word(w)
            || is_name_connector(w)
            || is_separator(w)
            || is_number_token(w)
            || is_calendar_word(w)
            || is_time_word(w)
            || is_role_word(w)
    })
}

/// What a contributor did, in brackets after the name ("by Eleanor Ainge
/// Roy (reporting) and Adrian Malloch (photography)").
fn is_role_word(w: &str) -> bool {
    let Some(inner) = w
        .trim_end_matches([',', ';'])
        .strip_prefix('(')
        .and_then(|r| r.strip_suffix(')'))
    else {
        return false;
    };
    matches!(
        inner.to_lowercase().as_str(),
        "reporting"
            | "photography"
            | "photos"
            | "pictures"
            | "video"
            | "words"
            | "text"
            | "illustration"
            | "illustrations"
            | "graphics"
            | "editing"
            | "editor"
            | "text/fotos"
            | "fotos"
    )
}

/// Agencies and picture libraries that photo credits name.
static AGENCY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)(?:^|[\s/|(])(?:getty(?:\s+images)?|reuters|afp|ap(?:\s+photo)?|epa(?:-efe)?|pa(?:\s+wire)?|rex(?:\s+features)?|shutterstock|corbis|associated\s+press|bloomberg|dpa|ansa|xinhua|anadolu(?:\s+agency)?|sipa|alamy|istock(?:photo)?|nurphoto|zuma(?:\s+press)?|afp/getty(?:\s+images)?)\)?\s*$",
    )
    .expect("static regex")
});

/// Words that open a credit ("Photo: …", "Image by …", "Credit …",
/// "(photo AFP)", "Foto: …"). Not "©" / "Copyright": a notice under the
/// story, which the older gold sets keep.
static CREDIT_LEAD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^\(?(?:(?:photo|photos|photograph|image|images|picture|pic|foto|fotos|illustration|video|graphic)(?:\s+credit)?(?:\s*:|\s+by\b|\s+courtesy\b|\s+(?-i:[\p{Lu}@]))|credits?(?:\s*:|(?-i:\p{Lu})))",
    )
    .expect("static regex")
});

/// A photo credit line: a credit word in front, or an agency at the end,
/// short and without a sentence.
pub fn is_credit(line: &str) -> bool {
    let line = line.trim();
    let words = line.split_whitespace().count();
    if words == 0 || words > tune::CREDIT_MAX_WORDS || line.ends_with(['.', '!', '?']) {
        return false;
    }
    if CREDIT_LEAD.is_match(line) {
        return true;
    }
    // "Oli Scarff | Getty Images", "ChinaFotoPress via Getty Images": names
    // before the agency, not a sentence about it.
    AGENCY.is_match(line)
        && line.split_whitespace().all(|w| {
            is_name_word(w)
                || is_separator(w)
                || w.split('/').all(is_name_word)
                || matches!(w, "via" | "for" | "by" | "and" | "the" | "photo" | "images")
        })
}

/// A photo caption that the gallery's "enlarge" button opens
/// ("Vergrößern Eine kleine runde Aussparung …", "Enlarge This image …").
static CAPTION_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?i:vergrößern|bild\s+vergrößern|enlarge(?:\s+this\s+image)?|agrandir(?:\s+l.image)?|ampliar(?:\s+imagen)?|powiększ(?:\s+zdjęcie)?)\s+\p{Lu}")
        .expect("static regex")
});

/// A caption line behind an "enlarge" button word: the caption starts with
/// a capital (not "Enlarge leaders' photos …", an instruction, nor
/// "Vergrößern Sie …"), and is short (a caption, not a paragraph).
pub fn is_caption_line(line: &str) -> bool {
    let line = line.trim();
    line.chars().count() <= tune::PROMPT_MAX_CHARS
        && CAPTION_LINE.is_match(line)
        && line.split_whitespace().nth(1) != Some("Sie")
}

/// A short line that says the site uses cookies, wherever in the line
/// ("Zachęcamy do … Informujemy, że korzystamy z cookies.").
pub(super) static COOKIE_NOTICE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:we\s+use\s+cookies|(?:site|website)\s+uses\s+cookies|wir\s+(?:verwenden|nutzen)\s+cookies|(?:webseite|website|seite)\s+(?:verwendet|nutzt)\s+cookies|(?:korzystamy|używamy)\s+z?\s*(?:plików\s+)?cookies|nous\s+utilisons\s+des\s+cookies|utilizamos\s+cookies)\b")
        .expect("static regex")
});

/// Newsletter, subscription, app and cookie prompts. The words between
/// "get our" and "newsletter" (and the like) are `[\w\s]*`, unbounded: the
/// line's length bounds them, and a bounded run of Unicode `\w` is compiled
/// into one copy of the class per character (60 ms of every process's
/// start for three such runs, against 5 ms).
pub(super) static PROMPT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^(?:sign\s+up\b|subscribe\b|get\s+(?:our|the)\s+[\w\s]*newsletter|join\s+our\s+(?:mailing\s+list|newsletter)|enter\s+your\s+email|download\s+(?:our|the)\s+[\w\s]*app\b|follow\s+us\s+on\b|like\s+us\s+on\s+facebook|we\s+use\s+cookies|this\s+(?:web)?site\s+uses\s+cookies|by\s+(?:using|continuing)\b.{0,60}\bcookies|support\s+(?:our|independent)\s+journalism|already\s+a\s+subscriber|want\s+more\b.{0,60}\b(?:inbox|newsletter)|to\s+view\s+the\s+full\s+(?:story|article)\b.{0,20}\b(?:subscribe|log\s+in)|if\s+you.re\s+seeing\s+this\s+message|we\s+respect\s+your\s+privacy|.{0,80}\bdownload\s+(?:our|the)\s+[\w\s]*\bapps?\b|wir\s+(?:verwenden|nutzen)\s+cookies|diese\s+(?:web)?seite\s+(?:verwendet|nutzt)\s+cookies|wir\s+respektieren\s+(?:deine|ihre)\s+privatsph(?:ä|ae)re|(?:jetzt\s+)?(?:den\s+)?newsletter\s+abonnieren|jetzt\s+abonnieren|folgen\s+sie\s+uns\s+auf|nous\s+utilisons\s+des\s+cookies|ce\s+site\s+utilise\s+des\s+cookies|abonnez-vous|utilizamos\s+cookies|este\s+sitio\s+(?:web\s+)?utiliza\s+cookies|suscr[ií]bete|(?:korzystamy|używamy)\s+z?\s*(?:plików\s+)?cookies)",
    )
    .expect("static regex")
});

/// A line that asks the reader to sign up, subscribe, follow or accept
/// cookies (short; a paragraph about newsletters is not a prompt).
pub fn is_prompt(line: &str) -> bool {
    let line = line.trim();
    if line.chars().count() > tune::PROMPT_MAX_CHARS {
        return false;
    }
    if !line.is_ascii() && is_member_prompt(line) {
        return true;
    }
    super::prompt_words::may_be_prompt(line)
        && (PROMPT.is_match(line) || COOKIE_NOTICE.is_match(line) || is_newsletter_invite(line))
}

/// Verbs of signing up for a newsletter, as regex alternatives.
const SIGN_UP_VERBS: &str =
    r"sign(?:ing)?[\s-]*up|subscri|abonn|receive|erhalten|bestell|anmeld|inscri|suscr";

/// A newsletter and a verb of signing up for it, in one line, in either
/// order …
static NEWSLETTER_SIGN_UP: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        "(?i)newsletter.*(?:{SIGN_UP_VERBS})|(?:{SIGN_UP_VERBS}).*newsletter"
    ))
    .expect("static regex")
});

/// … that speaks to the reader: "you", "our", "free", "here", "now", an
/// exclamation mark, or a German infinitive at the end ("Newsletter
/// abonnieren"), as a sign-up box does and a story about a newsletter
/// ("The newsletter, which has 40,000 subscribers, …") does not.
static ADDRESSES_THE_READER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i:\b(?:you|your|our|unser\w*|dich|dein\w*|vous|votre|notre|nuestr[oa]s?|free|kostenlos\w*|gratis|gratuit\w*|here|hier|aquí|ici|jetzt|now|today|heute)\b)|\bSie\b|!|(?i:(?:abonnieren|bestellen|erhalten|anmelden)\s*[.:]?$)")
        .expect("static regex")
});

/// An invitation to a newsletter wherever its words stand in the line
/// ("Ground Game: Sign up for AP's weekly politics newsletter …", "Receive
/// our free E-Newsletter", "Coaching-Newsletter erhalten"); [`PROMPT`] only
/// reads a line's first words.
fn is_newsletter_invite(line: &str) -> bool {
    line.chars().count() <= tune::NEWSLETTER_INVITE_MAX_CHARS
        && NEWSLETTER_SIGN_UP.is_match(line)
        && ADDRESSES_THE_READER.is_match(line)
}

/// The paywall's words on Japanese pages: members-only ("会員限定"), member
/// registration ("会員登録"), paid articles ("有料記事"), unlimited reading
/// ("読み放題"). The Japanese press sells its articles by membership, and
/// its free part ends in such lines ("有料会員になると会員限定の有料記事もお
/// 読みいただけます。"), each of whose characters a scorer counts as a token.
/// A story about a membership business says "会員数" or "有料会員"; these
/// four words are the paywall's own.
static MEMBER_PROMPT: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"会員(?:限定|登録)|有料記事|読み放題").expect("static regex"));

/// A paywall line of a Japanese page: short (a sentence of the story with
/// the same words runs longer) and holding [`MEMBER_PROMPT`]'s words.
fn is_member_prompt(line: &str) -> bool {
    line.chars().count() <= tune::MEMBER_PROMPT_MAX_CHARS && MEMBER_PROMPT.is_match(line)
}

/// Headings that open a list of links to other stories inside or after the
/// text ("Read next", "More from Politics", "Related coverage", "Read
/// more:", "Recommended").
static LINK_LIST_HEADING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^(?:read\s+(?:next|more|also)|more\s+from\b.{0,40}|related(?:\s+(?:coverage|stories|articles|content|links|posts|news|reading))?|recommended(?:\s+(?:for\s+you|stories|reading))?|also\s+read|see\s+more|more\s+on\s+this\s+story|further\s+reading|trending(?:\s+now)?|popular\s+now|top\s+stories|editor'?s\s+picks|lire\s+aussi|à\s+lire\s+aussi|sur\s+le\s+même\s+sujet|leer\s+más|lea\s+también|lee\s+también|noticias\s+relacionadas|te\s+puede\s+interesar|mehr\s+zum\s+thema|mehr\s+zu(?:m|r)?\s+\S.{0,30}|zum\s+weiterlesen|weiterlesen|lesen\s+sie\s+auch\b.{0,30}|schon\s+gelesen\??|auch\s+interessant|weitere\s+(?:artikel|beiträge|themen|nachrichten|informationen)|mehr\s+informationen|(?:more|further)\s+information|más\s+información|plus\s+d.informations|więcej\s+informacji|ähnliche\s+(?:artikel|beiträge)|das\s+könnte\s+(?:sie|dich)\s+auch\s+interessieren|czytaj\s+(?:także|też)|zobacz\s+(?:także|też|również)|polecamy|leia\s+também)\s*[:»›>]?$",
    )
    .expect("static regex")
});

/// A short heading that opens a link list.
pub fn is_link_list_heading(line: &str) -> bool {
    let line = line.trim();
    line.chars().count() <= tune::LINK_HEADING_MAX_CHARS && LINK_LIST_HEADING.is_match(line)
}

/// A "Read more: <title>" line: a link-list word, a colon, then the link.
pub fn is_read_more_line(line: &str) -> bool {
    static READ_MORE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)^(?:read\s+(?:more|next|also)|related|see\s+also|also\s+read|more)\s*:")
            .expect("static regex")
    });
    READ_MORE.is_match(line.trim())
}
