//! Regression tests for the whole pipeline (html → text), named after the
//! traps that broke earlier extractors.

use super::*;

const ALL: [Algorithm; 8] = Algorithm::ALL;

fn story(paragraphs: usize) -> String {
    let mut s = String::new();
    for i in 0..paragraphs {
        s.push_str(&format!(
            "<p>Paragraph {i} of the story tells what happened, where, and why it matters to readers.</p>"
        ));
    }
    s
}

#[test]
fn head_never_closed_page_is_not_empty() {
    let html = format!(
        "<html><head><title>T</title><meta charset=utf-8><link rel=x href=y>{}",
        story(5)
    );
    for alg in ALL {
        let t = extract_text(&html, alg);
        assert!(t.contains("Paragraph 4 of the story"), "{alg:?}: {t:?}");
    }
}

#[test]
fn corrupt_title_does_not_swallow_page() {
    let html = format!(
        "<html><head><title>Broken <b>title</head><body>{}</body></html>",
        story(5)
    );
    for alg in ALL {
        let t = extract_text(&html, alg);
        assert!(t.contains("Paragraph 3 of the story"), "{alg:?}: {t:?}");
    }
}

#[test]
fn aspnet_whole_body_form_is_kept() {
    let html = format!(
        "<html><body><form id=aspnetForm action=x><div class=nav><a href=1>Home</a> \
         <a href=2>News</a></div><div id=content>{}</div><div class=footer>\
         <a href=3>Contact</a></div></form></body></html>",
        story(6)
    );
    for alg in ALL {
        let t = extract_text(&html, alg);
        assert!(t.contains("Paragraph 5 of the story"), "{alg:?}: {t:?}");
    }
}

#[test]
fn nested_divs_100k_no_panic_no_overflow() {
    let mut html = String::from("<html><body>");
    for _ in 0..100_000 {
        html.push_str("<div>");
    }
    html.push_str("deep text at the bottom.");
    for alg in ALL {
        let t = extract_text(&html, alg);
        assert!(t.contains("deep text at the bottom."), "{alg:?}: {t:?}");
    }
}

#[test]
fn empty_input_gives_empty_text() {
    for alg in ALL {
        let opts = ExtractOptions {
            algorithm: alg,
            ..ExtractOptions::default()
        };
        // `auto` says why the text is empty; the others give no reasons.
        let method = if alg == Algorithm::Auto {
            Method::NotArticle(fallback::NotArticle::NoText)
        } else {
            Method::Density
        };
        let got = Extractor::new(opts).extract(Page::from_bytes(b"", None));
        assert_eq!(
            got.article,
            Article {
                method,
                ..Article::default()
            }
        );
        assert_eq!((got.headline, got.rule_outcome), (None, None));
        assert_eq!(extract_text("<html></html>", alg), "");
    }
}

#[test]
fn binary_input_no_panic() {
    let mut state = 0x1234_5678_9abc_def0u64;
    let bytes: Vec<u8> = (0..20_000)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 24) as u8
        })
        .collect();
    for alg in ALL {
        let opts = ExtractOptions {
            algorithm: alg,
            ..ExtractOptions::default()
        };
        let a = Extractor::new(opts)
            .extract(Page::from_bytes(&bytes, None))
            .article;
        // Whatever comes out is normalised text: no control characters, no
        // blank runs longer than one empty line.
        assert!(
            !a.text.chars().any(|c| c.is_control() && c != '\n'),
            "{alg:?}"
        );
        assert!(!a.text.contains("\n\n\n"), "{alg:?}");
    }
}

