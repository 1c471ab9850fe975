//! What models write beyond CommonMark + GFM, and how it renders (issue 21):
//! GitHub alerts, math, marker-shaped links and the opt-in marker forms.
//! Each form is checked rendered once and streamed in small chunks, where
//! it must give the same HTML and citations.

use citemark::{render, Options, Rendered, Syntaxes};

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

/// Two sources numbered 1 and 2 (`index`), each with an `href`.
fn two_sources() -> Options {
    Options::default()
        .with_sources_json(
            r#"[{"index": 1, "title": "One", "href": "https://one.example/"},
                {"index": 2, "title": "Two", "href": "https://two.example/"}]"#,
        )
        .expect("valid sources")
}

#[test]
fn a_marker_as_link_text_is_a_marker_citation_carrying_its_url() {
    let md = "Rates rose [1](https://news.example/a) and [[2]](https://news.example/b).\n";
    // Without sources the link's URL is the href, and the index keeps it.
    let out = rendered(md, &Options::default());
    assert_eq!(
        out.html,
        "<p>Rates rose <sup><a class=\"citation citation-unresolved\" href=\"https://news.example/a\" \
         title=\"1\" rel=\"noopener noreferrer nofollow\" data-citation-key=\"1\" data-citation-kind=\"index\" \
         data-citation-ordinal=\"1\">1</a></sup> and <sup><a class=\"citation citation-unresolved\" \
         href=\"https://news.example/b\" title=\"2\" rel=\"noopener noreferrer nofollow\" data-citation-key=\"2\" \
         data-citation-kind=\"index\" data-citation-ordinal=\"2\">2</a></sup>.</p>\n"
    );
    let urls: Vec<_> = out
        .citations
        .occurrences
        .iter()
        .map(|o| o.url.as_deref())
        .collect();
    assert_eq!(
        urls,
        [
            Some("https://news.example/a"),
            Some("https://news.example/b")
        ]
    );
    assert_eq!(
        &md[out.citations.occurrences[0].range.start..out.citations.occurrences[0].range.end],
        "[1](https://news.example/a)"
    );
    // A source with that number is what it cites: its href and title.
    let out = rendered(md, &two_sources());
    assert!(
        out.html
            .contains("href=\"https://one.example/\" title=\"One\""),
        "{}",
        out.html
    );
    assert!(out.citations.occurrences.iter().all(|o| o.resolved));
    assert_eq!(
        out.citations.occurrences[0].url.as_deref(),
        Some("https://news.example/a")
    );
    // No source numbered 7: the link still cites, with its own URL.
    let seventh = rendered("see [7](https://x.example/7)\n", &two_sources());
    assert!(
        seventh.html.contains("href=\"https://x.example/7\""),
        "{}",
        seventh.html
    );
    assert!(!seventh.citations.occurrences[0].resolved);
}

#[test]
fn marker_links_are_only_whole_numbers_in_inline_links() {
    for md in [
        "[0](https://x.example/)",
        "[1a](https://x.example/)",
        "[1, 2](https://x.example/)",
        "[*1*](https://x.example/)",
        "`[1](https://x.example/)`",
    ] {
        let out = rendered(md, &Options::default());
        assert!(out.citations.occurrences.is_empty(), "{md} -> {}", out.html);
    }
}

#[test]
fn a_marker_link_never_hands_over_a_script_url() {
    let out = rendered("x [1](javascript:alert(1)) y\n", &Options::default());
    assert!(!out.html.contains("javascript"), "{}", out.html);
    assert_eq!(out.citations.occurrences.len(), 1);
    assert_eq!(out.citations.occurrences[0].url, None);
}

#[test]
fn a_label_before_an_undefined_marker_reference_labels_one_citation() {
    let md = "See [the rollout notes][2] and [2][1], then ![chart][1] and \\[kept][2].\n";
    let out = rendered(md, &two_sources());
    let cited: Vec<(&str, &str)> = out
        .citations
        .occurrences
        .iter()
        .map(|o| (o.key.as_str(), o.label.as_str()))
        .collect();
    assert_eq!(
        cited,
        [
            ("2", "the rollout notes"),
            ("2", "2"),
            ("1", "1"),
            ("1", "1"),
            ("2", "2")
        ]
    );
    assert!(
        out.html.starts_with(
            "<p>See <a class=\"citation\" href=\"https://two.example/\" title=\"Two\" \
             rel=\"noopener noreferrer nofollow\" data-citation-key=\"2\" data-citation-kind=\"index\" \
             data-citation-ordinal=\"1\">the rollout notes</a> and <sup>"
        ),
        "{}",
        out.html
    );
    assert!(out.html.contains(" then ![chart]<sup>"), "{}", out.html);
    assert!(out.html.contains(" and [kept]<sup>"), "{}", out.html);
    let first = &out.citations.occurrences[0].range;
    assert_eq!(&md[first.start..first.end], "[the rollout notes][2]");
    // A number no source has stays text, label and all.
    let html = rendered("See [notes][9].\n", &two_sources()).html;
    assert_eq!(html, "<p>See [notes][9].</p>\n");
}

