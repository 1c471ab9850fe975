//! What models write beyond CommonMark + GFM, and how it renders (issue 21):
//! GitHub alerts, math, marker-shaped links and the opt-in marker forms.
//! Each form is checked rendered once and streamed in small chunks, where
//! it must give the same HTML and citations.

use citemark::{render, Options, Rendered};

mod common;

/// `md` rendered with `options`, after checking that streaming it in 1-,
/// 2-, 3- and 5-byte chunks gives the same HTML and citations.
fn rendered(md: &str, options: &Options) -> Rendered {
    let whole = render(md, options);
    for size in [1, 2, 3, 5] {
        let cuts: Vec<usize> = (size..md.len()).step_by(size).collect();
        let (html, citations) = common::streamed_at(md, &cuts, options);
        assert_eq!(html, whole.html, "{md:?} in {size}-byte chunks");
        assert_eq!(
            citations, whole.citations.occurrences,
            "{md:?} in {size}-byte chunks"
        );
    }
    whole
}

#[test]
fn github_alerts_are_blockquotes_with_a_class_per_kind() {
    for (kind, class) in [
        ("NOTE", "note"),
        ("TIP", "tip"),
        ("IMPORTANT", "important"),
        ("WARNING", "warning"),
        ("CAUTION", "caution"),
    ] {
        let md = format!("> [!{kind}]\n> Back up first [1].\n");
        let out = rendered(&md, &Options::default());
        assert!(
            out.html.starts_with(&format!(
                "<blockquote class=\"markdown-alert-{class}\">\n<p>Back up first "
            )),
            "{}",
            out.html
        );
        assert_eq!(out.citations.occurrences.len(), 1, "{md}");
    }
    // Not an alert: an unknown kind, or text after the kind on its line.
    for md in ["> [!FOO]\n> x\n", "> [!NOTE] x\n"] {
        let html = rendered(md, &Options::default()).html;
        assert!(html.starts_with("<blockquote>\n"), "{md:?} -> {html}");
    }
}
