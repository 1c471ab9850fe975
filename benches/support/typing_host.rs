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
    /// Text neither pushed nor typed ([`kept_back`]): it goes first with
    /// the next.
    kept: String,
    /// Pushes that went to the stream (a call into wasm, in JavaScript).
    pub crossings: usize,
}

/// How many bytes end `text`, typed on a paragraph's line, that the host
/// keeps back when typing does not take it whole, as the npm package's glue
/// does (`KEPT_BACK`; docs/streaming.md, "Keeping back the end of a
/// push"): spaces, then at most one run of `*`, `_` or `~`, or one `[`,
/// `![`, `(`, `!`, `<`, `&`, `\` or backtick, which the tail shows none of
/// at the end of such a line; none if more than [`KEPT_AT_MOST`].
fn kept_back(text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut start = bytes.len();
    match bytes.last() {
        Some(&run @ (b'*' | b'_' | b'~')) => {
            while start > 0 && bytes[start - 1] == run {
                start -= 1;
            }
        }
        Some(b'[') => start -= 1 + usize::from(text.ends_with("![")),
        Some(b'(' | b'!' | b'<' | b'&' | b'\\' | b'`') => start -= 1,
        _ => {}
    }
    while start > 0 && bytes[start - 1] == b' ' {
        start -= 1;
    }
    match bytes.len() - start {
        kept if kept > KEPT_AT_MOST => 0,
        kept => kept,
    }
}

/// At most this many bytes are kept back.
const KEPT_AT_MOST: usize = 16;

impl TypingHost {
    pub fn new(options: &Options) -> Self {
        TypingHost {
            stream: Stream::new(options.clone()),
            typing: Typing::Pushed,
            typed: String::new(),
            handed: 0,
            line_start: false,
            kept: String::new(),
            crossings: 0,
        }
    }

    /// Pushes `piece`, each patch that makes to `apply`; returns the bytes
    /// of the tail's change handed to the host.
    pub fn push(&mut self, piece: &str, apply: impl FnMut(&Patch)) -> usize {
        if self.kept.is_empty() {
            if let Some(bytes) = self.type_text(piece) {
                return bytes;
            }
        }
        let text = std::mem::take(&mut self.kept) + piece;
        if let Some(bytes) = self.type_text(&text) {
            return bytes;
        }
        // (Not typed whole: its end kept back when the rest is typed. After
        // other text, what it ends may show: a backtick opened a code span.)
        if matches!(self.typing, Typing::Words { .. }) {
            let rest = text.len() - kept_back(&text);
            if rest < text.len() {
                let typed = match rest {
                    0 => Some(0),
                    _ => self.type_text(&text[..rest]),
                };
                if let Some(bytes) = typed {
                    self.kept = text[rest..].to_owned();
                    return bytes;
                }
            }
        }
        self.cross(&text, apply)
    }

    /// Types `text` when the typing admits it; returns the bytes shown.
    #[inline]
    fn type_text(&mut self, text: &str) -> Option<usize> {
        let next = self.typing.after(text);
        if next == Typing::Pushed {
            return None;
        }
        self.typing = next;
        self.typed.push_str(text);
        // (What shows of the typing since what showed goes after it.)
        let shown = self.typing.shown(&self.typed[self.handed..]);
        let bytes = self.typing.display(shown, self.line_start).len();
        if !shown.is_empty() {
            self.line_start = shown.ends_with('\n');
        }
        self.handed += shown.len();
        Some(bytes)
    }

    /// Pushes `piece` to the stream, with the typing held; returns the
    /// bytes of the tail's change.
    fn cross(&mut self, piece: &str, mut apply: impl FnMut(&Patch)) -> usize {
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
        if !self.kept.is_empty() {
            let kept = std::mem::take(&mut self.kept);
            self.cross(&kept, &mut apply);
        }
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
