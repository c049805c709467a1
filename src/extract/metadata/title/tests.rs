//! The title choice: site suffixes, the h1 arbiter, the declared headline.

use super::*;

fn names(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[test]
fn strips_named_site_suffix_and_prefix() {
    let s = names(&["BBC News"]);
    assert_eq!(
        strip_site("Storm hits the coast - BBC News", &s),
        "Storm hits the coast"
    );
    assert_eq!(
        strip_site("BBC News | Storm hits the coast", &s),
        "Storm hits the coast"
    );
    let g = names(&["The Guardian", "theguardian"]);
    assert_eq!(
        strip_site("Brexit: what happens next | Politics | The Guardian", &g),
        "Brexit: what happens next"
    );
    assert_eq!(
        strip_site("国务院常务会议部署稳就业_新华网", &names(&["新华网"])),
        "国务院常务会议部署稳就业"
    );
    assert_eq!(
        strip_site("Title here :: Example Site", &names(&["example"])),
        "Title here"
    );
}

#[test]
fn chinese_site_name_tails_are_stripped() {
    for (raw, want) in [
        (
            "天宫一号与神舟九号载人交会对接任务第二场新闻发布会_中国载人航天官方网站",
            "天宫一号与神舟九号载人交会对接任务第二场新闻发布会",
        ),
        (
            "山西品牌丝路行（南美站）正式启动 - 山西省人民政府门户网站",
            "山西品牌丝路行（南美站）正式启动",
        ),
        ("中华人民共和国监察法-纪检", "中华人民共和国监察法"),
        (
            "阿里发布最强AI芯片：性能“吊打”同行，一块顶十块GPU-EDN 电子技术设计",
            "阿里发布最强AI芯片：性能“吊打”同行，一块顶十块GPU-EDN 电子技术设计",
        ),
    ] {
        assert_eq!(strip_site(raw, &[]), want, "{raw}");
    }
    // Two headline-sized halves stay.
    let both = "国务院常务会议部署稳就业 - 六部门联合发布促进就业的十项新措施";
    assert_eq!(strip_site(both, &[]), both);
}

#[test]
fn strips_short_unnamed_suffix_only_when_the_rest_is_long() {
    assert_eq!(
        strip_site(
            "Storm hits the coast after a long summer — Daily Planet",
            &[]
        ),
        "Storm hits the coast after a long summer"
    );
    assert_eq!(
        strip_site(
            "Chelsea hoping to sign Anelka before weekend - Soccer - Sport - Breaking News",
            &[]
        ),
        "Chelsea hoping to sign Anelka before weekend"
    );
    assert_eq!(
        strip_site(
            "Philippine president orders evacuations owing to typhoon_English_Xinhua",
            &[]
        ),
        "Philippine president orders evacuations owing to typhoon"
    );
    // Both halves are headline-sized: keep everything.
    assert_eq!(
        strip_site(
            "Storm hits the coast - thousands without power tonight",
            &[]
        ),
        "Storm hits the coast - thousands without power tonight"
    );
    // Hyphens inside words and a single colon are not separators.
    assert_eq!(
        strip_site("Well-known actor: a profile", &[]),
        "Well-known actor: a profile"
    );
}

#[test]
fn h1_picks_the_matching_candidate() {
    // og:title is an SEO variant; <title> (stripped) matches the h1.
    let c = names(&[
        "Ten things you must know today",
        "Council approves new bridge over the river | City Paper",
    ]);
    let h1 = names(&["Council approves new bridge over the river"]);
    assert_eq!(
        choose_title(None, None, &c, &h1, &[]).as_deref(),
        Some("Council approves new bridge over the river")
    );
    // The h1 keeps a part the short-suffix rule would have dropped.
    let c = names(&["Rates rise again as inflation bites hard - Analysis"]);
    let h1 = names(&["Rates rise again as inflation bites hard - Analysis"]);
    assert_eq!(
        choose_title(None, None, &c, &h1, &[]).as_deref(),
        Some("Rates rise again as inflation bites hard - Analysis")
    );
}

#[test]
fn h1_inside_title_and_code_titles() {
    let c = names(&[
        "Britain's fastest supercomputer unveiled long | Technology news | Reuters UK edition",
    ]);
    let h1 = names(&["Britain's fastest supercomputer unveiled long"]);
    assert_eq!(choose_title(None, None, &c, &h1, &[]), Some(h1[0].clone()));
    // A logo h1 inside the title is not the headline.
    let c = names(&["Storm hits the coast tonight - BBC News"]);
    assert_eq!(
        choose_title(None, None, &c, &names(&["BBC News"]), &[]).as_deref(),
        Some("Storm hits the coast tonight")
    );
    let c = names(&["BBC SPORTi library--> <script src=\"x.js\"></script>"]);
    assert_eq!(
        choose_title(None, None, &c, &names(&["Covic turns up heat"]), &[]).as_deref(),
        Some("Covic turns up heat")
    );
}

#[test]
fn the_declared_headline_wins_unless_cut_short() {
    // og:title and the h1 are a social-media variant of the headline.
    let c = names(&["The Best Sleeping Bags for Every Adventure"]);
    let h1 = names(&["The Best Sleeping Bags for Every Adventure"]);
    let declared = "11 Best Sleeping Bags (2024): Ultralight, for Car Campers";
    assert_eq!(
        choose_title(Some(declared), None, &c, &h1, &[]).as_deref(),
        Some(declared)
    );
    // Only a part naming the site is cut from it, not its own "- …".
    let sites = names(&["毎日新聞"]);
    assert_eq!(
        choose_title(
            Some("停戦「最も合意に近い」 - 毎日新聞"),
            None,
            &[],
            &[],
            &sites
        )
        .as_deref(),
        Some("停戦「最も合意に近い」")
    );
    let own = "Kawasaki steigt Ende 2024 aus! - und doch wieder nicht";
    assert_eq!(
        choose_title(Some(own), None, &[], &[], &[]).as_deref(),
        Some(own)
    );
    // Cut to a length limit: the other candidates decide.
    let c = names(&["Council approves the new bridge over the river after a long debate"]);
    assert_eq!(
        choose_title(
            Some("Council approves the new bridge over…"),
            None,
            &c,
            &[],
            &[]
        )
        .as_deref(),
        Some(c[0].as_str())
    );
}

#[test]
fn og_title_cut_from_the_declared_headline_wins() {
    let declared = "SVP-Parteitag zur Migration: Chiesa ruft zum Widerstand auf";
    let og = "Chiesa ruft zum Widerstand auf | Tages-Anzeiger";
    let sites = names(&["Tages-Anzeiger"]);
    assert_eq!(
        choose_title(Some(declared), Some(og), &[], &[], &sites).as_deref(),
        Some("Chiesa ruft zum Widerstand auf")
    );
    // Only the punctuation differs.
    let declared = "Rückbau von Atomkraftwerk - Kühltürme gesprengt";
    let og = "Rückbau von Atomkraftwerk: Kühltürme gesprengt";
    assert_eq!(
        choose_title(Some(declared), Some(og), &[], &[], &[]).as_deref(),
        Some(og)
    );
    // A fragment (a section name) or another wording is no display headline.
    let declared = "Council approves the new bridge over the river after a long debate";
    for og in ["Council", "Bridge approved after debate"] {
        assert_eq!(
            choose_title(Some(declared), Some(og), &[], &[], &[]).as_deref(),
            Some(declared)
        );
    }
}

#[test]
fn unrelated_h1_is_ignored_and_lone_h1_is_used() {
    let c = names(&["Council approves new bridge - City Paper"]);
    assert_eq!(
        choose_title(
            None,
            None,
            &c,
            &names(&["City Paper"]),
            &names(&["City Paper"])
        )
        .as_deref(),
        Some("Council approves new bridge")
    );
    assert_eq!(
        choose_title(None, None, &[], &names(&["  Lone   headline "]), &[]).as_deref(),
        Some("Lone headline")
    );
    assert_eq!(choose_title(None, None, &[], &[], &[]), None);
    assert_eq!(
        choose_title(None, None, &names(&["  ", "|"]), &[], &[]),
        None
    );
}
