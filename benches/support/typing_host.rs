//! A host that shows typing itself, as the npm package's glue does
//! (docs/streaming.md, "Typing shown by the host"): what [`Stream::typing`]
//! vouches for stays with the host, which shows what of it
//! [`Typing::shown`] keeps, as [`Typing::display`] makes it, and is pushed with [`Stream::push_shown`]
//! before anything else; everything else is pushed, and the tail's change
//! asked for. The shapes bench (`TAIL=typed`) and `examples/stream_cost`
//! (`typed`) stream with it.

use citemark::{Options, Patch, Stream, Typing};

/// The stream, and the typing the host holds.
pub struct TypingHost {
    stream: Stream,
    typing: Typing,
    typed: String,
    /// How much of `typed` the host shows.
    handed: usize,
    /// Whether what it shows of it ends a line (whose indentation an item's
    /// code block drops).
    line_start: bool,
    /// Pushes that went to the stream (a call into wasm, in JavaScript).
    pub crossings: usize,
}

impl TypingHost {
    pub fn new(options: &Options) -> Self {
        TypingHost {
            stream: Stream::new(options.clone()),
            typing: Typing::Pushed,
            typed: String::new(),
            handed: 0,
            line_start: false,
            crossings: 0,
        }
    }

    /// Pushes `piece`, each patch that makes to `apply`; returns the bytes
    /// of the tail's change handed to the host.
    pub fn push(&mut self, piece: &str, mut apply: impl FnMut(&Patch)) -> usize {
        let next = self.typing.after(piece);
        if next != Typing::Pushed {
            self.typing = next;
            self.typed.push_str(piece);
            // (What shows of the typing since what showed goes after it.)
            let shown = self.typing.shown(&self.typed[self.handed..]);
            let bytes = self.typing.display(shown, self.line_start).len();
            if !shown.is_empty() {
                self.line_start = shown.ends_with('\n');
            }
            self.handed += shown.len();
            return bytes;
        }
        self.crossings += 1;
        if self.handed == 0 && !self.typed.is_empty() {
            // (Typing the host showed none of goes with the text, in one
            // push, as the glue does.)
            self.typed.push_str(piece);
            apply(&self.stream.push_deferred(&self.typed));
            self.typed.clear();
        } else {
            self.flush(&mut apply);
            apply(&self.stream.push_deferred(piece));
        }
        let handed = self.stream.tail_change().html().len();
        self.typing = self.stream.typing();
        handed
    }

    /// What the stream vouched for at the last crossing: `Typing::Pushed`
    /// when the next push crosses whatever it holds.
    #[allow(dead_code)] // (Only `stream_cost crossings` asks.)
    pub fn typing(&self) -> Typing {
        self.typing
    }

    /// Ends the message; the last patch goes to `apply`.
    pub fn finish(&mut self, mut apply: impl FnMut(&Patch)) {
        self.flush(&mut apply);
        apply(&self.stream.finish());
    }

    /// Pushes what the host holds.
    fn flush(&mut self, apply: &mut impl FnMut(&Patch)) {
        if !self.typed.is_empty() {
            apply(&self.stream.push_shown(&self.typed, self.handed));
            self.typed.clear();
            self.handed = 0;
            self.line_start = false;
        }
    }
}
