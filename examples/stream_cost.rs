//! One streaming run, for counting its cost with a profiler
//! (`benches/stream-instructions.sh` counts instructions under callgrind,
//! which a shared, noisy machine does not disturb).
//!
//! `cargo run --release --example stream_cost -- MODE BYTES CHUNK [list|note]`:
//! MODE is `one` (render once), `push` (the tail after every push),
//! `changes` (the tail's change after every push), `typed` (the same by a
//! host that shows the typing the stream vouches for itself, as the npm
//! package's glue does: it prints how many pushes went to the stream) or
//! `frame` (`push_deferred`, and the tail once per 256 bytes); the answer
//! is `examples/answer.md` repeated to BYTES, fed in CHUNK-byte pieces —
//! the workload of `benches/stream.rs` — or, with `list`, one long list of
//! one-line items; with `note`, the answer after an undefined `[note]`.
//! With `shape:NAME`, the text is that shape of `benches/shapes.rs`
//! (`shape:fenced-code`, …) at BYTES; with `file:PATH`, that file's text
//! (BYTES ignored). MODE `bytes` prints the answer's length, `text` the answer,
//! `names` the shapes' names. MODE `pieces` renders BYTES pieces of about
//! 10 bytes each (`x **3**`, `x [1].`), as the tail renders the words since
//! its settled point at a crossing: what one such rendering costs (with
//! no sources, which a stream reads once, not per rendering). MODE
//! `crossings` streams as `typed` does and sorts the crossings that come
//! right after one that vouched for no typing (docs/streaming.md, "The next
//! design") by what the text so far ends with; with `CROSSDUMP` set in the
//! environment, each of them goes to stderr too, as its kind, the line so
//! far and the push (tab-separated, debug-quoted), to sort further.

use std::hint::black_box;

use citemark::render;

#[allow(dead_code)] // (The shapes bench uses the rest.)
#[path = "../benches/support/shapes.rs"]
mod shapes;
#[path = "../benches/support/typing_host.rs"]
mod typing_host;
#[path = "../benches/support/workload.rs"]
mod workload;
use workload::{
    corpus, list_corpus, stream_every_push, stream_per_frame, stream_tail_changes,
    undefined_reference_corpus,
};

fn main() {
    let mut args = std::env::args().skip(1);
    let usage =
        "usage: stream_cost one|push|changes|typed|crossings|frame|pieces|bytes|text|names BYTES CHUNK [list|note|shape:NAME|file:PATH]";
    let mode = args.next().expect(usage);
    let size: usize = args.next().and_then(|a| a.parse().ok()).expect(usage);
    let chunk: usize = args.next().and_then(|a| a.parse().ok()).expect(usage);
    let (text, options) = match args.next().as_deref() {
        Some("list") => list_corpus(size),
        Some("note") => undefined_reference_corpus(size),
        None => corpus(size),
        Some(name) if name.starts_with("file:") => {
            let text = std::fs::read_to_string(&name["file:".len()..]).expect(usage);
            (text, corpus(1).1)
        }
        Some(name) if name.starts_with("shape:") => {
            let text = shapes::shape(&name["shape:".len()..], size).expect(usage);
            (text, corpus(1).1)
        }
        Some(_) => panic!("{usage}"),
    };
    let chunk = chunk.max(1);
    match mode.as_str() {
        "one" => drop(black_box(render(&text, &options))),
        "push" => drop(black_box(stream_every_push(&text, chunk, &options))),
        "frame" => drop(black_box(stream_per_frame(&text, chunk, &options))),
        "changes" => drop(black_box(stream_tail_changes(&text, chunk, &options))),
        "typed" => {
            let mut host = typing_host::TypingHost::new(&options);
            let (mut handed, mut pushes) = (0, 0);
            for piece in workload::chunks::str_chunks(&text, chunk) {
                handed += host.push(piece, |patch| handed += patch.append.len());
                pushes += 1;
            }
            host.finish(|patch| handed += patch.append.len());
            eprintln!(
                "{handed} bytes handed; {} of {pushes} pushes went to the stream",
                host.crossings
            );
        }
        "crossings" => {
            let mut host = typing_host::TypingHost::new(&options);
            let (mut at, mut pushes) = (0, 0);
            let mut after_none = std::collections::BTreeMap::<&str, usize>::new();
            for piece in workload::chunks::str_chunks(&text, chunk) {
                if host.typing() == citemark::Typing::Pushed {
                    let kind = crossing_kind(&text[..at]);
                    *after_none.entry(kind).or_default() += 1;
                    if std::env::var_os("CROSSDUMP").is_some() {
                        let line = text[..at].rsplit('\n').next().unwrap_or_default();
                        eprintln!("{kind}\t{:?}\t{:?}", line, piece);
                    }
                }
                host.push(piece, |_| {});
                at += piece.len();
                pushes += 1;
            }
            let after: usize = after_none.values().sum();
            println!(
                "{} of {pushes} pushes crossed; {after} right after a crossing that vouched for no typing:",
                host.crossings
            );
            for (kind, count) in after_none {
                println!("  {kind}: {count}");
            }
        }
        "pieces" => {
            // (No sources: a stream resolves against sources it read once.)
            let options = citemark::Options::default();
            for piece in ["x **3\u{E000}**", "x [1].\u{E000}"]
                .iter()
                .cycle()
                .take(size)
            {
                black_box(render(piece, &options));
            }
        }
        "bytes" => println!("{}", text.len()),
        "text" => print!("{text}"),
        "names" => println!("{}", shapes::SHAPES.join("\n")),
        _ => panic!("{usage}"),
    }
}

/// What `before`, the text before a push, ends with: where the push is.
fn crossing_kind(before: &str) -> &'static str {
    let line = before.rsplit('\n').next().unwrap_or_default();
    let bracket = line.rfind('[').is_some_and(|at| !line[at..].contains(']'));
    if before.ends_with('\n') || matches!(line.trim(), "" | ">" | "-" | "*" | "1.") {
        "a line's start"
    } else if line.bytes().filter(|&b| b == b'`').count() % 2 == 1 {
        "in a code span"
    } else if line.ends_with(' ') {
        "after a space"
    } else if line.ends_with(['*', '_', '~']) {
        "after a delimiter run"
    } else if bracket {
        "in brackets"
    } else {
        "elsewhere"
    }
}
