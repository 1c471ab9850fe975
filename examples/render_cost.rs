//! One render of the demo answer repeated to a size (the `answer` corpus of
//! `benches/render.rs`), by citemark or by pulldown-cmark's `push_html`
//! with the same dialect, for counting instructions under a profiler
//! (`benches/render-instructions.sh`).
//!
//! `cargo run --release --example render_cost -- citemark|pulldown|none BYTES`:
//! `none` only builds the input, the cost to subtract.

use std::hint::black_box;

#[path = "../benches/support/pulldown.rs"]
mod pulldown;
// (Only its corpus is used here.)
#[allow(dead_code)]
#[path = "../benches/support/workload.rs"]
mod workload;

fn main() {
    let mut args = std::env::args().skip(1);
    let usage = "usage: render_cost citemark|pulldown|none BYTES";
    let who = args.next().expect(usage);
    let size: usize = args.next().and_then(|a| a.parse().ok()).expect(usage);
    let (text, options) = workload::corpus(size);
    match who.as_str() {
        "citemark" => drop(black_box(citemark::render(black_box(&text), &options))),
        "pulldown" => drop(black_box(pulldown::pulldown_html(black_box(&text)))),
        "none" => drop(black_box(text)),
        _ => panic!("{usage}"),
    }
}
