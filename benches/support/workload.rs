//! The streaming workload that `benches/stream.rs` times and
//! `examples/stream_cost.rs` runs under a profiler: the demo answer
//! repeated to a size, fed to a [`Stream`] in chunks.

use citemark::{Options, Stream};

#[path = "chunks.rs"]
pub mod chunks;
use chunks::str_chunks;

/// Bytes between two tail renders in `tail-per-frame`.
pub const FRAME_BYTES: usize = 256;

/// `examples/answer.md` repeated to at least `target` bytes, and the
/// options with `examples/sources.json`.
pub fn corpus(target: usize) -> (String, Options) {
    let root = env!("CARGO_MANIFEST_DIR");
    let answer = std::fs::read_to_string(format!("{root}/examples/answer.md"))
        .expect("examples/answer.md is part of the repository");
    let sources = std::fs::read_to_string(format!("{root}/examples/sources.json"))
        .expect("examples/sources.json is part of the repository");
    let options = Options::default()
        .with_sources_json(&sources)
        .expect("examples/sources.json is valid");
    let mut text = String::new();
    while text.len() < target {
        text.push_str(&answer);
        text.push('\n');
    }
    (text, options)
}

/// One long list of cited one-line items, at least `target` bytes: the
/// shape that once made every line re-render the whole list. (This and
/// the next are counted by `benches/stream-instructions.sh` through
/// `examples/stream_cost.rs`.)
#[allow(dead_code)]
pub fn list_corpus(target: usize) -> (String, Options) {
    let (_, options) = corpus(0);
    let mut text = String::from("Findings:\n\n");
    let mut item = 0;
    while text.len() < target {
        item += 1;
        text.push_str(&format!(
            "- Item {item} has **some** text and a citation [{}] here.\n",
            item % 3 + 1
        ));
    }
    (text, options)
}

/// The demo answer after a reference nothing defines (`[note]`): a later
/// definition could still change it, so nothing can be committed until the
/// end, and the whole answer stays in the tail.
#[allow(dead_code)]
pub fn undefined_reference_corpus(target: usize) -> (String, Options) {
    let (answer, options) = corpus(target);
    (["See [note] first.\n\n", &answer].concat(), options)
}

/// `text` streamed in `chunk`-byte pieces with the tail after every push,
/// into one buffer kept by the host ([`Stream::tail_into`]); returns the
/// bytes of HTML handed over.
pub fn stream_every_push(text: &str, chunk: usize, options: &Options) -> usize {
    let mut stream = Stream::new(options.clone());
    let (mut bytes, mut tail) = (0, String::new());
    for piece in str_chunks(text, chunk) {
        let patch = stream.push_deferred(piece);
        stream.tail_into(&mut tail);
        bytes += patch.append.len() + tail.len();
    }
    bytes + stream.finish().append.len()
}

/// The same with the tail handed over as its change after every push
/// ([`Stream::tail_change`]): the bytes of each change.
#[allow(dead_code)]
pub fn stream_tail_changes(text: &str, chunk: usize, options: &Options) -> usize {
    let mut stream = Stream::new(options.clone());
    let mut bytes = 0;
    for piece in str_chunks(text, chunk) {
        bytes += stream.push_deferred(piece).append.len();
        bytes += stream.tail_change().html().len();
    }
    bytes + stream.finish().append.len()
}

/// The same with [`Stream::push`], which hands over a new tail each time.
#[allow(dead_code)]
pub fn stream_every_push_new_tail(text: &str, chunk: usize, options: &Options) -> usize {
    let mut stream = Stream::new(options.clone());
    let mut bytes = 0;
    for piece in str_chunks(text, chunk) {
        let patch = stream.push(piece);
        bytes += patch.append.len() + patch.tail.map_or(0, |t| t.len());
    }
    bytes + stream.finish().append.len()
}

pub fn stream_per_frame(text: &str, chunk: usize, options: &Options) -> usize {
    let mut stream = Stream::new(options.clone());
    let (mut bytes, mut since_frame) = (0, 0);
    for piece in str_chunks(text, chunk) {
        let patch = stream.push_deferred(piece);
        bytes += patch.append.len();
        since_frame += piece.len();
        if since_frame >= FRAME_BYTES {
            bytes += stream.tail().len();
            since_frame = 0;
        }
    }
    bytes + stream.finish().append.len()
}
