//! Streaming end to end: for every sample answer and random markdown, cut
//! into chunks every which way, the appends plus the final tail equal the
//! one-shot render byte for byte, and their citations equal its index. The
//! tail's quality is measured as the prefix rate (see `prefix_rate`).

use citemark::{render, Occurrence, Options, Stream};
use proptest::prelude::*;

mod common;
use common::{markdown, samples};

/// Streams `message` cut at `cuts` (byte offsets, any order); returns the
/// HTML, the citations, and the tail after each push.
fn stream(message: &str, cuts: &[usize], options: &Options) -> (String, Vec<Occurrence>) {
    let mut cuts: Vec<usize> = cuts.iter().map(|c| c % (message.len() + 1)).collect();
    cuts.push(message.len());
    cuts.sort_unstable();
    let mut stream = Stream::new(options.clone());
    let (mut html, mut citations, mut from) = (String::new(), Vec::new(), 0);
    for cut in cuts {
        let patch = stream.push_bytes(&message.as_bytes()[from..cut]);
        from = cut;
        html.push_str(&patch.append);
        citations.extend(patch.citations);
    }
    let last = stream.finish();
    html.push_str(&last.append);
    citations.extend(last.citations);
    (html, citations)
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
        println!("{:32} {:5.1}% appended before finish", sample.name, 100.0 * before_finish as f64 / total as f64);
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
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn random_markdown_streams_to_its_one_shot_render(
        md in markdown(),
        cuts in prop::collection::vec(any::<usize>(), 0..30),
        with_sources in any::<bool>(),
    ) {
        let mut options = Options::default();
        if with_sources {
            options = options.with_sources(vec![citemark::Source::with_id("a").with_title("A")]);
        }
        let whole = render(&md, &options);
        let (html, citations) = stream(&md, &cuts, &options);
        prop_assert_eq!(&html, &whole.html);
        prop_assert_eq!(citations, whole.citations.occurrences);
        let (html, _) = stream(&md, &chunked(md.len(), 1), &options);
        prop_assert_eq!(&html, &whole.html, "1-byte chunks");
    }
}