#[test]
fn full_pipeline_fills_text_and_title() {
    let html = format!(
        "<html><head><title>Storm hits the coast - Daily News</title></head><body>\
         <div class=menu><a href=/>Home</a> <a href=/w>World</a></div>\
         <h1>Storm hits the coast</h1><div class=story>{}</div>\
         <div class=footer><a href=/c>Contact</a> Copyright</div></body></html>",
        story(6)
    );
    let a = extract_html(&html, None, &ExtractOptions::default());
    // The headline is the title, never text.
    assert!(
        a.text.starts_with("Paragraph 0 of the story"),
        "{:?}",
        a.text
    );
    let got = Extractor::default().extract(Page::from_bytes(html.as_bytes(), None));
    assert_eq!(got.headline.as_deref(), Some("Storm hits the coast"));
    assert_eq!(got.article.method, Method::Density);
    assert_eq!(got.article, a);
    assert!(!a.text.contains("Contact"), "{:?}", a.text);
    assert!(a.title.is_some_and(|t| t.contains("Storm hits the coast")));
    assert_eq!(a.language.as_deref(), Some("eng"));
}

#[test]
fn object_fallback_caption_is_kept() {
    // tv.msnbc.com puts video captions inside <object> fallback content:
    // strip keeps it, and a caller that keeps captions gets it (by
    // default a caption is furniture, not text).
    let html = format!(
        "<body><div class=post>{}<object data=x><p class=caption>Caption text of the video, \
         which readers see.</p></object>{}</div></body>",
        story(3),
        story(2)
    );
    let captions = ExtractOptions {
        keep: furniture::Keep {
            captions: true,
            bylines: false,
        },
        ..ExtractOptions::default()
    };
    let t = extract_html(&html, None, &captions).text;
    assert!(t.contains("Caption text of the video"), "{t:?}");
    let t = extract_text(&html, Algorithm::Auto);
    assert!(!t.contains("Caption text of the video"), "{t:?}");
    assert!(t.contains("Paragraph 2"), "{t:?}");
}

#[test]
fn entity_page_is_decoded() {
    let html =
        "<body><p>Caf&eacute; &amp; cr&egrave;me &#8212; &lt;tag&gt; &#x4e2d;&nbsp;&quot;q&quot;, \
                and more text to make this the article.</p></body>";
    for alg in ALL {
        let t = extract_text(html, alg);
        assert!(
            t.starts_with("Café & crème — <tag> 中 \"q\","),
            "{alg:?}: {t:?}"
        );
    }
}

#[test]
fn cjk_page_keeps_paragraphs() {
    let html = "<body><div class=nav><a href=1>首页</a><a href=2>新闻</a></div><div class=article>\
                <p>今天上午，市政府召开新闻发布会，介绍了今年经济运行的基本情况。</p>\
                <p>发布会上，有关负责人表示，全年经济增长目标有望实现。</p></div></body>";
    for alg in ALL {
        let t = extract_text(html, alg);
        assert!(
            t.contains(
                "今天上午，市政府召开新闻发布会，介绍了今年经济运行的基本情况。\n\n发布会上"
            ),
            "{alg:?}: {t:?}"
        );
    }
}

#[test]
fn related_stories_heading_ends_the_text() {
    let html = format!(
        "<body><div class=main>{}<h3>Related stories</h3><p>Another story teaser, with a \
         sentence that looks like text.</p><p>And one more teaser sentence, as well.</p></div></body>",
        story(6)
    );
    let t = extract_text(&html, Algorithm::Auto);
    assert!(t.contains("Paragraph 5 of the story"), "{t:?}");
    assert!(
        !t.contains("Related stories") && !t.contains("teaser"),
        "{t:?}"
    );
}

#[test]
fn headlines_teaser_list_ends_the_text() {
    let html = format!(
        "<body><div class=main>{}<p>B.C. Headlines</p><p>A worldwide shortage of hops is forcing \
         some microbreweries to rewrite their recipes.</p></div></body>",
        story(6)
    );
    let t = extract_text(&html, Algorithm::Auto);
    assert!(t.ends_with("why it matters to readers."), "{t:?}");
}

