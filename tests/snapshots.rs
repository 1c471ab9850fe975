//! Snapshot tests over the realistic answers in `tests/samples/`: the HTML
//! in every mode, and the citation index. The same samples feed the npm
//! package's snapshot tests and the benchmark.

use citemark::{render, Mode};

mod common;
use common::samples;

#[test]
fn there_are_samples() {
    assert!(
        samples().len() >= 8,
        "tests/samples holds the shared fixtures"
    );
}

#[test]
fn html_in_every_mode() {
    for sample in samples() {
        for (mode, embedded, suffix) in [
            (Mode::Link, false, "link"),
            (Mode::Button, false, "button"),
            (Mode::Icon, false, "icon"),
            (Mode::Icon, true, "icon-embedded"),
        ] {
            let options = sample
                .options
                .clone()
                .with_mode(mode)
                .with_embedded(embedded);
            let html = render(&sample.markdown, &options).html;
            insta::assert_snapshot!(format!("{}.{suffix}.html", sample.name), html);
        }
    }
}

#[test]
fn citation_index() {
    for sample in samples() {
        let index = render(&sample.markdown, &sample.options).citations;
        insta::assert_json_snapshot!(format!("{}.index", sample.name), index);
    }
}

#[test]
fn index_ordinals_match_the_html() {
    for sample in samples() {
        let out = render(&sample.markdown, &sample.options);
        let in_html = out.html.matches("data-citation-ordinal=").count();
        assert_eq!(in_html, out.citations.occurrences.len(), "{}", sample.name);
        for (i, occurrence) in out.citations.occurrences.iter().enumerate() {
            assert_eq!(occurrence.ordinal as usize, i + 1, "{}", sample.name);
            let attr = format!("data-citation-ordinal=\"{}\"", occurrence.ordinal);
            assert!(out.html.contains(&attr), "{}: {attr}", sample.name);
            let range = occurrence.range.start..occurrence.range.end;
            assert!(
                sample.markdown.get(range).is_some(),
                "{}: range on char boundaries",
                sample.name
            );
        }
    }
}
