//! Fixtures are made by encoding UTF-8 text with encoding_rs, so each test
//! knows exactly which text must come back.

use super::*;

const ZH_HANS: &str = "新华社北京9月5日电 国务院总理李克强主持召开国务院常务会议，部署进一步做好稳就业工作，\
    确定加快地方政府专项债券发行使用的措施，推动扩大有效投资。会议指出，今年以来，各地区各部门认真落实党中央、\
    国务院决策部署，就业形势总体稳定。";
const ZH_HANT: &str =
    "中央社記者台北5日電，行政院今天召開院會，通過多項法案與預算。行政院發言人表示，\
    這些措施將有助於穩定經濟成長，並且照顧弱勢族群的生活。立法院預計在下個會期審議相關條文。";
const JA: &str = "東京都は五日、新型の感染症対策について記者会見を開き、今後の方針を発表した。\
    知事は「都民の皆さまには引き続きご協力をお願いしたい」と述べ、飲食店への時短要請を延長する考えを示した。";
const KO: &str = "서울 연합뉴스 정부는 오늘 국무회의를 열어 내년도 예산안을 의결했다. \
    기획재정부는 경제 회복을 뒷받침하기 위해 재정 지출을 늘리기로 했다고 밝혔다. 국회는 다음 달 예산안을 심사할 예정이다.";
const RU: &str = "Москва. Правительство России утвердило новый бюджет на следующий год. \
    Министр финансов заявил, что расходы на образование и здравоохранение будут увеличены, \
    а дефицит бюджета сократится.";
const FR: &str = "Le président a déclaré que l'économie française était « en très bonne santé ». \
    Selon le ministère, la croissance a été supérieure aux prévisions grâce à la consommation des ménages, \
    et le chômage a légèrement reculé à la fin de l'été.";

fn page(head: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html><html><head>{head}<title>t</title></head><body><p>{body}</p></body></html>"
    )
}

fn encode(enc: &'static Encoding, text: &str) -> Vec<u8> {
    let (bytes, _, unmappable) = enc.encode(text);
    assert!(!unmappable, "fixture not representable in {}", enc.name());
    bytes.into_owned()
}

fn url(s: &str) -> Url {
    Url::parse(s).expect("test url")
}

fn assert_decodes(
    bytes: &[u8],
    ct: Option<&str>,
    u: Option<&Url>,
    want: &'static Encoding,
    text: &str,
) {
    let d = decode(bytes, ct, u);
    assert_eq!(d.encoding.name(), want.name());
    assert!(d.text.contains(text), "text not recovered: {}", d.text);
}

