//! Language detection: its answers, and the Latin scorer against whatlang
//! itself on texts in many languages, on the corpus's gold texts and on
//! generated ones (mixed scripts, short and odd inputs).

use super::*;
use whatlang::Lang;

/// whatlang's own answer: the language and the confidence's bits.
fn whatlang_answer(text: &str) -> Option<(Lang, u64)> {
    DETECTOR
        .detect(text)
        .map(|i| (i.lang(), i.confidence().to_bits()))
}

fn our_answer(text: &str) -> Option<(Lang, u64)> {
    detect(text).map(|(lang, c)| (lang, c.to_bits()))
}

/// What the comparisons saw: texts the Latin scorer answered, and of those
/// the unsure ones (confidence ≤ 0.9: close scores, the hard cases).
#[derive(Default)]
struct Seen {
    latin: usize,
    unsure: usize,
}

fn assert_same(text: &str, seen: &mut Seen) {
    let ours = our_answer(text);
    assert_eq!(ours, whatlang_answer(text), "{text:?}");
    if latin::is_mainly_latin(text) {
        seen.latin += 1;
        if ours.is_some_and(|(_, bits)| f64::from_bits(bits) <= 0.9) {
            seen.unsure += 1;
        }
    }
}

/// One or two sentences in each language scored, and in a few others.
const SENTENCES: &[&str] = &[
    "The council approved the new bridge on Thursday after a long debate about its cost and the traffic it would bring.",
    "Der Stadtrat hat die neue Brücke am Donnerstag nach einer langen Debatte über die Kosten genehmigt. Die Straße wird im März gesperrt.",
    "Le conseil municipal a approuvé jeudi le nouveau pont après un long débat sur son coût et la circulation qu'il apportera.",
    "El ayuntamiento aprobó el jueves el nuevo puente tras un largo debate sobre su coste y el tráfico que traerá a la ciudad.",
    "A câmara municipal aprovou na quinta-feira a nova ponte depois de um longo debate sobre o seu custo e o trânsito.",
    "Il consiglio comunale ha approvato giovedì il nuovo ponte dopo un lungo dibattito sui costi e sul traffico che porterà.",
    "De gemeenteraad heeft donderdag de nieuwe brug goedgekeurd na een lang debat over de kosten en het verkeer.",
    "Rada miasta zatwierdziła w czwartek nowy most po długiej debacie o jego kosztach i ruchu, który przyniesie.",
    "Kommunfullmäktige godkände på torsdagen den nya bron efter en lång debatt om kostnaden och trafiken den ger.",
    "Byrådet godkendte torsdag den nye bro efter en lang debat om prisen og den trafik, den vil give byen.",
    "Bystyret godkjente torsdag den nye broen etter en lang debatt om kostnaden og trafikken den vil gi byen.",
    "Kaupunginvaltuusto hyväksyi torstaina uuden sillan pitkän keskustelun jälkeen sen hinnasta ja liikenteestä.",
    "Městská rada ve čtvrtek schválila nový most po dlouhé debatě o jeho ceně a dopravě, kterou přinese.",
    "Mestská rada vo štvrtok schválila nový most po dlhej diskusii o jeho cene a doprave, ktorú prinesie.",
    "A városi tanács csütörtökön jóváhagyta az új hidat a költségeiről és a forgalomról szóló hosszú vita után.",
    "Consiliul local a aprobat joi noul pod după o dezbatere lungă despre costul său și traficul pe care îl va aduce.",
    "Belediye meclisi perşembe günü maliyeti ve getireceği trafik hakkındaki uzun bir tartışmanın ardından yeni köprüyü onayladı.",
    "Dewan kota menyetujui jembatan baru pada hari Kamis setelah perdebatan panjang tentang biaya dan lalu lintasnya.",
    "Hội đồng thành phố đã phê duyệt cây cầu mới vào thứ Năm sau một cuộc tranh luận dài về chi phí và giao thông.",
    "Gradsko vijeće u četvrtak je odobrilo novi most nakon duge rasprave o njegovoj cijeni i prometu koji će donijeti.",
    "Mestni svet je v četrtek po dolgi razpravi o stroških in prometu odobril novi most čez reko.",
    "L'ajuntament va aprovar dijous el nou pont després d'un llarg debat sobre el seu cost i el trànsit que portarà.",
    "Miesto taryba ketvirtadienį po ilgų diskusijų apie kainą ir eismą patvirtino naująjį tiltą.",
    "Pilsētas dome ceturtdien pēc ilgām debatēm par izmaksām un satiksmi apstiprināja jauno tiltu.",
    "Linnavolikogu kiitis neljapäeval pärast pikka arutelu hinna ja liikluse üle heaks uue silla.",
    "Mfumo wa elimu nchini umeimarika sana katika miaka kumi iliyopita.",
    "Jen la trinkejo fermitis, ni iras tra mallumo kaj pluvo al la nova ponto.",
    "Городской совет в четверг одобрил новый мост после долгих споров о его стоимости.",
    "Міська рада в четвер схвалила новий міст після довгої дискусії про його вартість.",
    "国务院总理李克强主持召开国务院常务会议，部署进一步做好稳就业工作。",
    "市議会は木曜日、費用をめぐる長い議論の末に新しい橋を承認した。",
    "وافق مجلس المدينة على الجسر الجديد يوم الخميس بعد نقاش طويل حول تكلفته.",
    "Το δημοτικό συμβούλιο ενέκρινε την Πέμπτη τη νέα γέφυρα μετά από μακρά συζήτηση.",
];

