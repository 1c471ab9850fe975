//! Properties over random markdown: render never panics, the index always
//! agrees with the HTML, and links never nest.

use citemark::{render, Mode, Options, Source};
use proptest::prelude::*;

mod common;
use common::{image_markdown, markdown, options_with_images};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::cases(400)))]

    #[test]
    fn index_agrees_with_html(md in markdown(), with_sources in any::<bool>(), mode_pick in 0u8..3) {
        let mode = [Mode::Link, Mode::Button, Mode::Icon][usize::from(mode_pick)];
        let mut options = Options::default().with_mode(mode);
        if with_sources {
            options = options.with_sources(vec![
                Source::with_id("a").with_title("A"),
                Source::with_id("b").with_href("https://b.example/"),
            ]);
        }
        let out = render(&md, &options);
        prop_assert_eq!(out.html.matches("data-citation-ordinal=").count(), out.citations.occurrences.len());
        for (i, occurrence) in out.citations.occurrences.iter().enumerate() {
            prop_assert_eq!(occurrence.ordinal as usize, i + 1);
            prop_assert!(occurrence.range.start <= occurrence.range.end && occurrence.range.end <= md.len());
        }
        for raw in ["<cite", "</cite", "<script"] {
            prop_assert!(!out.html.contains(raw), "{} in {:?}", raw, out.html);
        }
    }

    /// Every `<a>` is closed before the next one opens (an image written
    /// as a link must not land inside a link or a citation, nor stay open).
    #[test]
    fn links_never_nest_or_stay_open(
        // (pulldown-cmark, like CommonMark's reference implementations,
        // keeps an autolink, `<https://…>` or `<a@b.co>`, inside link text
        // as a link of its own; citemark writes what it parsed.)
        md in image_markdown().prop_filter("an autolink in link text", |md| {
            !md.contains("<http") && !md.contains("<a@")
        }),
        options in options_with_images(),
    ) {
        let html = render(&md, &options).html;
        // (Text and attribute values are escaped: every `<a ` and `</a>`
        // is a tag.)
        let mut open = false;
        for piece in html.split_inclusive('>') {
            if piece.ends_with("</a>") {
                prop_assert!(open, "</a> closes nothing in {:?} from {:?}", html, md);
                open = false;
            } else if piece.contains("<a ") {
                prop_assert!(!open, "<a> inside <a> in {:?} from {:?}", html, md);
                open = true;
            }
        }
        prop_assert!(!open, "<a> left open in {:?} from {:?}", html, md);
    }

    /// The property is that it returns at all: a panic fails the test.
    #[test]
    fn arbitrary_text_never_panics(md in "\\PC{0,200}") {
        let out = render(&md, &Options::default());
        prop_assert!(!out.html.contains("<script"));
    }
}
