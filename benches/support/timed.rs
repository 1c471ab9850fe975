//! One stream as a host that paints after every push makes it, timed: the
//! shape and corpus benches share it. (The including bench declares the
//! `chunks` module beside this one.)

use std::hint::black_box;
use std::time::{Duration, Instant};

use citemark::{Options, Stream, StreamedHtml};

use crate::chunks::str_chunks;
use crate::typing_host::TypingHost;

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

/// What the host is handed after every push: the whole tail, or (with
/// the environment's `TAIL=changes`) the tail's change
/// (`Stream::tail_change`), or (`TAIL=typed`) the change with the typing
/// the stream vouches for shown by the host itself ([`TypingHost`]).
#[derive(PartialEq)]
enum Handed {
    Tails,
    Changes,
    Typed,
}

fn handed_tail() -> Handed {
    match std::env::var("TAIL").as_deref() {
        Ok("changes") => Handed::Changes,
        Ok("typed") => Handed::Typed,
        _ => Handed::Tails,
    }
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
    if handed_tail() == Handed::Typed {
        return stream_typed(text, options, chunk, budget);
    }
    let start = Instant::now();
    let mut stream = Stream::new(options.clone());
    let mut html = StreamedHtml::default();
    let (mut tail, mut handed, mut pushed, mut pushes) = (String::new(), 0, 0, 0);
    let changes = handed_tail() == Handed::Changes;
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
        if let Some(after) = over_budget(start, budget, &mut pushes) {
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

/// [`stream_painting_every_push`] by a [`TypingHost`].
fn stream_typed(text: &str, options: &Options, chunk: usize, budget: Duration) -> Timed {
    let start = Instant::now();
    let mut host = TypingHost::new(options);
    let mut html = StreamedHtml::default();
    let (mut handed, mut pushed, mut pushes) = (0, 0, 0);
    for piece in str_chunks(text, chunk) {
        handed += host.push(piece, |patch| {
            handed += patch.append.len();
            html.apply(patch);
        });
        pushed += piece.len();
        if let Some(after) = over_budget(start, budget, &mut pushes) {
            return Timed::Stopped { at: pushed, after };
        }
    }
    host.finish(|patch| {
        handed += patch.append.len();
        html.apply(patch);
    });
    Timed::Done {
        time: start.elapsed(),
        handed,
        html: html.html().to_owned(),
    }
}

/// The time since `start` when it is past `budget`, looked at every 256th
/// push: reading the clock costs about what a typed push does.
fn over_budget(start: Instant, budget: Duration, pushes: &mut usize) -> Option<Duration> {
    *pushes += 1;
    if *pushes % 256 != 0 {
        return None;
    }
    Some(start.elapsed()).filter(|&after| after > budget)
}