/// `auto` text of `html` with `ablate` steps switched off.
pub(super) fn auto_text(html: &str, ablate: &str) -> String {
    let opts = ExtractOptions {
        ablate: ablation::Ablations::parse(ablate).unwrap_or_default(),
        ..ExtractOptions::default()
    };
    let doc = scraper::Html::parse_document(&strip::strip(html));
    select_document(&doc, &opts).text
}

fn caption(i: usize) -> String {
    format!(
        "<li><h2>{i}/30 Record year</h2><p>Caption {i}: the company said its revenue \
         rose again last year, driven by sales abroad and a weaker pound.</p></li>"
    )
}

#[test]
fn gallery_inside_article_body_does_not_replace_the_story() {
    let captions: String = (1..=30).map(caption).collect();
    let html = format!(
        "<html><body><article><div itemprop=articleBody>{}\
         <div class='widget type-gallery'><ul class=legends>{captions}</ul></div>{}\
         </div></article></body></html>",
        story(5),
        story(3)
    );
    let t = auto_text(&html, "");
    assert!(t.contains("Paragraph 4 of the story"), "{t:?}");
    assert!(!t.contains("Caption 7"), "{t:?}");
    let ablated = auto_text(&html, "gallery-in-body");
    assert!(ablated.contains("Caption 7"), "the bug: {ablated:?}");
}

#[test]
fn live_blog_aside_beside_the_article_is_not_the_text() {
    let entries: String = (0..25)
        .map(|i| format!("<li><p>{i}:10 Live update {i}: a short note on another story of the day, with a quote.</p></li>"))
        .collect();
    let html = format!(
        "<html><body><div role=main><article>{}</article>\
         <aside id=sidebar><ul class=live>{entries}</ul></aside></div></body></html>",
        story(8)
    );
    let t = auto_text(&html, "");
    assert!(t.contains("Paragraph 7 of the story"), "{t:?}");
    assert!(!t.contains("Live update 3"), "{t:?}");
    let ablated = auto_text(&html, "declared-beside");
    assert!(ablated.contains("Live update 3"), "the bug: {ablated:?}");
}

#[test]
fn sphinx_sections_named_sharing_are_kept() {
    let section = |id: &str, title: &str, body: String| {
        format!("<div class=section id={id}><h2>{title}</h2>{body}</div>")
    };
    let inner = section("setting-up", "Setting up", story(1));
    let html = format!(
        "<html><body><div class=content><div class=section id=guide><h1>Guide</h1>{}{}{}</div></div></body></html>",
        story(2),
        section(
            "sharing-with-a-single-developer",
            "Sharing with a single developer",
            format!("<p>Sharing starts here, with one person and two machines.</p>{inner}")
        ),
        section("conclusion", "Conclusion", story(6)),
    );
    let t = auto_text(&html, "");
    assert!(t.contains("Sharing starts here"), "{t:?}");
    let ablated = auto_text(&html, "slug-ids");
    assert!(
        !ablated.contains("Sharing starts here"),
        "the bug: {ablated:?}"
    );
}

#[test]
fn soft_hyphens_inside_words_do_not_split_them() {
    let html = format!(
        "<html><body><article>{}<p>Die Regierung Ita&shy;li&shy;ens hat am Montag \
         den Haus&shy;halt beschlossen.</p></article></body></html>",
        story(4)
    );
    let t = extract_html(&html, None, &ExtractOptions::default()).text;
    assert!(
        t.contains("Regierung Italiens hat am Montag den Haushalt"),
        "{t}"
    );
    let opts = ExtractOptions {
        ablate: ablation::Ablations::default().with(ablation::Step::FormatChars),
        ..ExtractOptions::default()
    };
    let kept = extract_html(&html, None, &opts).text;
    assert!(kept.contains("Ita\u{ad}li\u{ad}ens"), "{kept}");
}