#[test]
fn language_detection() {
    let en = SENTENCES[0];
    assert_eq!(detect_language(en).as_deref(), Some("eng"));
    let zh = "国务院总理李克强主持召开国务院常务会议，部署进一步做好稳就业工作，确定加快地方政府专项债券发行使用的措施。";
    assert_eq!(detect_language(zh).as_deref(), Some("cmn"));
    assert_eq!(detect_language("ok"), None);
    assert_eq!(detect_language(""), None);
    // A long text is sampled, and the cut may fall inside a character.
    let long = format!("é{}", en.repeat(100));
    assert_eq!(detect_language(&long).as_deref(), Some("eng"));
    assert_eq!(detect_language(SENTENCES[1]).as_deref(), Some("deu"));
    assert_eq!(detect_language(SENTENCES[7]).as_deref(), Some("pol"));
}

/// The languages scored on Latin text are those of the profile file, and
/// the other Latin-script languages are never answered: the same answers as
/// finding the script first and then asking a detector allowed only those.
#[test]
fn language_detection_answers_as_script_first() {
    assert_eq!(latin::languages().len(), 25);
    let latin_only = whatlang::Detector::with_allowlist(latin::languages().to_vec());
    let script_first = |t: &str| {
        let info = if whatlang::detect_script(t) == Some(whatlang::Script::Latin) {
            latin_only.detect(t)
        } else {
            whatlang::detect(t)
        };
        info.map(|i| (i.lang(), i.confidence().to_bits()))
    };
    for text in SENTENCES {
        assert_eq!(our_answer(text), script_first(text), "{text}");
    }
}

/// Each sentence, its halves, its words two by two and its first few
/// chars: whole texts and the short ones where scores come close.
#[test]
fn latin_scorer_answers_as_whatlang_on_sentences() {
    let mut seen = Seen::default();
    for text in SENTENCES {
        assert_same(text, &mut seen);
        assert_same(&text.to_uppercase(), &mut seen);
        let words: Vec<&str> = text.split(' ').collect();
        for pair in words.windows(2) {
            assert_same(&pair.join(" "), &mut seen);
        }
        let (a, b) = words.split_at(words.len() / 2);
        assert_same(&a.join(" "), &mut seen);
        assert_same(&b.join(" "), &mut seen);
        for n in 1..12 {
            assert_same(&text.chars().take(n).collect::<String>(), &mut seen);
        }
    }
    assert!(seen.latin > 700, "{} Latin texts", seen.latin);
    assert!(seen.unsure > 100, "{} unsure answers", seen.unsure);
}

