//! One stream as a host that paints after every push makes it, timed: the
//! shape and corpus benches share it. (The including bench declares the
//! `chunks` module beside this one.)

use std::hint::black_box;
use std::time::{Duration, Instant};

use citemark::{Options, Stream, StreamedHtml};

use crate::chunks::str_chunks;

/// What one timed stream gave.
pub enum Timed {
    /// The whole message streamed: its time, the bytes handed to the host
    /// (every append, plus the whole tail after every push) and the HTML
    /// the patches assemble into.
    Done {
        time: Duration,
        handed: usize,
        html: String,
    },
    /// The budget ran out after `at` bytes.
    Stopped { at: usize, after: Duration },
}

/// Whether the host is handed the tail's change after every push
/// (`Stream::tail_change`, environment `TAIL=changes`) rather than the
/// whole tail.
fn tail_as_changes() -> bool {
    std::env::var("TAIL").is_ok_and(|tail| tail == "changes")
}

/// Streams `text` in `chunk`-byte pieces: `push_deferred`, the tail after
/// every push with `tail_into` into one buffer (or, with `TAIL=changes`,
/// its change: only the change's bytes count as handed), the patches
/// applied as [`StreamedHtml`] does, then `finish`; stops once `budget`
/// has passed.
pub fn stream_painting_every_push(
    text: &str,
    options: &Options,
    chunk: usize,
    budget: Duration,
) -> Timed {
    let start = Instant::now();
    let mut stream = Stream::new(options.clone());
    let mut html = StreamedHtml::default();
    let (mut tail, mut handed, mut pushed) = (String::new(), 0, 0);
    let changes = tail_as_changes();
    for piece in str_chunks(text, chunk) {
        let patch = stream.push_deferred(piece);
        handed += patch.append.len();
        if changes {
            handed += stream.tail_change().html().len();
        } else {
            stream.tail_into(&mut tail);
            handed += tail.len();
        }
        html.apply(&patch);
        pushed += piece.len();
        let after = start.elapsed();
        if after > budget {
            return Timed::Stopped { at: pushed, after };
        }
    }
    let last = stream.finish();
    html.apply(&last);
    handed += last.append.len();
    black_box(&tail);
    Timed::Done {
        time: start.elapsed(),
        handed,
        html: html.html().to_owned(),
    }
}
