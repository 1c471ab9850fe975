//! Typing shown by the host: what text typed next does to the tail, said
//! once a tail change was handed over, so that a host may show that text
//! itself and push it later (docs/streaming.md, "Typing shown by the
//! host").
//!
//! The stream vouches for four kinds of line, each with a rule that reads
//! only the typed text, cheap enough for a host in JavaScript to apply
//! without calling into wasm:
//! - a code line past where it could close its block: any text without a
//!   line break, tab, CR or NUL shows as itself, escaped, and in a fenced
//!   block at the margin so do line breaks and tabs, but for a line that
//!   may still close the block (spaces, then the fence's character only),
//!   which shows once it cannot;
//! - a paragraph's or a heading's line whose last word is plain and being
//!   typed: words (letters and digits, spaces, `,` `;` `:` `?` `'` `"` `-`
//!   `%`, any character beyond ASCII but for a few (see
//!   [`is_word_char`]), and `.` after an ASCII letter or digit but `w`)
//!   show as themselves, but for spaces ending them (a paragraph drops
//!   them) and words begun in them that may start a URL (`h`, `htt`,
//!   `www`) ending them, which the preview holds back; in a code span
//!   being typed, so do the punctuation it shows as typed;
//! - a table's row, which shows once it is whole, and a link reference
//!   definition's line, which never shows: text without a line break
//!   changes nothing;
//! - a link's destination, a bare URL, a badge, a tag or a link's label
//!   opening a line, which the preview holds back whole while it is typed:
//!   text of its kind changes nothing;
//! - a code line of a code block in a list item, past its indentation:
//!   text without a tab, CR or NUL shows as itself, escaped, before the
//!   end tags of the block and the item; each line after a line break
//!   shows less the block's indentation, once it has it all and cannot
//!   close the block (a line indented less, or blank, is pushed: it may
//!   end the item).

use std::borrow::Cow;

use super::has_any_byte;
use super::preview::{url_being_typed, url_word_start};

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
    /// line break, tab, CR or NUL adds what [`Typing::shown`] keeps of it,
    /// HTML-escaped, at the end of the tail (the typing point 0 deep,
    /// before nothing). Line breaks and tabs go so too in a fenced block
    /// at the margin, and in an indented block the line break ending a
    /// settled line: the lines typing ends are committed when the text is
    /// pushed, as the tail showed them.
    Verbatim {
        /// The character of the fence that closes the block, when line
        /// breaks go as typing too; `None` in an indented block, where
        /// only the one ending a settled line does (see [`CodeLine::Blank`]).
        fence: Option<char>,
        /// Where the line being typed stands.
        line: CodeLine,
    },
    /// A paragraph's or an ATX heading's line, in the middle of a plain
    /// word: ASCII letters, digits, spaces, `,` `;` `:` `?` `'` `"` `-`
    /// `%`, characters beyond ASCII but whitespace, controls, U+FEFF, the
    /// private-use area and `【` `】` `†` (a file-search citation's), and
    /// `.` after an ASCII letter or digit but `w` (typed in the same
    /// text), add what
    /// [`Typing::shown`] keeps of them at the typing point (see
    /// [`TailChange::Insert`]).
    ///
    /// [`TailChange::Insert`]: super::TailChange::Insert
    Words {
        /// How many elements deep into the tail the typing point is.
        depth: usize,
        /// How many bytes of the tail come after it (end tags).
        before: usize,
    },
    /// A code span being typed on a paragraph's line, in the middle of a
    /// word: what [`Typing::Words`] takes, and the ASCII punctuation a code
    /// span shows as typed (`_` `*` `~` `[` `]` `{` `}` `#` `@` `/` `=`
    /// `+` `^` `)`), add what [`Typing::shown`] keeps of them at the typing
    /// point (inside the `<code>` element; see [`TailChange::Insert`]).
    ///
    /// [`TailChange::Insert`]: super::TailChange::Insert
    CodeSpan {
        /// How many elements deep into the tail the typing point is.
        depth: usize,
        /// How many bytes of the tail come after it (end tags).
        before: usize,
    },
    /// A line the tail shows only once it ends (a table's row) or never
    /// (a link reference definition's): text without a line break or CR
    /// changes nothing.
    HeldLine,
    /// A link's destination, a bare URL, a badge, a tag or a link's label
    /// opening a line being typed, which the tail holds back whole until it
    /// ends: text of that [`HeldKind`] changes nothing.
    Held(HeldKind),
    /// A code line in a code block inside the tail's element (a list
    /// item's), past its indentation and where it could close the block:
    /// text without a tab, CR or NUL adds what [`Typing::display`] makes
    /// of what [`Typing::shown`] keeps of it, HTML-escaped, at the typing
    /// point (see [`TailChange::Insert`]). Line breaks go so too where the
    /// block's closing fence is known ([`ItemCode`]): the next line shows
    /// less the block's indentation, once it has it all and cannot close
    /// the block.
    ///
    /// [`TailChange::Insert`]: super::TailChange::Insert
    CodeIn {
        /// How many elements deep into the tail the typing point is.
        depth: usize,
        /// How many bytes of the tail come after it (end tags).
        before: usize,
        /// The block, when line breaks go as typing; `None` when they are
        /// pushed.
        block: Option<ItemCode>,
        /// Where the line being typed stands.
        line: ItemLine,
    },
}

