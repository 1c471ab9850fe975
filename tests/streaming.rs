//! Streaming end to end: for every sample answer and random markdown, cut
//! into chunks every which way, the appends plus the final tail equal the
//! one-shot render byte for byte, and their citations equal its index. The
//! tail's quality is measured as the prefix rate (see `prefix_rate`).

use citemark::{render, Occurrence, Options, Stream};
use proptest::prelude::*;

mod common;
use common::{markdown, samples};

/// Streams `message` cut at `cuts` (byte offsets, any order); returns the
/// HTML and the citations.
fn stream(message: &str, cuts: &[usize], options: &Options) -> (String, Vec<Occurrence>) {
    let mut cuts: Vec<usize> = cuts.iter().map(|c| c % (message.len() + 1)).collect();
    cuts.sort_unstable();
    common::streamed_at(message, &cuts, options)
}

fn chunked(len: usize, size: usize) -> Vec<usize> {
    (size..len).step_by(size).collect()
}

#[test]
fn samples_stream_to_their_one_shot_render() {
    for sample in samples() {
        let whole = render(&sample.markdown, &sample.options);
        for size in [1, 4, 16, 64] {
            let (html, citations) = stream(
                &sample.markdown,
                &chunked(sample.markdown.len(), size),
                &sample.options,
            );
            assert_eq!(html, whole.html, "{} at {size}-byte chunks", sample.name);
            assert_eq!(
                citations, whole.citations.occurrences,
                "{} at {size}-byte chunks",
                sample.name
            );
        }
    }
}

/// Blocks are committed as the message goes, not all at `finish`: in
/// every sample that has more than a couple of blocks, most of the HTML
/// is appended before the end.
#[test]
fn samples_commit_as_they_go() {
    for sample in samples() {
        let mut stream = Stream::new(sample.options.clone());
        let mut before_finish = 0;
        for chunk in sample.markdown.as_bytes().chunks(16) {
            before_finish += stream.push_bytes(chunk).append.len();
        }
        let at_finish = stream.finish().append.len();
        let total = before_finish + at_finish;
        println!(
            "{:32} {:5.1}% appended before finish",
            sample.name,
            100.0 * before_finish as f64 / total as f64
        );
        // Footnotes keep the rest of a message open (see the stream docs).
        if !sample.markdown.contains("[^") {
            assert!(
                before_finish * 2 > total,
                "{}: only {before_finish} of {total} bytes appended before finish",
                sample.name
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::cases(500)))]

    #[test]
    fn random_markdown_streams_to_its_one_shot_render(
        md in markdown(),
        cuts in prop::collection::vec(any::<usize>(), 0..30),
        options in common::options(),
    ) {
        streams_to_its_one_shot_render(&md, &cuts, &options)?;
    }

    #[test]
    fn images_stream_to_their_one_shot_render_under_each_policy(
        md in common::image_markdown(),
        cuts in prop::collection::vec(any::<usize>(), 0..30),
        options in common::options_with_images(),
    ) {
        streams_to_its_one_shot_render(&md, &cuts, &options)?;
    }
}

/// `md` streamed cut at `cuts`, and in 1-byte chunks, gives its one-shot
/// HTML and citations.
fn streams_to_its_one_shot_render(
    md: &str,
    cuts: &[usize],
    options: &Options,
) -> Result<(), TestCaseError> {
    let whole = render(md, options);
    let (html, citations) = stream(md, cuts, options);
    prop_assert_eq!(&html, &whole.html);
    prop_assert_eq!(citations, whole.citations.occurrences);
    let (html, _) = stream(md, &chunked(md.len(), 1), options);
    prop_assert_eq!(&html, &whole.html, "1-byte chunks");
    Ok(())
}

/// The text a reader sees in `html`: tags dropped, entities decoded,
/// whitespace runs read as one space.
fn visible(html: &str) -> String {
    let mut text = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    let text = text
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&");
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// For each push: whether what the reader sees (appended HTML + tail) is
/// a prefix of what they will finally see, and if not, the step's view.
fn prefix_steps(message: &str, size: usize, options: &Options) -> (usize, usize, Vec<String>) {
    let last = visible(&render(message, options).html);
    let mut stream = Stream::new(options.clone());
    let mut appended = String::new();
    let (mut good, mut total, mut bad) = (0, 0, Vec::new());
    for chunk in message.as_bytes().chunks(size) {
        let patch = stream.push_bytes(chunk);
        appended.push_str(&visible(&patch.append));
        appended.push(' ');
        let tail = visible(&patch.tail.unwrap_or_default());
        let seen = format!("{appended} {tail}")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        total += 1;
        if last.starts_with(&seen) {
            good += 1;
        } else {
            bad.push(seen);
        }
    }
    (good, total, bad)
}

/// The prefix rate: the share of pushes after which the reader sees a
/// prefix of the final text (nothing shown that later changes or goes).
/// Prints the report quoted in the README; run with `--nocapture`.
#[test]
fn prefix_rate() {
    let mut report = String::from("sample                           1-byte   4-byte  16-byte\n");
    let mut all = [(0usize, 0usize); 3];
    // Footnote references are genuinely ambiguous: `[^x]` is text until a
    // definition arrives, usually at the very end.
    let mut without_footnotes = (0usize, 0usize);
    for sample in samples() {
        report.push_str(&format!("{:32}", sample.name));
        for (slot, size) in [1, 4, 16].into_iter().enumerate() {
            let (good, total, bad) = prefix_steps(&sample.markdown, size, &sample.options);
            all[slot].0 += good;
            all[slot].1 += total;
            if !sample.markdown.contains("[^") {
                without_footnotes.0 += good;
                without_footnotes.1 += total;
            }
            report.push_str(&format!(" {:7.2}%", 100.0 * good as f64 / total as f64));
            if std::env::var_os("CITEMARK_SHOW_FLICKER").is_some() {
                let last = visible(&render(&sample.markdown, &sample.options).html);
                for view in bad.iter().take(3) {
                    let same = view
                        .chars()
                        .zip(last.chars())
                        .take_while(|(a, b)| a == b)
                        .count();
                    let from = same.saturating_sub(30);
                    let seen: String = view.chars().skip(from).take(50).collect();
                    let wanted: String = last.chars().skip(from).take(50).collect();
                    eprintln!(
                        "{} @{size}: seen …{seen}\n{:width$}   final …{wanted}",
                        sample.name,
                        "",
                        width = sample.name.len()
                    );
                }
            }
        }
        report.push('\n');
    }
    report.push_str(&format!("{:32}", "all samples"));
    for (good, total) in all {
        report.push_str(&format!(" {:7.2}%", 100.0 * good as f64 / total as f64));
    }
    report.push_str(&format!(
        "\n{:32} {:7.2}% (all chunk sizes)",
        "all samples without footnotes",
        100.0 * without_footnotes.0 as f64 / without_footnotes.1 as f64
    ));
    println!("{report}");
    for (good, total) in all {
        assert!(
            good * 100 >= total * 90,
            "prefix rate fell below 90%:\n{report}"
        );
    }
    assert_eq!(
        without_footnotes.0, without_footnotes.1,
        "something shown without footnotes later changed (CITEMARK_SHOW_FLICKER=1 shows it):\n{report}"
    );
}