/// The default syntaxes with `enable` switched on.
fn with_syntaxes(enable: fn(&mut Syntaxes)) -> Options {
    let mut syntaxes = Syntaxes::default();
    enable(&mut syntaxes);
    Options::default().with_syntaxes(syntaxes)
}

/// The keys and labels of what `md` cites.
fn cited(out: &Rendered) -> Vec<(String, String)> {
    out.citations
        .occurrences
        .iter()
        .map(|o| (o.key.clone(), o.label.clone()))
        .collect()
}

#[test]
fn other_products_marker_spellings_are_each_a_switch() {
    let md = "Copilot[^1^] and [^2, 3^], a prompt's [citation:4] and [Source: 5], \
              file search's \u{3010}6\u{2020}source\u{3011} and \u{3010}7:0\u{2020}q3.pdf\u{3011}.\n";
    let pairs = |keys: &[&str]| -> Vec<(String, String)> {
        keys.iter()
            .map(|k| (k.to_string(), k.to_string()))
            .collect()
    };
    // By default only the unambiguous file-search form cites.
    let out = rendered(md, &Options::default());
    assert_eq!(cited(&out), pairs(&["6", "7"]));
    assert!(out
        .html
        .contains("Copilot[^1^] and [^2, 3^], a prompt's [citation:4] and [Source: 5]"));
    assert!(!out.html.contains('\u{3010}'), "{}", out.html);
    let out = rendered(md, &with_syntaxes(|s| s.copilot_markers = true));
    assert_eq!(cited(&out), pairs(&["1", "2", "3", "6", "7"]));
    let out = rendered(md, &with_syntaxes(|s| s.prompt_markers = true));
    assert_eq!(cited(&out), pairs(&["4", "5", "6", "7"]));
    let out = rendered(md, &with_syntaxes(|s| s.file_search_markers = false));
    assert!(out.citations.occurrences.is_empty(), "{}", out.html);
    // Each is a marker like `[1]`: raised, with the number shown.
    let out = rendered(
        "a[citation:1] b",
        &with_syntaxes(|s| s.prompt_markers = true),
    );
    assert_eq!(
        out.html,
        "<p>a<sup><a class=\"citation citation-unresolved\" title=\"1\" data-citation-key=\"1\" \
         data-citation-kind=\"index\" data-citation-ordinal=\"1\">1</a></sup> b</p>\n"
    );
}

#[test]
fn other_spellings_stay_text_in_code_and_as_footnotes() {
    let options = Options::default().with_syntaxes(Syntaxes::all());
    let md = "`[^1^]` and `\u{3010}2\u{2020}source\u{3011}`\n\n```\n[citation:3]\n```\n\nSee[^1^].\n\n[^1^]: A real footnote.\n";
    let out = rendered(md, &options);
    assert!(out.citations.occurrences.is_empty(), "{}", out.html);
    assert!(
        out.html.contains("class=\"footnote-reference\""),
        "{}",
        out.html
    );
}

#[test]
fn the_options_json_names_the_switches() {
    let options = Options::from_json(
        r#"{"syntaxes": {"copilotMarkers": true, "promptMarkers": true, "fileSearchMarkers": false}}"#,
    )
    .expect("valid options");
    assert!(options.syntaxes.copilot_markers && options.syntaxes.prompt_markers);
    assert!(!options.syntaxes.file_search_markers && options.syntaxes.markers);
}