/// A code block in a list item, as [`Typing::CodeIn`] types across its
/// lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ItemCode {
    /// The spaces each line loses: the item's content column, and the
    /// fence's indentation past it. A line with fewer may end the item.
    pub indent: u16,
    /// Up to how many spaces a line of spaces only may be the closing
    /// fence's indentation (three past the item's content column).
    pub closing: u16,
    /// The fence's character.
    pub fence: char,
}

/// Where a code line being typed stands, for [`Typing::CodeIn`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemLine {
    /// Past its spaces, and no fence: it shows as typed, less the block's
    /// indentation.
    Settled,
    /// Spaces only so far, this many: held back while they may be a
    /// closing fence's indentation, shown past it. Anything but a space
    /// is pushed before the block's indentation (the line may end the
    /// item), and so is a line break (a blank line) and the fence's
    /// character past where a fence closes the block (the tail holds such
    /// a line back).
    Spaces(u16),
    /// Spaces, then the fence's character only: held back, and a line
    /// break or space after it is pushed (it may close the block).
    Fence,
}

impl ItemLine {
    /// The line after `text` is typed on it, in `block` (`None`: line
    /// breaks are pushed); `None` when `text` is pushed.
    #[inline]
    fn after(mut self, block: Option<ItemCode>, text: &str) -> Option<ItemLine> {
        for b in text.bytes() {
            // (What a settled line does not take as typed is below CR.)
            if self == ItemLine::Settled && b > b'\r' {
                continue;
            }
            self = match (self, b) {
                (_, b'\r' | b'\0' | b'\t') => return None,
                (ItemLine::Settled, b'\n') => block.map(|_| ItemLine::Spaces(0))?,
                (_, b'\n') => return None,
                (ItemLine::Settled, _) => ItemLine::Settled,
                (ItemLine::Spaces(spaces), b' ') => ItemLine::Spaces(spaces.saturating_add(1)),
                (ItemLine::Spaces(spaces), b) => {
                    let block = block?;
                    match spaces >= block.indent {
                        false => return None,
                        true if char::from(b) != block.fence => ItemLine::Settled,
                        true if spaces <= block.closing => ItemLine::Fence,
                        true => return None,
                    }
                }
                (ItemLine::Fence, b' ') => return None,
                (ItemLine::Fence, b) => {
                    match block.is_some_and(|block| char::from(b) == block.fence) {
                        true => ItemLine::Fence,
                        false => ItemLine::Settled,
                    }
                }
            };
        }
        Some(self)
    }

