//! One streaming run, for counting its cost with a profiler
//! (`benches/stream-instructions.sh` counts instructions under callgrind,
//! which a shared, noisy machine does not disturb).
//!
//! `cargo run --release --example stream_cost -- MODE BYTES CHUNK`: MODE is
//! `one` (render once), `push` (the tail after every push) or `frame`
//! (`push_deferred`, and the tail once per 256 bytes); the answer is
//! `examples/answer.md` repeated to BYTES, fed in CHUNK-byte pieces.

use citemark::{render, Options, Stream};

fn main() {
    let mut args = std::env::args().skip(1);
    let usage = "usage: stream_cost one|push|frame BYTES CHUNK";
    let mode = args.next().expect(usage);
    let size: usize = args.next().and_then(|a| a.parse().ok()).expect(usage);
    let chunk: usize = args.next().and_then(|a| a.parse().ok()).expect(usage);
    let answer =
        std::fs::read_to_string("examples/answer.md").expect("run from the repository root");
    let sources =
        std::fs::read_to_string("examples/sources.json").expect("run from the repository root");
    let options = Options::default()
        .with_sources_json(&sources)
        .expect("examples/sources.json is valid");
    let mut text = String::new();
    while text.len() < size {
        text.push_str(&answer);
        text.push('\n');
    }
    if mode == "one" {
        std::hint::black_box(render(&text, &options));
        return;
    }
    let mut stream = Stream::new(options);
    let (mut from, mut since_frame) = (0, 0);
    while from < text.len() {
        let mut to = (from + chunk.max(1)).min(text.len());
        while !text.is_char_boundary(to) {
            to += 1;
        }
        if mode == "push" {
            std::hint::black_box(stream.push(&text[from..to]));
        } else {
            std::hint::black_box(stream.push_deferred(&text[from..to]));
            since_frame += to - from;
            if since_frame >= 256 {
                since_frame = 0;
                std::hint::black_box(stream.tail());
            }
        }
        from = to;
    }
    std::hint::black_box(stream.finish());
}
