//! One render of an answer-shaped input, by citemark or by pulldown-cmark's
//! `push_html` with the same dialect, for counting instructions under a
//! profiler (`benches/render-instructions.sh`).
//!
//! `cargo run --release --example render_cost -- citemark|pulldown|floor|none BYTES [CORPUS]`:
//! `none` only builds the input, the cost to subtract; `floor` is the
//! floor of `benches/support/floor.rs`. CORPUS is one of
//! - `answer` (the default): the demo answer repeated to BYTES (the
//!   `answer` corpus of `benches/render.rs`);
//! - `prose`: the same with its citations taken out (cite tags keep their
//!   label, `[n]` markers go, the short link becomes a plain link): what
//!   the citations themselves cost;
//! - `plain`, `marker`, `cite`: one paragraph repeated, holding `(1)`, a
//!   `[1]` marker or a cite tag at the same place.

use std::hint::black_box;

#[path = "../benches/support/floor.rs"]
mod floor;
#[path = "../benches/support/pulldown.rs"]
mod pulldown;
// (Only its corpus is used here.)
#[allow(dead_code)]
#[path = "../benches/support/workload.rs"]
mod workload;

/// The paragraph of the `plain`, `marker` and `cite` corpora, with
/// `{citation}` where each puts its citation.
const PARAGRAPH: &str = "Sterling fell about 2.4% against the euro over the quarter {citation} and the krona about 3.1%, which lowers the value.\n\n";

fn main() {
    let mut args = std::env::args().skip(1);
    let usage =
        "usage: render_cost citemark|pulldown|floor|none BYTES [answer|prose|plain|marker|cite]";
    let who = args.next().expect(usage);
    let size: usize = args.next().and_then(|a| a.parse().ok()).expect(usage);
    let corpus = args.next().unwrap_or_else(|| "answer".to_owned());
    let (answer, options) = workload::corpus(size);
    let text = match corpus.as_str() {
        "answer" => answer,
        "prose" => without_citations(&answer),
        "plain" => repeated_paragraph("(1)", size),
        "marker" => repeated_paragraph("[1]", size),
        "cite" => repeated_paragraph(r#"<cite id="call_q3_fx">fx rates</cite>"#, size),
        _ => panic!("{usage}"),
    };
    match who.as_str() {
        "citemark" => drop(black_box(citemark::render(black_box(&text), &options))),
        "pulldown" => drop(black_box(pulldown::pulldown_html(black_box(&text)))),
        "floor" => drop(black_box(floor::floor_render(black_box(&text), &options))),
        "none" => drop(black_box(text)),
        _ => panic!("{usage}"),
    }
}

/// [`PARAGRAPH`] with `citation` in it, repeated to at least `size` bytes.
fn repeated_paragraph(citation: &str, size: usize) -> String {
    let paragraph = PARAGRAPH.replace("{citation}", citation);
    paragraph.repeat(size.div_ceil(paragraph.len()))
}

/// The demo answer's text with its citations taken out.
fn without_citations(answer: &str) -> String {
    let mut text = String::with_capacity(answer.len());
    let mut rest = answer;
    while let Some(open) = rest.find("<cite") {
        text.push_str(&rest[..open]);
        let tag_end = rest[open..].find('>').map_or(rest.len(), |i| open + i + 1);
        rest = &rest[tag_end..];
    }
    text.push_str(rest);
    ["</cite>", "[1]", "[2]", "[3]"]
        .iter()
        .fold(text, |text, citation| text.replace(citation, ""))
        .replace("/-/ai/conversations/conv_emea_q3/call/", "/docs/")
}