    /// Whether the line shows as typed (less the block's indentation).
    fn shows(self, block: Option<ItemCode>) -> bool {
        match self {
            ItemLine::Settled => true,
            ItemLine::Spaces(spaces) => block.is_some_and(|block| spaces > block.closing),
            ItemLine::Fence => false,
        }
    }
}

/// Where a code line being typed stands, for [`Typing::Verbatim`]: a line
/// that may still close its block is held back until it cannot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CodeLine {
    /// Past where it could close the block: it shows as typed.
    Settled,
    /// Spaces only so far, or nothing: held back. In an indented block
    /// (no fence), anything but a space is pushed: the indentation cut
    /// from it decides how the line shows (and a blank line's line break,
    /// which is the block's only if code follows).
    Blank,
    /// Spaces, then the fence's character only: held back, and a line
    /// break or space after it is pushed (it may close the block).
    Fence,
}

impl CodeLine {
    /// The line after `text` is typed on it, in a block closed by `fence`
    /// (`None`: an indented block); `None` when `text` is pushed.
    #[inline]
    fn after(mut self, fence: Option<char>, text: &str) -> Option<CodeLine> {
        for b in text.bytes() {
            // (What a settled line does not take as typed is below CR.)
            if self == CodeLine::Settled && b > b'\r' {
                continue;
            }
            self = match (self, b) {
                (_, b'\r' | b'\0') | (CodeLine::Fence, b'\n' | b' ' | b'\t') => return None,
                // (Without a fence, an indented block's: the indentation
                // to cut decides, but for the line break ending a settled
                // line, which ends its code whatever comes next.)
                (CodeLine::Settled, b'\n') if fence.is_none() => CodeLine::Blank,
                (_, b'\n' | b'\t') if fence.is_none() => return None,
                (CodeLine::Blank, b) if fence.is_none() && b != b' ' => return None,
                (_, b'\n') => CodeLine::Blank,
                // (A tab in the indentation is past where a fence closes.)
                (CodeLine::Settled, _) | (_, b'\t') => CodeLine::Settled,
                (CodeLine::Blank, b' ') => CodeLine::Blank,
                (_, b) if Some(char::from(b)) == fence => CodeLine::Fence,
                _ => CodeLine::Settled,
            };
        }
        Some(self)
    }
}

/// Whether `text` is typed on a [`Typing::Words`] line: ASCII letters,
/// digits and spaces, the punctuation prose puts between words that no
/// inline syntax reads there (`,` `;` `:` `?` `'` `"` `-` `%`; a `:` makes
/// no link without a `/` or `@` after it), [characters beyond
/// ASCII](is_word_char) (a word in any script, its punctuation), and a `.`
/// after an ASCII letter or digit but `w` (`www.` starts a link). (Nor can
/// any of them change how the spans the preview closes after them close:
/// one run of closers after punctuation closes, as after a letter, and the
/// stream says words go on only before one run.)
fn is_word_text(text: &str) -> bool {
    // (This runs at every push a host types: one pass over ASCII bytes,
    // characters decoded once one beyond ASCII comes.)
    let mut before = None;
    for (i, &b) in text.as_bytes().iter().enumerate() {
        if !b.is_ascii() {
            return words_beyond_ascii(&text[i..]);
        }
        if !is_ascii_word_byte(b, before) {
            return false;
        }
        before = Some(b);
    }
    true
}

/// [`is_word_text`] of `text` from its first character beyond ASCII on
/// (after which a `.` follows no ASCII letter or digit).
fn words_beyond_ascii(text: &str) -> bool {
    let mut before = None;
    text.chars().all(|c| {
        let word = match u8::try_from(c) {
            Ok(b) if b.is_ascii() => is_ascii_word_byte(b, before),
            _ => is_word_char(c),
        };
        before = u8::try_from(c).ok().filter(u8::is_ascii);
        word
    })
}