/// A Drupal page: the body field's class says its label is hidden, and a
/// long footer makes the story less than half of the page's text.
#[test]
fn drupal_body_field_with_hidden_label_is_the_story() {
    let footer: String = (0..6)
        .map(|i| format!("<p>Footer note {i}: the association was founded in 1994 and is registered in Vienna, with members in many countries.</p>"))
        .collect();
    let html = format!(
        "<html><body><div class=region-content><div class=\"field field--name-body \
         field--label-hidden\">{}</div><div class=contact-box><p>Questions? Call the office \
         on weekdays, we are glad to help.</p></div></div><footer>{footer}</footer></body></html>",
        story(4)
    );
    let t = extract_html(&html, None, &ExtractOptions::default()).text;
    assert!(t.contains("Paragraph 3 of the story"), "{t}");
    let opts = ExtractOptions {
        ablate: ablation::Ablations::default().with(ablation::Step::StateWords),
        ..ExtractOptions::default()
    };
    let ablated = extract_html(&html, None, &opts).text;
    assert!(!ablated.contains("Paragraph 3 of the story"), "{ablated}");
}

/// A recipe: the method is prose, the ingredients and the times are short
/// lines in boxes beside it.
#[test]
fn recipe_keeps_ingredients_and_times_beside_the_method() {
    let steps: String = (1..=4)
        .map(|i| format!("<dt>{i}.</dt><dd>Step {i}: stir the milk and the sugar in a pan, bring it to the boil and let it cool for ten minutes before you go on.</dd>"))
        .collect();
    let html = format!(
        "<html><body><nav><a href=/>Home</a> <a href=/r>Recipes</a></nav>\
         <article class='article recipe'><section class=ingredients><ul>\
         <li><span>1 Pck.</span> <span>Vanillepuddingpulver</span></li><li>350 g Zucker</li>\
         <li>500 ml Milch</li><li>2 Eier</li></ul></section>\
         <div class=preparation><div class=preparation__time><span>120 Minuten</span> \
         <span>( + 300 Minuten Wartezeit )</span></div><dl class=list>{steps}</dl></div>\
         </article><footer><a href=/c>Contact</a></footer></body></html>"
    );
    let t = extract_html(&html, None, &ExtractOptions::default()).text;
    assert!(
        t.contains("Vanillepuddingpulver") && t.contains("Step 4"),
        "{t}"
    );
    assert!(t.contains("300 Minuten Wartezeit"), "{t}");
    let opts = ExtractOptions {
        ablate: ablation::Ablations::default().with(ablation::Step::Recipes),
        ..ExtractOptions::default()
    };
    let ablated = extract_html(&html, None, &opts).text;
    assert!(!ablated.contains("Vanillepuddingpulver"), "{ablated}");
}

/// A mega-menu of story teasers, each an `<article>`, in the header's
/// `<nav>`: the teasers do not make the menu the page's article.
#[test]
fn article_teasers_in_a_mega_menu_do_not_protect_it() {
    let teasers: String = (0..12)
        .map(|i| format!("<article class=teaser><p>Teaser {i}: the institute welcomes guests from many countries every year, and the courses cover nature, rivers and the sea. Since 1990 the academy has trained rangers, teachers and officials, who come back for more.</p></article>"))
        .collect();
    let html = format!(
        "<html><body><header><nav><ul><li><a href=/a>Themen</a><div>{teasers}</div></li></ul>\
         </nav></header><main><div class=col>{}</div></main></body></html>",
        story(8)
    );
    let t = extract_html(&html, None, &ExtractOptions::default()).text;
    assert!(
        t.contains("Paragraph 7 of the story") && !t.contains("Teaser 5"),
        "{t}"
    );
    let opts = ExtractOptions {
        ablate: ablation::Ablations::default().with(ablation::Step::NavArticles),
        ..ExtractOptions::default()
    };
    let ablated = extract_html(&html, None, &opts).text;
    assert!(ablated.contains("Teaser 5"), "{ablated}");
}