#[test]
fn math_in_four_spellings_becomes_elements_holding_the_tex() {
    let md = "Inline $a_1 * b_1$ and \\(a_1 * b_1\\), displayed\n\n$$\n\\frac{1}{2}\n$$\n\n\\[\n\\sum_i x_i \\\\\n\\]\n";
    let out = rendered(md, &Options::default());
    assert_eq!(
        out.html,
        "<p>Inline <span class=\"math math-inline\">a_1 * b_1</span> and \
         <span class=\"math math-inline\">a_1 * b_1</span>, displayed</p>\n\
         <p><span class=\"math math-display\">\n\\frac{1}{2}\n</span></p>\n\
         <p><span class=\"math math-display\">\n\\sum_i x_i \\\\\n</span></p>\n"
    );
}

#[test]
fn math_spans_hold_no_emphasis_no_citations_and_no_markup() {
    let cases = [
        ("\\(a*b*c\\)", "<p><span class=\"math math-inline\">a*b*c</span></p>\n"),
        ("$x[1]$ and \\(y[2]\\)", "<p><span class=\"math math-inline\">x[1]</span> and <span class=\"math math-inline\">y[2]</span></p>\n"),
        (
            "$<img src=x onerror=alert(1)>$ \\(</span><script>alert(1)</script>\\)",
            "<p><span class=\"math math-inline\">&lt;img src=x onerror=alert(1)&gt;</span> \
             <span class=\"math math-inline\">&lt;/span&gt;&lt;script&gt;alert(1)&lt;/script&gt;</span></p>\n",
        ),
        // Inside a quote the TeX is what is inside the quote's marks.
        ("> \\[\n> \\{x\\}\n> \\]\n", "<blockquote>\n<p><span class=\"math math-display\">\n\\{x\\}\n</span></p>\n</blockquote>\n"),
    ];
    for (md, html) in cases {
        let out = rendered(md, &Options::default());
        assert_eq!(out.html, html, "{md:?}");
        assert!(out.citations.occurrences.is_empty(), "{md:?}");
    }
}

#[test]
fn what_is_not_math_stays_as_it_was() {
    let cases = [
        // Currency.
        ("$5 and $10", "<p>$5 and $10</p>\n"),
        (
            "$1,000 at 5% gives $1,647 and $x$",
            "<p>$1,000 at 5% gives $1,647 and <span class=\"math math-inline\">x</span></p>\n",
        ),
        // Code spans and blocks.
        ("`$x$ \\(y\\)`", "<p><code>$x$ \\(y\\)</code></p>\n"),
        (
            "```\n$x$ \\(y\\)\n```\n",
            "<pre><code>$x$ \\(y\\)\n</code></pre>\n",
        ),
        // Brackets around a marker's content: the writer's literal `[1]`.
        ("\\[1\\] and \\[2, 3\\]", "<p>[1] and [2, 3]</p>\n"),
        // Unclosed, or crossing emphasis.
        ("\\(a and b", "<p>(a and b</p>\n"),
        ("*a \\(b* c\\)", "<p><em>a (b</em> c)</p>\n"),
    ];
    for (md, html) in cases {
        assert_eq!(rendered(md, &Options::default()).html, html, "{md:?}");
    }
}

#[test]
fn the_math_option_turns_it_off() {
    let off = Options::default().with_math(false);
    let out = rendered("$x$ and \\(a_1\\) [1]", &off);
    assert_eq!(
        out.html,
        "<p>$x$ and (a_1) <sup><a class=\"citation citation-unresolved\" title=\"1\" \
         data-citation-key=\"1\" data-citation-kind=\"index\" data-citation-ordinal=\"1\">1</a></sup></p>\n"
    );
    assert!(
        !Options::from_json(r#"{"math": false}"#)
            .expect("valid")
            .math
    );
}

/// Every form above in one answer, every syntax on, as a snapshot.
#[test]
fn every_form_in_one_answer() {
    let md = "\u{FEFF}# Rates\n\n\
              Growth is $e^{rt}$, or \\(e^{rt}\\) [1](https://a.example/) and [[2]](https://b.example/); \
              see [the table][3], [^4^], [citation:5], [Source: 6] and \u{3010}7\u{2020}source\u{3011} \
              ([call](https://h/o/p/-/ai/conversations/c/call/k)).\n\n\
              \\[\n\\frac{1}{2}\n\\]\n\n\
              > [!TIP]\n> Prices like $5 and $10 stay text; `$x$` is code.\n";
    let out = rendered(md, &Options::default().with_syntaxes(Syntaxes::all()));
    insta::assert_snapshot!("every_form_in_one_answer.html", out.html);
    insta::assert_json_snapshot!("every_form_in_one_answer.index", out.citations);
}