/// Whether `text` is typed in a code span ([`Typing::CodeSpan`]): what
/// [`is_word_text`] takes, and the ASCII punctuation that a code span
/// shows as typed, which the preview reads there as no syntax (not `<`
/// `&` `$` `\\` `!` `(` `|` or a backtick, which it may hold back or read
/// as the span's end); `*` and `_` only after a character of `text` that
/// is ASCII and no space: at a word's start the preview reads past them
/// for a URL being typed (`*h`), which would reach back into what showed.
pub(super) fn is_code_span_text(text: &str) -> bool {
    let mut before = None;
    text.chars().all(|c| {
        let typed = match u8::try_from(c) {
            Ok(b'*' | b'_') => before.is_some_and(|b| b != b' '),
            Ok(b) if b.is_ascii() => {
                is_ascii_word_byte(b, before) || CODE_SPAN_PUNCTUATION.contains(&b)
            }
            _ => is_word_char(c),
        };
        before = u8::try_from(c).ok().filter(u8::is_ascii);
        typed
    })
}

/// The ASCII punctuation [`Typing::CodeSpan`] takes beyond
/// [`Typing::Words`]'s, but for `*` and `_`.
const CODE_SPAN_PUNCTUATION: &[u8] = b"~[]{}#@/=+^)";

/// Whether the ASCII byte `b`, after the ASCII byte `before` (`None`: no
/// ASCII character), is typed on a [`Typing::Words`] line.
fn is_ascii_word_byte(b: u8, before: Option<u8>) -> bool {
    match b {
        b'.' => before.is_some_and(|b| b.is_ascii_alphanumeric() && !matches!(b, b'w' | b'W')),
        _ => {
            b.is_ascii_alphanumeric()
                || matches!(
                    b,
                    b' ' | b',' | b';' | b':' | b'?' | b'\'' | b'"' | b'-' | b'%'
                )
        }
    }
}

/// Whether typing shows `c`, a character beyond ASCII, as itself on a
/// [`Typing::Words`] line: any but whitespace (which ends a word the
/// preview may hold back as a URL's start, `at\u{3000}http`, where the
/// host's rule reads spaces only), controls, U+FEFF, the private-use area
/// (the tail's renderings mark the typing point with one) and what makes a
/// file-search citation (`【4†source】`). The same set in the npm
/// package's glue (`WORD_TEXT`): it is spelled out, not Unicode-versioned.
pub(super) fn is_word_char(c: char) -> bool {
    !c.is_ascii()
        && !c.is_whitespace()
        && !c.is_control()
        && !matches!(
            c,
            '\u{2020}' | '\u{3010}' | '\u{3011}' | '\u{FEFF}' | '\u{E000}'..='\u{F8FF}'
        )
}

/// `shown` with each line after a line break (and its first, when
/// `line_start`) less `indent` spaces: a line that shows in a list item's
/// code block has the block's indentation at least.
fn less_indent(shown: &str, indent: usize, line_start: bool) -> String {
    let mut out = String::with_capacity(shown.len());
    for (i, line) in shown.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let cut = match i > 0 || line_start {
            true => line.bytes().take(indent).take_while(|&b| b == b' ').count(),
            false => 0,
        };
        out.push_str(&line[cut..]);
    }
    out
}

/// The bytes that a settled code line's tail does not show as typed,
/// escaped: a new line (which may start a closing fence), a tab, a CR or
/// NUL.
pub(super) const NOT_VERBATIM: &[u8] = b"\n\r\0\t";

/// What [`Typing::Held`] holds back, by the text that goes on with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeldKind {
    /// A link's destination (`[a](https://…`), a bare URL or a badge (a
    /// link around an image, `[![alt](https://…`): ASCII letters, digits
    /// and `-` `.` `/` `:` `?` `#` `=` `%` `+` `,` `;` `@`.
    Url,
    /// A tag (`<cite id="…`): text without `>`, `|`, a line break, CR,
    /// `\`, `(`, `!` or `&`.
    Tag,
    /// A link's label opening a line (`- [Docs`), which may yet be a link
    /// reference definition's: text without `[`, `]`, `|`, a line break,
    /// CR, `\`, `(`, `!` or `&`.
    Label,
}