/// An Elementor page: every block is an `elementor-widget`, the story's
/// text editor blocks too.
#[test]
fn elementor_text_widgets_are_the_story() {
    let footer: String = (0..6)
        .map(|i| format!("<p>Footer note {i}: the shop ships to many countries and answers mail within two working days.</p>"))
        .collect();
    let html = format!(
        "<html><body><div class='elementor-element elementor-widget \
         elementor-widget-text-editor'><div class=elementor-widget-container>{}</div></div>\
         <div class=box><p>Questions? Write to the office, we are glad to help you.</p></div>\
         <footer>{footer}</footer></body></html>",
        story(4)
    );
    let t = extract_html(&html, None, &ExtractOptions::default()).text;
    assert!(t.contains("Paragraph 3 of the story"), "{t}");
    let opts = ExtractOptions {
        ablate: ablation::Ablations::default().with(ablation::Step::StateWords),
        ..ExtractOptions::default()
    };
    let ablated = extract_html(&html, None, &opts).text;
    assert!(!ablated.contains("Paragraph 3 of the story"), "{ablated}");
}

#[test]
fn story_inside_a_javascript_link_is_not_pruned_as_a_link_list() {
    // A script's button wrapping the story (`<a href="javascript:…">`) is
    // no link: its text is not link text, so link pruning keeps it.
    let html = format!(
        "<html><head><title>T</title></head><body><nav><a href=/a>Home</a></nav>\
         <a href=\" JavaScript:void(0)\">{}</a><p>Short.</p></body></html>",
        story(3)
    );
    let t = extract_html(&html, None, &ExtractOptions::default()).text;
    assert!(t.contains("Paragraph 2 of the story"), "{t}");
    let ablated = ExtractOptions {
        ablate: ablation::Ablations::default().with(ablation::Step::ScriptLinks),
        ..ExtractOptions::default()
    };
    let t = extract_html(&html, None, &ablated).text;
    assert!(!t.contains("Paragraph 2 of the story"), "{t}");
    // A real link around the same text is link text.
    let linked = html.replace(" JavaScript:void(0)", "/story");
    let doc = scraper::Html::parse_document(&strip::strip(&linked));
    let dom = dom::Dom::build(&doc);
    let st = dom.stats(&vec![false; dom.len()]);
    assert!(st[0].link_chars * 2 > st[0].chars, "{:?}", st[0]);
    let doc = scraper::Html::parse_document(&strip::strip(&html));
    let dom = dom::Dom::build(&doc);
    let st = dom.stats(&vec![false; dom.len()]);
    assert!(st[0].link_chars * 10 < st[0].chars, "{:?}", st[0]);
}

/// A page with a headline, a story, a byline-free footer and links.
fn linked_page() -> String {
    format!(
        "<html><head><title>Harbour reopens</title>\
         <link rel=canonical href=/news/harbour></head><body>\
         <nav><a href=/>Home</a> <a href=/news>News</a></nav>\
         <h1>Harbour reopens</h1><div class=story>{}</div>\
         <footer><a href=/about>About</a></footer></body></html>",
        story(6)
    )
}

#[test]
fn text_only_gives_the_full_paths_text_and_no_metadata() {
    let html = linked_page();
    for algorithm in ALL {
        let full = ExtractOptions {
            algorithm,
            ..ExtractOptions::default()
        };
        let text_only = ExtractOptions {
            text_only: true,
            ..full.clone()
        };
        let a = Extractor::new(full).extract(Page::from_html(&html));
        let t = Extractor::new(text_only).extract(Page::from_html(&html));
        assert_eq!(t.article.text, a.article.text, "{algorithm:?}");
        assert!(a.article.text.contains("Paragraph 5"), "{algorithm:?}");
        assert_eq!(a.article.title.as_deref(), Some("Harbour reopens"));
        assert_eq!((t.article.title, t.article.language), (None, None));
    }
}

