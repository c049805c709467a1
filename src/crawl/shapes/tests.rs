use super::*;

fn url(s: &str) -> Url {
    Url::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn exact(s: &str) -> String {
    shape_of(&url(s)).exact
}

fn general(s: &str) -> Option<String> {
    shape_of(&url(s)).general
}

#[test]
fn dated_article_paths_have_a_date_shape() {
    assert_eq!(
        exact("https://e.com/2026/11/26/budget-vote-delayed.html"),
        "/{yyyy}/{mm}/{dd}/{slug}.html"
    );
    assert_eq!(
        general("https://e.com/2026/11/26/budget-vote-delayed.html"),
        None,
        "no fixed word: the exact shape is the only one"
    );
    assert_eq!(
        exact("https://e.com/world/2026/nov/26/some-story-title"),
        "/world/{yyyy}/{mm}/{dd}/{slug}"
    );
    assert_eq!(
        exact("https://e.com/c/2026-11-26/doc-story.shtml"),
        "/c/{date}/doc-story.shtml"
    );
    assert_eq!(
        exact("https://e.com/archive/20261126/x"),
        "/archive/{date}/x"
    );
}

#[test]
fn ids_and_slugs_are_told_apart_from_fixed_words() {
    assert_eq!(
        exact("https://e.com/news/world-europe-12345678"),
        "/news/{slug}-{id}"
    );
    assert_eq!(
        general("https://e.com/news/world-europe-12345678").as_deref(),
        Some("/{word}/{slug}-{id}")
    );
    assert_eq!(
        exact("https://e.com/article/98765/a-long-headline"),
        "/article/{id}/{slug}"
    );
    assert_eq!(
        exact("https://e.com/p/98765-a-long-headline"),
        "/p/{id}-{slug}"
    );
    assert_eq!(exact("https://e.com/story/a1b2c3d4e5"), "/story/{id}");
    // Two words are a name an editor chose, not a headline.
    assert_eq!(exact("https://e.com/about-us"), "/about-us");
    assert_eq!(exact("https://e.com/sign-in"), "/sign-in");
    assert_eq!(exact("https://e.com/About.HTML"), "/about.html");
}

#[test]
fn later_pages_and_queries_share_their_first_page_shape_family() {
    assert_eq!(exact("https://e.com/world/page-2"), "/world/page-{n}");
    assert_eq!(exact("https://e.com/world/page-13"), "/world/page-{n}");
    assert_eq!(
        exact("https://e.com/world/?page=2&b=1"),
        exact("https://e.com/world/?b=7&page=9")
    );
    assert_eq!(exact("https://e.com/world/?page=2"), "/world/?page");
    assert_eq!(exact("https://e.com/"), "/");
    assert_eq!(exact("https://e.com/world/"), "/world/");
    assert_ne!(exact("https://e.com/world/"), exact("https://e.com/world"));
}

fn judged(t: &mut ShapeTable, u: &str, j: Judged, times: usize) {
    for _ in 0..times {
        t.observe(&shape_of(&url(u)), j);
    }
}

#[test]
fn a_shape_is_trusted_once_enough_judged_pages_agree() {
    let mut t = ShapeTable::default();
    let a = url("https://e.com/2026/11/26/another-story-here.html");
    judged(
        &mut t,
        "https://e.com/2026/11/25/one-story-here.html",
        Judged::Article,
        (MIN_JUDGED - 1) as usize,
    );
    assert_eq!(t.classify(&a), ShapeClass::Unknown, "too few pages");
    assert!(!t.knows_articles());
    judged(
        &mut t,
        "https://e.com/2026/11/24/third-story-here.html",
        Judged::Article,
        1,
    );
    assert_eq!(t.classify(&a), ShapeClass::Article);
    assert!(t.knows_articles());
    // One odd page in ten does not undo it; many do.
    judged(
        &mut t,
        "https://e.com/2026/11/23/more-stories-here.html",
        Judged::Article,
        6,
    );
    judged(
        &mut t,
        "https://e.com/2026/11/22/a-gallery-page.html",
        Judged::Listing,
        1,
    );
    assert_eq!(t.classify(&a), ShapeClass::Article, "9 of 10 agree");
    judged(
        &mut t,
        "https://e.com/2026/11/22/a-gallery-page.html",
        Judged::Listing,
        2,
    );
    assert_eq!(t.classify(&a), ShapeClass::Unknown, "9 of 12: mixed");
    assert!(!t.knows_articles());
}

#[test]
fn the_exact_shape_decides_when_it_has_evidence_else_the_general_one() {
    let mut t = ShapeTable::default();
    for section in ["world", "sport", "arts"] {
        judged(
            &mut t,
            &format!("https://e.com/{section}/a-story-about-things"),
            Judged::Article,
            1,
        );
    }
    // A section never seen: its exact shape is unknown, the general one an
    // article shape.
    let science = shape_of(&url("https://e.com/science/new-finding-made"));
    let (class, key) = t.class_with_key(&science);
    assert_eq!((class, key), (ShapeClass::Article, Some("/{word}/{slug}")));
    // Tag pages have the same general shape but an exact one of their own.
    judged(
        &mut t,
        "https://e.com/tag/climate-and-energy-policy",
        Judged::Listing,
        3,
    );
    let tag = shape_of(&url("https://e.com/tag/some-other-tag"));
    let (class, key) = t.class_with_key(&tag);
    assert_eq!((class, key), (ShapeClass::Index, Some("/tag/{slug}")));
}

#[test]
fn listings_and_other_pages_are_told_apart() {
    let mut t = ShapeTable::default();
    judged(&mut t, "https://e.com/world/", Judged::Listing, 3);
    judged(&mut t, "https://e.com/world/page-2", Judged::Listing, 2);
    judged(&mut t, "https://e.com/world/page-3", Judged::Other, 1);
    judged(&mut t, "https://e.com/privacy.html", Judged::Other, 3);
    assert_eq!(t.classify(&url("https://e.com/world/")), ShapeClass::Index);
    assert_eq!(
        t.classify(&url("https://e.com/world/page-9")),
        ShapeClass::Index
    );
    assert_eq!(
        t.classify(&url("https://e.com/privacy.html")),
        ShapeClass::Other
    );
    assert_eq!(ShapeClass::Article.hint(), Some(true));
    assert_eq!(ShapeClass::Other.hint(), Some(false));
    assert_eq!(ShapeClass::Unknown.hint(), None);
}

#[test]
fn what_observe_returns_rebuilds_the_same_table() {
    let mut t = ShapeTable::default();
    let mut stored: HashMap<String, ShapeCounts> = HashMap::new();
    let pages = [
        ("https://e.com/news/story-one-here-1001", Judged::Article),
        ("https://e.com/news/story-two-here-1002", Judged::Article),
        ("https://e.com/news/story-three-here-1003", Judged::Article),
        ("https://e.com/news/", Judged::Listing),
        ("https://e.com/about", Judged::Other),
    ];
    for (u, j) in pages {
        for c in t.observe(&shape_of(&url(u)), j).counts {
            let e = stored.entry(c.shape.clone()).or_insert(ShapeCounts {
                shape: c.shape.clone(),
                articles: 0,
                listings: 0,
                others: 0,
                stories: 0,
            });
            e.articles += c.articles;
            e.listings += c.listings;
            e.others += c.others;
            e.stories += c.stories;
        }
    }
    let again = ShapeTable::from_counts(stored.values());
    assert_eq!(again.learned(), t.learned());
    assert!(again.knows_articles());
    let counts = |key| {
        again
            .counts(key)
            .map(|c| (c.articles, c.listings, c.others))
    };
    assert_eq!(counts("/news/{slug}-{id}"), Some((3, 0, 0)));
    assert_eq!(counts("/{word}/{slug}-{id}"), Some((3, 0, 0)));
    // Trusted shapes first.
    assert_eq!(t.learned()[0].class, ShapeClass::Article);
}

#[test]
fn a_full_table_learns_no_new_shape() {
    let mut t = ShapeTable::default();
    for i in 0..MAX_SHAPES_PER_SITE {
        t.observe(
            &Shape {
                exact: format!("/k{i}"),
                general: None,
            },
            Judged::Other,
        );
    }
    let new = Shape {
        exact: "/new".into(),
        general: None,
    };
    assert!(t.observe(&new, Judged::Article).counts.is_empty());
    assert_eq!(t.counts("/new"), None);
    assert_eq!(
        t.observe(
            &Shape {
                exact: "/k1".into(),
                general: None
            },
            Judged::Other
        )
        .counts
        .len(),
        1,
        "known shapes are still counted"
    );
}

fn site(extra: &str) -> SiteSettings {
    let text = format!("[[sites]]\nname = \"s\"\nstart = [\"https://e.com/\"]\n{extra}");
    let cfg = crate::config::Config::parse(
        &text,
        std::path::Path::new("t.toml"),
        std::path::Path::new("."),
    )
    .unwrap();
    cfg.sites[0].clone()
}

#[test]
fn without_a_judgement_pages_count_as_what_their_kind_decided() {
    let with = site("article_patterns = ['/news/']");
    let bare = site("");
    assert!(by_shapes(&bare) && !by_shapes(&with));
    let j = judged_by_kind;
    assert_eq!(j(&with, UrlKind::Article, true), Some(Judged::Article));
    assert_eq!(
        j(&with, UrlKind::Article, false),
        Some(Judged::Other),
        "an article URL that redirected to a section front"
    );
    assert_eq!(j(&with, UrlKind::Index, false), Some(Judged::Listing));
    assert_eq!(j(&with, UrlKind::Page, false), Some(Judged::Other));
    assert_eq!(j(&with, UrlKind::Feed, false), None);
    // Without patterns nothing decided a plain page.
    assert_eq!(j(&bare, UrlKind::Article, true), Some(Judged::Article));
    assert_eq!(j(&bare, UrlKind::Seed, false), Some(Judged::Listing));
    assert_eq!(j(&bare, UrlKind::Page, false), None);
    assert_eq!(j(&bare, UrlKind::Article, false), None);
}

#[test]
fn regression_other_pages_of_one_word_did_not_hide_every_section_of_one_word() {
    let mut t = ShapeTable::default();
    for page in ["about", "privacy", "contact", "login"] {
        judged(&mut t, &format!("https://e.com/{page}"), Judged::Other, 1);
    }
    let world = shape_of(&url("https://e.com/world"));
    // `/{word}` is trusted as other pages, but `/world` itself is unknown:
    // it is explored, not left out.
    assert_eq!(t.class_of(&world), ShapeClass::Other);
    assert_eq!(t.link_class(&world), ShapeClass::Unknown);
    // The exact shape's own evidence does leave a link out.
    assert_eq!(
        t.link_class(&shape_of(&url("https://e.com/login"))),
        ShapeClass::Unknown,
        "one login page is too little"
    );
    judged(&mut t, "https://e.com/login", Judged::Other, 2);
    assert_eq!(
        t.link_class(&shape_of(&url("https://e.com/login"))),
        ShapeClass::Other
    );
}

#[test]
fn regression_a_headline_ending_in_a_small_number_was_a_shape_of_its_own() {
    // `/world/cork-council-agrees-to-lower-emissions-after-87/` was
    // `/world/{slug}-{id}/`, apart from every other story of the section.
    assert_eq!(
        exact("https://e.com/world/cork-council-agrees-to-lower-emissions-after-87/"),
        "/world/{slug}/"
    );
    assert_eq!(exact("https://e.com/blog/my-first-post-2"), "/blog/{slug}");
    assert_eq!(exact("https://e.com/news/story-12345"), "/news/{slug}-{id}");
    assert_eq!(
        exact("https://e.com/news/budget-vote-delayed-123"),
        "/news/{slug}-{id}"
    );
}

#[test]
fn stories_make_no_article_shape_alone_but_complete_one_with_a_stored_article() {
    let mut t = ShapeTable::default();
    let story = url("https://e.com/world/storm-hits-the-coast/");
    judged(&mut t, story.as_str(), Judged::Story, 5);
    // Static pages that read like stories are not articles for it.
    assert_eq!(t.classify(&story), ShapeClass::Unknown);
    let observed = t.observe(&shape_of(&story), Judged::Article);
    assert!(observed.article_learned);
    assert_eq!(t.classify(&story), ShapeClass::Article);
    assert_eq!(observed.counts[0].articles, 1);
    // A key of stories alone leaves the decision to the general key.
    let mut t = ShapeTable::default();
    judged(
        &mut t,
        "https://e.com/science/a-finding-is-made/",
        Judged::Article,
        3,
    );
    judged(&mut t, story.as_str(), Judged::Story, 3);
    assert_eq!(
        t.class_with_key(&shape_of(&story)),
        (ShapeClass::Article, Some("/{word}/{slug}/"))
    );
}

#[test]
fn regression_a_shape_learned_index_from_undated_stories_never_flipped_back() {
    let mut t = ShapeTable::default();
    let story = shape_of(&url("https://e.com/world/storm-1-story/"));
    for _ in 0..3 {
        t.observe(&story, Judged::Listing);
    }
    assert_eq!(t.class_of(&story), ShapeClass::Index);
    // Its pages keep looking like stories: the shape is revised, what it
    // learned from listings dropped.
    let observed = t.observe(&story, Judged::Story);
    assert_eq!(
        observed.revised,
        [story.exact.clone(), "/{word}/{slug}/".into()]
    );
    assert_eq!(t.class_of(&story), ShapeClass::Unknown);
    let c = t.counts(&story.exact).expect("counted");
    assert_eq!((c.listings, c.stories), (0, 1));
    // Stored stories of it then make it an article shape.
    t.observe(&story, Judged::Article);
    let observed = t.observe(&story, Judged::Story);
    assert!(observed.revised.is_empty());
    assert_eq!(t.class_of(&story), ShapeClass::Article);
    // A trusted index shape of many pages keeps its trust over one story.
    let mut t = ShapeTable::default();
    let section = shape_of(&url("https://e.com/world/page/2/"));
    for _ in 0..10 {
        t.observe(&section, Judged::Listing);
    }
    assert!(t.observe(&section, Judged::Story).revised.is_empty());
    assert_eq!(t.class_of(&section), ShapeClass::Index);
    assert!(!t.observe(&section, Judged::Story).revised.is_empty());
}