/// A small deterministic generator (xorshift), so the inputs are the same
/// on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Texts of words drawn from all the sentences, with odd chars among them:
/// capitals that lowercase to two chars (İ), a final sigma, no-break and
/// other spaces, digits and punctuation, combining marks, letters of other
/// scripts, so that Latin is sometimes barely the main script.
#[test]
fn latin_scorer_answers_as_whatlang_on_generated_texts() {
    const ODD: &[&str] = &[
        "İ", "ΣΑΣ", "ß", "\u{a0}", "\u{2009}", "\u{300}", "\u{307}", "1,5", "--", "«", "»", "¿",
        "ﬁ", "\u{212a}", "Å", "ǅ", "ẞ", "ʻ", "ŉ", "Ω", "Ж", "中", "の", "\u{7f}", "_", "'", "…",
    ];
    let words: Vec<&str> = SENTENCES.iter().flat_map(|s| s.split(' ')).collect();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut seen = Seen::default();
    for _ in 0..3_000 {
        let n = 1 + rng.below(60);
        let mut text = String::new();
        for _ in 0..n {
            if rng.below(6) == 0 {
                text.push_str(ODD[rng.below(ODD.len())]);
            } else {
                text.push_str(words[rng.below(words.len())]);
            }
            if rng.below(8) != 0 {
                text.push(' ');
            }
        }
        assert_same(&text, &mut seen);
    }
    assert!(seen.latin > 1_500, "{} Latin texts", seen.latin);
    assert!(seen.unsure > 100, "{} unsure answers", seen.unsure);
}

/// The corpus's gold texts (English, mostly) and trafilatura-dev's snippets
/// (German, Spanish, French, Polish and more): the two samples the
/// extractor takes (the first one and two kilobytes) and a short window.
#[test]
fn latin_scorer_answers_as_whatlang_on_corpus_texts() {
    let root = crate::corpus_archive::repo_corpus();
    let mut texts: Vec<String> = Vec::new();
    for set in [
        "page-signal-dev",
        "cleaneval-dev",
        "cleanportaleval",
        "readability-dev",
    ] {
        let dir = root.join(set).join("gold");
        let files = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for f in files.flatten() {
            texts.push(std::fs::read_to_string(f.path()).expect("a gold text"));
        }
    }
    let snippets = root.join("trafilatura-dev/snippets.json");
    let json = std::fs::read_to_string(&snippets).expect("trafilatura-dev's snippets");
    let pages: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(&json).expect("snippets.json");
    for page in pages.values() {
        let with = page["with"].as_array().expect("with snippets");
        texts.push(
            with.iter()
                .filter_map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(" "),
        );
    }
    assert!(texts.len() > 1_000, "{} texts", texts.len());
    let mut rng = Rng(7);
    let mut seen = Seen::default();
    for text in &texts {
        assert_same(prefix(text, 1024), &mut seen);
        assert_same(prefix(text, 2048), &mut seen);
        let mut start = rng.below(text.len().max(1));
        while !text.is_char_boundary(start) {
            start -= 1;
        }
        assert_same(prefix(&text[start..], 20 + rng.below(200)), &mut seen);
    }
    assert!(seen.latin > 2_500, "{} Latin texts", seen.latin);
}

/// Every char is Latin here exactly when whatlang finds a text of that one
/// char to be in the Latin script (its stop chars are in none).
#[test]
fn latin_chars_are_whatlangs() {
    for ch in (0..=0x10FFFF).filter_map(char::from_u32) {
        let whatlang_latin =
            whatlang::detect_script(ch.encode_utf8(&mut [0; 4])) == Some(whatlang::Script::Latin);
        assert_eq!(latin::is_latin(ch), whatlang_latin, "{:#x}", u32::from(ch));
        let mostly = latin::is_mainly_latin(ch.encode_utf8(&mut [0; 4]));
        assert_eq!(mostly, whatlang_latin, "{:#x}", u32::from(ch));
    }
}
