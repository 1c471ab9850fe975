//! Typing shown by the host: what text typed next does to the tail, said
//! once a tail change was handed over, so that a host may show that text
//! itself and push it later (docs/streaming.md, "Typing shown by the
//! host").
//!
//! The stream vouches for three kinds of line, each with a rule that reads
//! only the typed text, cheap enough for a host in JavaScript to apply
//! without calling into wasm:
//! - a code line past where it could close its block: any text without a
//!   line break, tab, CR or NUL shows as itself, escaped;
//! - a paragraph's line whose last word is plain and being typed: words
//!   (ASCII letters, digits, spaces and commas) show as themselves, but
//!   for spaces ending them (a paragraph drops them) and words begun in
//!   them that may start a URL (`h`, `htt`, `www`) ending them, which the
//!   preview holds back;
//! - a table's row, which shows once it is whole: text without a line
//!   break changes nothing.

use super::has_any_byte;
use super::tail::starts_url;

/// What text typed next does to the tail shown, as [`Stream::typing`]
/// says after a [`Stream::tail_change`].
///
/// [`Stream::typing`]: super::Stream::typing
/// [`Stream::tail_change`]: super::Stream::tail_change
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Typing {
    /// Not known: push what is typed and ask for the tail's change.
    #[default]
    Pushed,
    /// A code line past where it could close its block: text without a
    /// line break, tab, CR or NUL adds itself, HTML-escaped, at the end of
    /// the tail (the typing point 0 deep, before nothing).
    Verbatim,
    /// A paragraph's line, in the middle of a plain word: ASCII letters,
    /// digits, spaces and commas add what [`Typing::shown`] keeps of them
    /// at the typing point (see [`TailChange::Insert`]).
    ///
    /// [`TailChange::Insert`]: super::TailChange::Insert
    Words {
        /// How many elements deep into the tail the typing point is.
        depth: usize,
        /// How many bytes of the tail come after it (end tags).
        before: usize,
    },
    /// A table's row being typed, which the tail shows once its line
    /// ends: text without a line break or CR changes nothing.
    HeldRow,
}

/// Whether `b` is typed on a [`Typing::Words`] line: an ASCII letter,
/// digit, space or comma.
fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b' ' || b == b','
}

/// The bytes that a code line's tail does not show as typed, escaped: a
/// new line, a tab, a CR or NUL.
pub(super) const NOT_VERBATIM: &[u8] = b"\n\r\0\t";

impl Typing {
    /// Whether `text`, typed next, goes this way: it commits nothing, and
    /// [`Typing::shown`] of all that was typed since the change shows at
    /// the typing point.
    pub fn admits(self, text: &str) -> bool {
        match self {
            Typing::Pushed => false,
            Typing::Verbatim => !has_any_byte(text, NOT_VERBATIM),
            Typing::Words { .. } => text.bytes().all(is_word_byte),
            Typing::HeldRow => !has_any_byte(text, b"\n\r"),
        }
    }

    /// Of `typed`, all the text [`Typing::admits`] since the change, what
    /// the tail shows: all of it on a code line; on a paragraph's, all
    /// but the words begun in it that may start a URL (`h`, `htt`, `www`)
    /// ending it, and the spaces ending what is left; nothing of a table's
    /// row. What shows only grows as more is typed, and the text typed
    /// since what showed gives what shows after it: a host need only
    /// read that.
    pub fn shown(self, typed: &str) -> &str {
        match self {
            Typing::Words { .. } => {
                // (The preview holds back each such word ending the text,
                // from the last; the line's word before the typed text
                // starts none.)
                let mut text = typed.trim_end_matches(' ');
                while let Some(space) = text.rfind(' ').filter(|&at| starts_url(&text[at + 1..])) {
                    text = text[..space].trim_end_matches(' ');
                }
                text
            }
            Typing::HeldRow => "",
            _ => typed,
        }
    }

    /// Where typed text goes: how many elements deep into the tail, and
    /// before how many of its last bytes; `None` for [`Typing::Pushed`].
    pub fn point(self) -> Option<(usize, usize)> {
        match self {
            Typing::Pushed => None,
            Typing::Verbatim | Typing::HeldRow => Some((0, 0)),
            Typing::Words { depth, before } => Some((depth, before)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WORDS: Typing = Typing::Words {
        depth: 1,
        before: 5,
    };

    #[test]
    fn words_show_but_for_trailing_spaces_and_a_url_being_typed() {
        assert_eq!(WORDS.shown("ab cd"), "ab cd");
        assert_eq!(WORDS.shown("ab  "), "ab");
        assert_eq!(WORDS.shown("ab h"), "ab");
        assert_eq!(WORDS.shown("ab  htt "), "ab");
        assert_eq!(WORDS.shown("ab he"), "ab he");
        assert_eq!(WORDS.shown("ab ht http w"), "ab");
        assert_eq!(WORDS.shown("ab ht x"), "ab ht x");
        assert_eq!(WORDS.shown("ab ,www"), "ab");
        assert_eq!(WORDS.shown("ab Www"), "ab Www", "as the preview: lowercase");
        // (A word begun before the typed text is no URL's start: the
        // stream offers words only after one that shows.)
        assert_eq!(WORDS.shown("h"), "h");
        assert_eq!(WORDS.shown(" h"), "");
    }

    #[test]
    fn each_line_takes_its_own_bytes() {
        assert!(WORDS.admits("a 1,b"));
        assert!(!WORDS.admits("a."));
        assert!(!WORDS.admits("é"));
        assert!(Typing::Verbatim.admits("a < é."));
        assert!(!Typing::Verbatim.admits("a\tb"));
        assert!(!Typing::Pushed.admits(""));
        assert!(Typing::HeldRow.admits("a | `b"));
        assert!(!Typing::HeldRow.admits("a |\n"));
        assert_eq!(Typing::HeldRow.shown("a | b"), "");
        assert_eq!(Typing::Verbatim.point(), Some((0, 0)));
        assert_eq!(Typing::Pushed.point(), None);
    }
}