#[test]
fn declared_by_meta_charset() {
    let cases: [(&str, &'static Encoding, &str); 7] = [
        ("gbk", GBK, ZH_HANS),
        ("gb2312", GBK, ZH_HANS),
        ("big5", BIG5, ZH_HANT),
        ("shift_jis", SHIFT_JIS, JA),
        ("euc-kr", EUC_KR, KO),
        ("windows-1251", encoding_rs::WINDOWS_1251, RU),
        ("windows-1252", WINDOWS_1252, FR),
    ];
    for (label, enc, text) in cases {
        let bytes = encode(enc, &page(&format!("<meta charset=\"{label}\">"), text));
        assert_decodes(&bytes, None, None, enc, text);
    }
}

#[test]
fn declared_by_http_equiv() {
    let head = r#"<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=Shift_JIS">"#;
    let bytes = encode(SHIFT_JIS, &page(head, JA));
    assert_decodes(&bytes, None, None, SHIFT_JIS, JA);
}

#[test]
fn undeclared_pages_are_detected() {
    let cases: [(&'static Encoding, &str, &str); 7] = [
        (GBK, ZH_HANS, "http://news.xinhuanet.com/a.html"),
        (BIG5, ZH_HANT, "https://www.cna.com.tw/news/1.aspx"),
        (SHIFT_JIS, JA, "https://www.asahi.co.jp/x"),
        (EUC_KR, KO, "https://www.yna.co.kr/view/1"),
        (encoding_rs::WINDOWS_1251, RU, "https://ria.ru/2019/"),
        (WINDOWS_1252, FR, "https://www.lemonde.fr/article"),
        // A generic TLD must not stop detection.
        (GBK, ZH_HANS, "https://example.com/"),
    ];
    for (enc, text, u) in cases {
        let bytes = encode(enc, &page("", text));
        assert_decodes(&bytes, None, Some(&url(u)), enc, text);
    }
    // And without any URL at all.
    let bytes = encode(BIG5, &page("", ZH_HANT));
    assert_decodes(&bytes, None, None, BIG5, ZH_HANT);
}

#[test]
fn utf8_bom_beats_header() {
    let mut bytes = vec![0xEF, 0xBB, 0xBF];
    bytes.extend_from_slice(page("", FR).as_bytes());
    let d = decode(&bytes, Some("text/html; charset=windows-1252"), None);
    assert_eq!(d.encoding, UTF_8);
    assert!(d.text.starts_with("<!DOCTYPE"), "BOM must be removed");
    assert!(d.text.contains(FR));
}

#[test]
fn utf16le_bom() {
    let html = page("<meta charset=utf-8>", JA);
    let mut bytes = vec![0xFF, 0xFE];
    for unit in html.encode_utf16() {
        bytes.extend_from_slice(&unit.to_le_bytes());
    }
    let d = decode(&bytes, None, None);
    assert_eq!(d.encoding, UTF_16LE);
    assert_eq!(d.text, html);
}

#[test]
fn utf16_header_without_bom_needs_nuls() {
    let html = page("", FR);
    let mut bytes = Vec::new();
    for unit in html.encode_utf16() {
        bytes.extend_from_slice(&unit.to_be_bytes());
    }
    let d = decode(&bytes, Some("text/html; charset=utf-16be"), None);
    assert_eq!(d.encoding, UTF_16BE);
    assert_eq!(d.text, html);
    // The same header on plain UTF-8 bytes is a lie.
    let d = decode(html.as_bytes(), Some("text/html; charset=utf-16be"), None);
    assert_eq!(d.text, html);
}

#[test]
fn utf16_without_bom_or_header_is_detected_not_left_as_raw_markup() {
    // UTF-16 without a BOM used to come out as raw markup full of NULs.
    let html = page("<meta charset=utf-8>", JA);
    for le in [true, false] {
        let bytes: Vec<u8> = html
            .encode_utf16()
            .flat_map(|u| if le { u.to_le_bytes() } else { u.to_be_bytes() })
            .collect();
        let d = decode(&bytes, None, None);
        assert_eq!(d.encoding, if le { UTF_16LE } else { UTF_16BE });
        assert_eq!(d.text, html);
    }
}

#[test]
fn header_beats_meta() {
    let bytes = encode(
        encoding_rs::WINDOWS_1251,
        &page("<meta charset=windows-1252>", RU),
    );
    assert_decodes(
        &bytes,
        Some("text/html; Charset=\"windows-1251\""),
        None,
        encoding_rs::WINDOWS_1251,
        RU,
    );
}

#[test]
fn meta_inside_comment_is_skipped() {
    let head = "<!-- old: <meta charset=\"windows-1251\"> --><meta charset=\"shift_jis\">";
    let bytes = encode(SHIFT_JIS, &page(head, JA));
    assert_eq!(prescan(&bytes), Some(SHIFT_JIS));
    assert_decodes(&bytes, None, None, SHIFT_JIS, JA);
}

#[test]
fn prescan_follows_whatwg() {
    let p = |s: &str| prescan(s.as_bytes()).map(Encoding::name);
    // A `>` inside a quoted attribute of another tag does not end it.
    assert_eq!(
        p(r#"<div title="x > <meta charset=koi8-r>"><meta charset=big5>"#),
        Some("Big5")
    );
    // `<!-->` is a complete comment.
    assert_eq!(p("<!--><meta charset=euc-kr>"), Some("EUC-KR"));
    // content= without http-equiv declares nothing.
    assert_eq!(p(r#"<meta content="text/html; charset=gbk">"#), None);
    assert_eq!(
        p(r#"<meta content='text/html;charset = "gbk"' http-equiv=Content-Type>"#),
        Some("GBK")
    );
    // UTF-16 from a meta means UTF-8; x-user-defined means windows-1252.
    assert_eq!(p("<meta charset=utf-16le>"), Some("UTF-8"));
    assert_eq!(p("<meta charset=x-user-defined>"), Some("windows-1252"));
    // Unknown label, then a good one later.
    assert_eq!(
        p("<meta charset=klingon><meta charset=iso-8859-2>"),
        Some("ISO-8859-2")
    );
    // Only the first 1024 bytes count.
    let late = format!("{}<meta charset=gbk>", " ".repeat(1100));
    assert_eq!(p(&late), None);
    // Processing instructions and end tags are skipped; XML declaration fallback.
    assert_eq!(
        p("<?xml version=\"1.0\" encoding=\"windows-1250\"?><html>"),
        Some("windows-1250")
    );
    assert_eq!(p("</p><meta/charset=euc-jp>"), Some("EUC-JP"));
    // Unterminated junk does not panic and finds nothing.
    for junk in [
        "<meta",
        "<meta charset=\"gbk",
        "<!--",
        "<a href='",
        "<meta content=",
        "<",
    ] {
        assert_eq!(p(junk), None, "{junk}");
    }
}

#[test]
fn lying_utf8_header_on_gbk_page() {
    let bytes = encode(GBK, &page("<meta charset=utf-8>", ZH_HANS));
    assert_decodes(
        &bytes,
        Some("text/html; charset=UTF-8"),
        Some(&url("https://www.example.cn/")),
        GBK,
        ZH_HANS,
    );
}

#[test]
fn utf8_with_a_few_stray_bytes_stays_utf8() {
    let mut html = page("<meta charset=utf-8>", JA).into_bytes();
    html.extend_from_slice(b"<p>caf\xE9</p>");
    let d = decode(&html, None, None);
    assert_eq!(d.encoding, UTF_8);
    assert!(d.text.contains(JA));
}

#[test]
fn mostly_utf8_beats_a_legacy_label_or_detection() {
    for head in ["<meta charset=iso-8859-1>", "<meta charset=gbk>", ""] {
        let mut html = page(head, JA).into_bytes();
        html.extend_from_slice(b"<p>caf\xE9</p>");
        let d = decode(&html, None, None);
        assert_eq!(d.encoding, UTF_8, "{head}");
        assert!(d.text.contains(JA));
    }
}

#[test]
fn truncated_utf8_stays_utf8() {
    let html = page("", JA);
    let bytes = &html.as_bytes()[..html.len() - 2 - "</p></body></html>".len()];
    let d = decode(bytes, Some("text/html; charset=windows-1252"), None);
    assert_eq!(d.encoding, UTF_8);
}

#[test]
fn lying_latin1_label_on_utf8_page() {
    let html = page("<meta charset=iso-8859-1>", FR);
    assert_decodes(html.as_bytes(), None, None, UTF_8, FR);
}

#[test]
fn lying_latin1_label_on_gbk_page() {
    let bytes = encode(GBK, &page("<meta charset=iso-8859-1>", ZH_HANS));
    assert_decodes(&bytes, None, None, GBK, ZH_HANS);
}

#[test]
fn utf8_page_labelled_big5_with_two_curly_quotes() {
    let html = page(
        "<meta charset=big5>",
        "Musharraf\u{2019}s grip \u{2013} 2008",
    );
    assert_decodes(
        html.as_bytes(),
        None,
        None,
        UTF_8,
        "Musharraf\u{2019}s grip \u{2013} 2008",
    );
}

#[test]
fn double_byte_shape() {
    assert!(looks_double_byte(&encode(GBK, ZH_HANS)));
    assert!(!looks_double_byte(&encode(WINDOWS_1252, FR)));
    assert!(!looks_double_byte(b"plain ascii"));
}

#[test]
fn lying_multibyte_label() {
    // Declared Shift_JIS, really EUC-KR.
    let bytes = encode(EUC_KR, &page("<meta charset=shift_jis>", KO));
    assert_decodes(&bytes, None, Some(&url("https://yna.co.kr/")), EUC_KR, KO);
}

#[test]
fn iso_2022_jp_declared_is_honoured() {
    let text = "東京都は五日";
    let bytes = encode(
        encoding_rs::ISO_2022_JP,
        &page("<meta charset=iso-2022-jp>", text),
    );
    assert!(bytes.is_ascii());
    assert_decodes(&bytes, None, None, encoding_rs::ISO_2022_JP, text);
}

#[test]
fn replacement_label_is_ignored() {
    let html = page("<meta charset=iso-2022-kr>", FR);
    assert_decodes(html.as_bytes(), None, None, UTF_8, FR);
}

#[test]
fn ascii_page_takes_declared_label() {
    let html = page("<meta charset=windows-1252>", "plain");
    let d = decode(html.as_bytes(), None, None);
    assert_eq!(d.encoding, WINDOWS_1252);
    assert_eq!(d.text, html);
}

#[test]
fn garbage_never_panics() {
    let mut noise = Vec::new();
    let mut x: u32 = 12345;
    for _ in 0..5000 {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
        noise.push((x >> 16) as u8);
    }
    for bytes in [&b""[..], b"\xFF", b"\xFE\xFF\x00", b"\xEF\xBB", &noise] {
        for ct in [
            None,
            Some("text/html; charset=utf-16"),
            Some("charset="),
            Some(";;=;"),
        ] {
            for u in [
                None,
                Some(url("http://127.0.0.1/")),
                Some(url("http://localhost./")),
                Some(url("http://xn--fiqs8s/")),
            ] {
                let d = decode(bytes, ct, u.as_ref());
                assert!(d.text.len() <= bytes.len() * 3 + 3);
            }
        }
    }
}

#[test]
fn header_charset_parsing() {
    assert_eq!(header_charset("text/html; charset=GB2312"), Some(GBK));
    assert_eq!(header_charset("text/html;charset='big5' ; x=y"), Some(BIG5));
    assert_eq!(header_charset("text/html"), None);
    assert_eq!(header_charset("text/html; charset=nonsense"), None);
    // The media type itself is not a parameter.
    assert_eq!(header_charset("charset=gbk"), None);
}

#[test]
fn tld_extraction() {
    assert_eq!(
        tld_of(&url("https://news.sina.com.cn/x")).as_deref(),
        Some("cn")
    );
    assert_eq!(tld_of(&url("http://127.0.0.1:8080/")), None);
    assert_eq!(tld_of(&url("http://[::1]/")), None);
    assert_eq!(
        tld_of(&url("http://例子.中国/")).as_deref(),
        Some("xn--fiqs8s")
    );
}

#[test]
fn the_fast_utf8_check_accepts_exactly_what_std_accepts() {
    // Long enough (≥ 64 bytes) for the SIMD path, with the malformed
    // sequence at every offset of a 64-byte block.
    let body = "<p>Grüße aus 北京, naïve café — ok</p>".repeat(8);
    let bad: [&[u8]; 7] = [
        b"\xc0\xaf",         // overlong '/'
        b"\xed\xa0\x80",     // a UTF-16 surrogate
        b"\xf4\x90\x80\x80", // above U+10FFFF
        b"\xe2\x82",         // cut off
        b"\x80",             // a lone continuation byte
        b"\xff",
        "é".as_bytes(), // valid: must stay accepted
    ];
    for seq in bad {
        for at in 0..64 {
            let mut bytes = body.as_bytes().to_vec();
            let at = (0..=at)
                .rev()
                .find(|&i| body.is_char_boundary(i))
                .unwrap_or(0);
            bytes.splice(at..at, seq.iter().copied());
            assert_eq!(
                simdutf8::basic::from_utf8(&bytes).is_ok(),
                std::str::from_utf8(&bytes).is_ok(),
                "{seq:?} at {at}"
            );
        }
    }
}

#[test]
fn regression_a_utf8_page_with_one_stray_byte_was_decoded_as_windows_1252() {
    // An English story: a handful of curly quotes, one stray Latin-1 byte.
    let mut bytes = page(
        "<meta charset=utf-8>",
        "The minister said \u{2018}no\u{2019} and \u{201c}never\u{201d}, the council\u{2019}s chair added.",
    )
    .into_bytes();
    let at = bytes.len() - 20;
    bytes.insert(at, 0xE9);
    let d = decode(&bytes, None, None);
    assert_eq!(d.encoding.name(), "UTF-8");
    assert!(d.text.contains("council\u{2019}s"), "{}", d.text);
    assert_eq!(d.text.matches('\u{FFFD}').count(), 1);
    // Legacy text labelled UTF-8 is still detected.
    let latin = encode(WINDOWS_1252, &page("<meta charset=utf-8>", FR));
    assert_decodes(&latin, None, None, WINDOWS_1252, "ministère");
}