/// What goes on with a URL or a link's destination being typed, held back
/// ([`HeldKind::Url`]): URL characters that are no markdown syntax, but `'`
/// (which may open a link's title).
pub(super) fn is_held_url_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric()
        || matches!(
            b,
            b'-' | b'.' | b'/' | b':' | b'?' | b'#' | b'=' | b'%' | b'+' | b',' | b';' | b'@'
        )
}

impl HeldKind {
    /// Whether `text` goes on with what is held back, which then stays so.
    pub fn goes_on_with(self, text: &str) -> bool {
        match self {
            HeldKind::Url => text.bytes().all(is_held_url_byte),
            // (Nor `\`, `(`, `!` or `&`, which the preview holds back at
            // the text's end one at a time, before the tag or label it
            // hides whole: typed in a run, they would wear out its rounds
            // before it reaches it. `((((((((` bared a `<a href="…`; found
            // by the `stream` fuzz target.)
            HeldKind::Tag => !has_any_byte(text, b">|\n\r\\(!&"),
            HeldKind::Label => !has_any_byte(text, b"[]|\n\r\\(!&"),
        }
    }
}

impl Typing {
    /// The typing after `text` is typed next: [`Typing::Pushed`] when it
    /// goes to the stream, else this typing, a code line's moved on. Text
    /// typed so commits nothing but the code lines it ends, and
    /// [`Typing::shown`] of all that was typed since the change shows at
    /// the typing point.
    #[inline]
    pub fn after(self, text: &str) -> Typing {
        match self {
            Typing::Verbatim { fence, line } => match line.after(fence, text) {
                Some(line) => Typing::Verbatim { fence, line },
                None => Typing::Pushed,
            },
            Typing::Words { .. } if is_word_text(text) => self,
            Typing::CodeSpan { .. } if is_code_span_text(text) => self,
            Typing::HeldLine if !has_any_byte(text, b"\n\r") => self,
            Typing::Held(kind) if kind.goes_on_with(text) => self,
            Typing::CodeIn {
                depth,
                before,
                block,
                line,
            } => match line.after(block, text) {
                Some(line) => Typing::CodeIn {
                    depth,
                    before,
                    block,
                    line,
                },
                None => Typing::Pushed,
            },
            _ => Typing::Pushed,
        }
    }

    /// Whether `text`, typed next, goes this way (see [`Typing::after`]).
    pub fn admits(self, text: &str) -> bool {
        self.after(text) != Typing::Pushed
    }

    /// Of `typed`, all the text admitted since the change, what the tail
    /// shows, this being the typing after it: all of it on a code line
    /// but a last line held back; on a paragraph's, all but the words
    /// begun in it that may start a URL (`h`, `htt`, `www`) ending it, and
    /// the spaces ending what is left; nothing of a table's row. What
    /// shows only grows as more is typed, and the text typed since what
    /// showed gives what shows after it: a host need only read that.
    #[inline]
    pub fn shown(self, typed: &str) -> &str {
        match self {
            Typing::Verbatim {
                line: CodeLine::Blank | CodeLine::Fence,
                ..
            } => {
                // (The line held back starts after the last line break
                // typed: text typed since what showed starts with it.)
                &typed[..typed.rfind('\n').map_or(0, |at| at + 1)]
            }
            Typing::Words { .. } => {
                // (The preview holds back each such word ending the text,
                // from the last; the line's word before the typed text
                // starts none.)
                let mut text = typed.trim_end_matches(' ');
                // (The preview's own rule: `h`, `htt`, `www`, not after a
                // comma; words typed so hold no `(`, `<`, `*` or `_`.)
                while let Some(space) = text
                    .rfind(' ')
                    .filter(|&at| url_being_typed(&text[at + 1..]))
                {
                    text = text[..space].trim_end_matches(' ');
                }
                text
            }
            Typing::CodeSpan { .. } => {
                // (In a code span the preview holds back only a URL being
                // typed that ends it, after the `*` and `_` opening its
                // word (`https://…` too), then drops the spaces ending
                // what is left; the span's word before the typed text
                // starts none.)
                let url = typed
                    .rfind(' ')
                    .map(|space| space + 1 + url_word_start(&typed[space + 1..]));
                let shown = match url.filter(|&at| url_being_typed(&typed[at..])) {
                    Some(at) => &typed[..at],
                    None => typed,
                };
                shown.trim_end_matches(' ')
            }
            Typing::CodeIn { block, line, .. } if !line.shows(block) => {
                &typed[..typed.rfind('\n').map_or(0, |at| at + 1)]
            }
            Typing::HeldLine | Typing::Held(_) => "",
            _ => typed,
        }
    }

