//! Raw inline HTML and citemark's own elements nest (issue 23): whatever
//! mix of emphasis, strikethrough, links, images, citations and allowed
//! raw tags a message holds, every element the HTML opens is closed, in
//! LIFO order, and a browser parsing it builds the elements it spells.

use citemark::{render, Options};
use proptest::prelude::*;

#[path = "support/checks.rs"]
mod checks;
mod common;
use checks::{check_nesting, tags};
use common::{options_with_images, streamed_at};

/// A browser's parse of `html` (html5ever's, through scraper) has the
/// elements its start tags spell, in the same order: nothing was closed
/// early, reopened or moved.
fn check_parse(html: &str) -> Result<(), String> {
    let fragment = scraper::Html::parse_fragment(html);
    let parsed: Vec<String> = fragment
        .root_element()
        .descendants()
        .skip(1)
        .filter_map(|node| node.value().as_element().map(|e| e.name().to_owned()))
        .collect();
    let written: Vec<String> = tags(html)
        .into_iter()
        .filter(|tag| !tag.closing)
        .map(|tag| tag.name)
        .collect();
    match parsed == written {
        true => Ok(()),
        false => Err(format!("parsed {parsed:?}, written {written:?}")),
    }
}

/// Inline raw tags from the sanitizer's allowlist, opened and closed.
fn raw_inline_tag() -> impl Strategy<Value = String> {
    let names = prop::sample::select(vec![
        "b", "i", "em", "strong", "del", "s", "sup", "sub", "kbd", "code", "span", "abbr", "q",
        "mark", "small", "u", "var",
    ]);
    prop_oneof![
        names.clone().prop_map(|name| format!("<{name}>")),
        names.prop_map(|name| format!("</{name}>")),
        Just(r#"<span title="a<b>">"#.to_owned()),
        Just(r#"<abbr title="t">"#.to_owned()),
        Just("<br>".to_owned()),
        Just("<img src=\"https://x/i.png\">".to_owned()),
    ]
}

/// Raw HTML whose elements a browser moves wherever it stands in a
/// paragraph (a block in phrasing content, an `<a>` inside a link), or
/// that the sanitizer removes.
fn raw_other() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("<p>".to_owned()),
        Just("</p>".to_owned()),
        Just("<div>".to_owned()),
        Just("</div>".to_owned()),
        Just(r#"<a href="https://z/">"#.to_owned()),
        Just("</a>".to_owned()),
        Just("<script>".to_owned()),
        Just("<!-- c -->".to_owned()),
    ]
}

/// Markdown's inline elements (and the blocks that hold them), citations
/// and text.
fn markdown_piece() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("*".to_owned()),
        Just("**".to_owned()),
        Just("_".to_owned()),
        Just("~~".to_owned()),
        Just("`".to_owned()),
        Just("[".to_owned()),
        Just("](/u)".to_owned()),
        Just("](https://z/)".to_owned()),
        Just("](javascript:x)".to_owned()),
        Just("![".to_owned()),
        Just("](https://x/i.png)".to_owned()),
        Just("<cite id=\"a\">".to_owned()),
        Just("<cite id=\"b\">".to_owned()),
        Just("</cite>".to_owned()),
        Just("[1]".to_owned()),
        Just("\n".to_owned()),
        Just("\n\n".to_owned()),
        Just("# ".to_owned()),
        Just("> ".to_owned()),
        Just("- ".to_owned()),
        Just("| a | b |\n|---|---|\n| ".to_owned()),
        Just(" | ".to_owned()),
        "[a-z ]{1,4}",
    ]
}

/// Markdown mixing inline elements with inline raw tags; with `other`,
/// also raw tags a browser would move.
fn mixed_markdown(other: bool) -> impl Strategy<Value = String> {
    let other_weight = u32::from(other);
    let piece = prop_oneof![
        3 => markdown_piece(),
        2 => raw_inline_tag(),
        other_weight => raw_other(),
    ];
    prop::collection::vec(piece, 0..30).prop_map(|pieces| pieces.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::cases(1000)))]

    /// The tags nest, whatever raw HTML stands where.
    #[test]
    fn raw_html_and_markdown_elements_nest(md in mixed_markdown(true), options in options_with_images()) {
        let html = render(&md, &options).html;
        if let Err(e) = check_nesting(&html) {
            return Err(TestCaseError::fail(format!("{e} in {html:?} from {md:?}")));
        }
    }

    /// With phrasing raw tags only, a browser builds exactly the elements
    /// written: none is closed early, reopened or moved.
    #[test]
    fn inline_raw_html_parses_as_written(md in mixed_markdown(false), options in options_with_images()) {
        let html = render(&md, &options).html;
        if let Err(e) = check_parse(&html) {
            return Err(TestCaseError::fail(format!("{e} in {html:?} from {md:?}")));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::cases(200)))]

    /// Streamed, the same markdown gives the one-shot render.
    #[test]
    fn mixed_raw_html_streams_to_its_one_shot_render(
        md in mixed_markdown(true),
        cuts in prop::collection::vec(any::<usize>(), 0..20),
        options in options_with_images(),
    ) {
        let mut cuts: Vec<usize> = cuts.into_iter().map(|cut| cut % (md.len() + 1)).collect();
        cuts.sort_unstable();
        let whole = render(&md, &options);
        let (streamed, citations) = streamed_at(&md, &cuts, &options);
        prop_assert_eq!(streamed, whole.html, "{:?} cut at {:?}", md, cuts);
        prop_assert_eq!(citations, whole.citations.occurrences);
    }
}

/// The examples of issue 23, and the elements it names.
#[test]
fn issue_23_examples_nest() {
    let options = Options::default();
    for (md, expected) in [
        ("~~a <sup>b~~ c", "<p><del>a <sup>b</sup></del> c</p>\n"),
        ("*a <p>b* c", "<p><em>a <p>b</p></em> c</p>\n"),
        ("**a <i>b** c", "<p><strong>a <i>b</i></strong> c</p>\n"),
        ("[a <b>x](u) y", "<p><a href=\"u\">a <b>x</b></a> y</p>\n"),
        ("# a *b <i>c* d", "<h1>a <em>b <i>c</i></em> d</h1>\n"),
    ] {
        assert_eq!(render(md, &options).html, expected, "{md}");
    }
}

/// The checkers themselves: they catch what issue 23 reported.
#[test]
fn checkers_catch_crossed_and_open_elements() {
    assert!(check_nesting("<p><del>a <sup>b</del> c</sup></p>").is_err());
    assert!(check_nesting("<p><em>a <p>b</em> c</p></p>").is_err());
    assert!(check_nesting("<p><b>open</p>").is_err());
    assert!(check_nesting(r#"<p><span title="<b>">x</span><br><img src="y" /></p>"#).is_ok());
    assert!(check_parse("<p><em><b>a</em> b</b></p>").is_err());
    assert!(check_parse("<p><em>a <p>b</p></em> c</p>").is_err());
    assert!(check_parse("<p><em><b>a</b></em> b</p>").is_ok());
}