#[test]
fn bytes_and_decoded_html_of_one_page_give_one_extraction() {
    let html = linked_page();
    let url = Url::parse("https://example.com/news/harbour").unwrap_or_else(|e| panic!("{e}"));
    let extractor = Extractor::default();
    let from_bytes = extractor
        .extract(Page::from_bytes(html.as_bytes(), Some("text/html; charset=utf-8")).url(&url));
    let from_html = extractor.extract(Page::from_html(&html).url(&url));
    assert_eq!(from_bytes.encoding, Some("UTF-8"));
    assert_eq!(from_html.encoding, None);
    assert_eq!(from_bytes.article, from_html.article);
    assert_eq!(
        from_html.article.canonical_url.as_deref(),
        Some("https://example.com/news/harbour")
    );
}

#[test]
fn a_site_rule_is_used_and_learned_only_by_tree_when_the_page_asks() {
    let html = linked_page();
    let tree = Extractor::new(ExtractOptions {
        algorithm: Algorithm::Tree,
        ..ExtractOptions::default()
    });
    let plain = tree.extract(Page::from_html(&html));
    assert_eq!(plain.rule_outcome, None);
    let learning = tree.extract(Page::from_html(&html).site_rule(None));
    assert!(
        matches!(learning.rule_outcome, Some(RuleOutcome::Learned(_))),
        "{:?}",
        learning.rule_outcome
    );
    assert_eq!(learning.article, plain.article);
    let auto = Extractor::default().extract(Page::from_html(&html).site_rule(None));
    assert_eq!(auto.rule_outcome, None);
}

#[test]
fn collecting_links_leaves_the_extraction_unchanged() {
    let html = linked_page();
    let extractor = Extractor::default();
    let mut links = strip::links::LinkAttrs::new(100);
    let with = extractor.extract(Page::from_html(&html).collect_links(&mut links));
    let without = extractor.extract(Page::from_html(&html));
    assert_eq!(with, without);
    assert_eq!(links.links, ["/", "/news", "/about"]);
    assert_eq!(links.canonical.as_deref(), Some("/news/harbour"));
}

#[test]
fn a_text_over_the_cap_is_cut_after_its_last_whole_line() {
    let mut a = Article {
        text: "First line.\n\nSécond line, longer.\n\nThird.".into(),
        ..Article::default()
    };
    assert_eq!(a.cap_text(1000), None);
    assert_eq!(a.cap_text(36), Some(42));
    assert_eq!(a.text, "First line.\n\nSécond line, longer.");
    assert_eq!(a.cap_text(30), Some(34));
    assert_eq!(a.text, "First line.");
    // One long line: cut inside it, at a character boundary.
    let mut a = Article {
        text: "é".repeat(10),
        ..Article::default()
    };
    assert_eq!(a.cap_text(5), Some(20));
    assert_eq!(a.text, "éé");
}

#[test]
fn algorithm_names_read_back_in_any_case() {
    for a in Algorithm::ALL {
        assert_eq!(Algorithm::from_name(a.name()), Some(a));
        assert_eq!(Algorithm::from_name(&a.name().to_uppercase()), Some(a));
        assert!(!a.about().is_empty());
    }
    assert_eq!(Algorithm::from_name("all"), None);
    assert_eq!(Algorithm::from_name(""), None);
}

/// `class-names` off reads every class and id as empty: a box the names
/// mark as boilerplate is then judged by its text and structure alone.
#[test]
fn class_names_off_reads_no_class_or_id() {
    let promo = "Sign in to read every story of the week in one place.";
    let html = format!(
        "<html><body><div class=story-body>{}<div class='newsletter-promo'><p>{promo}</p></div>{}</div></body></html>",
        story(3),
        story(3)
    );
    assert!(!auto_text(&html, "").contains(promo));
    assert!(auto_text(&html, "class-names").contains(promo));
}