    /// What `shown`, text that [`Typing::shown`] keeps, shows as: itself,
    /// but in a list item's code block, where each line after a line break
    /// shows less the block's indentation; `line_start`: `shown` starts a
    /// line (what showed before it ended with a line break). What shows of
    /// a prefix of the text typed is a prefix of what shows of it.
    #[inline]
    pub fn display(self, shown: &str, line_start: bool) -> Cow<'_, str> {
        match self {
            Typing::CodeIn {
                block: Some(block), ..
            } if line_start || shown.contains('\n') => {
                Cow::Owned(less_indent(shown, usize::from(block.indent), line_start))
            }
            _ => Cow::Borrowed(shown),
        }
    }

    /// Where typed text goes: how many elements deep into the tail, and
    /// before how many of its last bytes; `None` for [`Typing::Pushed`].
    pub fn point(self) -> Option<(usize, usize)> {
        match self {
            Typing::Pushed => None,
            Typing::Verbatim { .. } | Typing::HeldLine | Typing::Held(_) => Some((0, 0)),
            Typing::Words { depth, before }
            | Typing::CodeSpan { depth, before }
            | Typing::CodeIn { depth, before, .. } => Some((depth, before)),
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
        assert_eq!(
            WORDS.shown("ab ,www"),
            "ab ,www",
            "as the preview: no URL after a comma"
        );
        assert_eq!(WORDS.shown("ab Www"), "ab Www", "as the preview: lowercase");
        assert_eq!(WORDS.shown("ab https:"), "ab", "a scheme being typed");
        assert_eq!(WORDS.shown("ab http:x"), "ab http:x");
        assert_eq!(
            WORDS.shown("ab \"www"),
            "ab \"www",
            "no URL after punctuation"
        );
        // (A word begun before the typed text is no URL's start: the
        // stream offers words only after one that shows.)
        assert_eq!(WORDS.shown("h"), "h");
        assert_eq!(WORDS.shown(" h"), "");
    }

    #[test]
    fn a_code_span_shows_its_punctuation_but_a_url_being_typed_at_its_end() {
        const CODE: Typing = Typing::CodeSpan {
            depth: 2,
            before: 12,
        };
        assert!(CODE.admits("age_size::get{x}[0]/a=b+c^d~e#f@g)"));
        for text in [
            "a<b", "a&b", "a(b", "a$b", "a\\b", "a!", "a|b", "a`", "a\tb", "w.", "_a", "a *b", "é_",
        ] {
            assert!(!CODE.admits(text), "{text:?}");
        }
        // (As the preview in a code span: a URL being typed as the last
        // word only, after the `*` and `_` opening it, and not once a space
        // ends it; a word begun before the typed text starts none.)
        for (typed, shown) in [
            ("a_b **c", "a_b **c"),
            ("x  ", "x"),
            ("x h", "x"),
            ("x https://a/b", "x"),
            ("x y**h", "x y**h"),
            ("x h ht", "x h"),
            ("x h ", "x h"),
            ("h", "h"),
        ] {
            assert_eq!(CODE.shown(typed), shown, "{typed:?}");
        }
    }

    #[test]
    fn each_line_takes_its_own_bytes() {
        assert!(WORDS.admits("a 1,b"));
        assert!(WORDS.admits("end. Is it? Yes; \"it's\" well-known"));
        assert!(WORDS.admits("3.5"));
        assert!(!WORDS.admits(".a"), "what a `.` follows is not known");
        assert!(!WORDS.admits("www."));
        assert!(!WORDS.admits("a.."));
        assert!(WORDS.admits("Note: it"));
        assert!(!WORDS.admits("a:/"));
        assert!(!WORDS.admits("a@b"));
        assert!(WORDS.admits("é, 中文。 «déjà» 4% — 🙂"));
        assert!(
            !WORDS.admits("é."),
            "a `.` after letters beyond ASCII is pushed"
        );
        for c in [
            "\u{a0}", "\u{3000}", "\u{2028}", "\u{85}", "\u{9f}", "\u{feff}", "\u{e000}",
        ] {
            assert!(!WORDS.admits(c), "{c:?}");
        }
        for c in ["【", "】", "†"] {
            assert!(!WORDS.admits(c), "{c}: a file-search citation's");
        }
        assert!(INDENTED.admits("a < é."));
        assert!(!INDENTED.admits("a\tb"));
        assert!(!INDENTED.admits("a\nb"));
        assert!(!Typing::Pushed.admits(""));
        assert!(Typing::HeldLine.admits("a | `b"));
        assert!(!Typing::HeldLine.admits("a |\n"));
        assert_eq!(Typing::HeldLine.shown("a | b"), "");
        let url = Typing::Held(HeldKind::Url);
        assert_eq!(url.after("example.com/a?b=1#c"), url);
        for ends in [" ", ")", "_", "'", "<", "\n", "é"] {
            assert_eq!(url.after(ends), Typing::Pushed, "{ends:?}");
        }
        let tag = Typing::Held(HeldKind::Tag);
        assert_eq!(tag.after("id=\"call_1\" x='y'"), tag);
        for ends in [">", "|", "\n", "\r"] {
            assert_eq!(tag.after(ends), Typing::Pushed, "{ends:?}");
        }
        assert_eq!(tag.shown("id=\"a"), "");
        assert_eq!(FENCED.point(), Some((0, 0)));
        assert_eq!(Typing::Pushed.point(), None);
    }

    const FENCED: Typing = Typing::Verbatim {
        fence: Some('`'),
        line: CodeLine::Settled,
    };
    const INDENTED: Typing = Typing::Verbatim {
        fence: None,
        line: CodeLine::Settled,
    };

    /// What shows of `typed` on a fenced block's settled line; `None` when
    /// it is pushed.
    fn fenced_shows(typed: &str) -> Option<&str> {
        let after = FENCED.after(typed);
        (after != Typing::Pushed).then(|| after.shown(typed))
    }

    #[test]
    fn code_lines_show_once_they_cannot_close_the_block() {
        assert_eq!(fenced_shows("x;\n  y"), Some("x;\n  y"));
        assert_eq!(fenced_shows("x;\n  "), Some("x;\n"), "held: spaces");
        assert_eq!(
            fenced_shows("x;\n\n  \n"),
            Some("x;\n\n  \n"),
            "blank lines"
        );
        assert_eq!(fenced_shows("x;\n ``"), Some("x;\n"), "held: may close");
        assert_eq!(fenced_shows("x;\n ``x"), Some("x;\n ``x"));
        assert_eq!(
            fenced_shows("x;\n~~~\n"),
            Some("x;\n~~~\n"),
            "not its fence"
        );
        assert_eq!(fenced_shows("x;\n```\n"), None, "may close");
        assert_eq!(fenced_shows("x;\n``` "), None, "may close");
        assert_eq!(fenced_shows("x;\n\t```"), Some("x;\n\t```"), "indented");
        assert_eq!(fenced_shows("x;\n```\t"), None, "may close");
        assert_eq!(fenced_shows("x;\r\n"), None);
        // (`CodeLine::after` reads a settled line's bytes above CR as typed.)
        assert!(NOT_VERBATIM.iter().all(|&b| b <= b'\r'));
        // (What shows only grows; the text since gives what shows after.)
        let held = FENCED.after("x;\n ``");
        assert_eq!(held.shown(" ``"), "");
        assert_eq!(held.after("`y").shown(" ```y"), " ```y");
    }

    /// A line of a code block in a `1. ` item, its fence at the content.
    const IN_ITEM: Typing = Typing::CodeIn {
        depth: 3,
        before: 26,
        block: Some(ItemCode {
            indent: 3,
            closing: 6,
            fence: '`',
        }),
        line: ItemLine::Settled,
    };

    /// What shows of `typed` on [`IN_ITEM`]; `None` when it is pushed.
    fn item_shows(typed: &str) -> Option<String> {
        let after = IN_ITEM.after(typed);
        (after != Typing::Pushed).then(|| after.display(after.shown(typed), false).into_owned())
    }

    #[test]
    fn an_items_code_lines_show_less_its_indentation() {
        assert_eq!(item_shows("x < y;\n   z").as_deref(), Some("x < y;\nz"));
        assert_eq!(item_shows("x;\n      y").as_deref(), Some("x;\n   y"));
        assert_eq!(
            item_shows("x;\n  ").as_deref(),
            Some("x;\n"),
            "held: indentation"
        );
        assert_eq!(
            item_shows("x;\n      ").as_deref(),
            Some("x;\n"),
            "held: a closing fence's indentation"
        );
        assert_eq!(
            item_shows("x;\n       ").as_deref(),
            Some("x;\n    "),
            "past where a fence closes the block"
        );
        assert_eq!(
            item_shows("x;\n   ``").as_deref(),
            Some("x;\n"),
            "held: may close"
        );
        assert_eq!(item_shows("x;\n   ``x").as_deref(), Some("x;\n``x"));
        assert_eq!(item_shows("x;\n   ~~~\n").as_deref(), Some("x;\n~~~\n"));
        for pushed in [
            "x;\n  y",
            "x;\n\n",
            "x;\n   \n",
            "x;\n   ```\n",
            "x;\n   ``` ",
            "x;\n       `",
            "x\ty",
            "x\r\n",
        ] {
            assert_eq!(IN_ITEM.after(pushed), Typing::Pushed, "{pushed:?}");
        }
        // (Where the closing fence's indentation is not known.)
        let unknown = Typing::CodeIn {
            depth: 3,
            before: 26,
            block: None,
            line: ItemLine::Settled,
        };
        assert!(unknown.admits("x < y"));
        assert!(!unknown.admits("x;\n   y"));
        // (The text since what showed gives what shows after it.)
        let typing = IN_ITEM.after("x;\n   y;\n   z");
        assert_eq!(typing.display("   y;\n   z", true), "y;\nz");
        assert_eq!(typing.display("x;\n", false), "x;\n");
    }

    #[test]
    fn an_indented_blocks_line_of_spaces_holds_spaces_only() {
        let blank = Typing::Verbatim {
            fence: None,
            line: CodeLine::Blank,
        };
        assert_eq!(blank.after("   "), blank);
        assert_eq!(blank.after("   ").shown("   "), "", "held: indentation");
        // (A settled line's line break shows: it ends the line's code.)
        assert_eq!(INDENTED.after("x;\n   "), blank);
        assert_eq!(blank.shown("x;\n   "), "x;\n");
        assert!(!INDENTED.admits("x;\n\n"), "a blank line");
        for pushed in ["    x", "x", "  \n", "\t", " \r"] {
            assert_eq!(blank.after(pushed), Typing::Pushed, "{pushed:?}");
        }
        // (A fenced block's line of spaces takes what may close it, or not.)
        let fenced_blank = Typing::Verbatim {
            fence: Some('`'),
            line: CodeLine::Blank,
        };
        assert_eq!(fenced_blank.after("  x").shown("  x"), "  x");
    }
}
