//! A line of inline text rendered without the parser, when it stays within
//! a small subset of CommonMark: words, emphasis (`*`, `_`) and code spans.
//!
//! Much of what a stream renders is one such line: in the tail, a span
//! being typed (`x **4\u{E000}**`: the stand-in word, the span, the typing
//! mark) or a new item's first word; at a commit, a paragraph of one line,
//! or a list's next item (in a tight list, with an outline of such lines
//! under it: `container::write_outline`). Through the parser and the citation pipeline each
//! costs some 12 k instructions whatever its length (docs/streaming.md,
//! "Where this design stops"); here it costs what its bytes do. This is the
//! first part of the inline renderer that keeps its state: CommonMark's
//! delimiter algorithm (spec 6.2, "process emphasis") over code spans and
//! delimiter runs, for one line that starts no block and holds nothing a
//! citation syntax, link, autolink, entity, escape, raw HTML, math or
//! strikethrough could start from. Anything else is `None`, and the stream
//! renders it as always. Its output is checked against the parser's on
//! random lines (the tests below) and, in debug builds, where the stream
//! uses it, against the stream's own rendering of the same text, every
//! time (so every streaming test checks it too).

use pulldown_cmark_escape::escape_html_body_text;

#[cfg(debug_assertions)]
use crate::cite::index::IndexBuilder;

/// The longest text tried: the delimiter search is quadratic in the runs
/// of a line, and what is longer is rare in the tail and cheap to parse
/// by comparison.
const LONGEST: usize = 256;

/// The HTML of `text` rendered alone, as [`render`](crate::render) gives
/// it with any options, when `text` is one line (a line break may end it)
/// of inline text within the subset: a paragraph, or the same after `- `
/// (a list of one item) or `> ` (a quote); `None` otherwise.
pub(super) fn block(text: &str) -> Option<String> {
    let line = text.strip_suffix('\n').unwrap_or(text);
    let (start, content, end) = if let Some(content) = line.strip_prefix("- ") {
        ("<ul>\n<li>", content, "</li>\n</ul>\n")
    } else if let Some(content) = line.strip_prefix("> ") {
        ("<blockquote>\n<p>", content, "</p>\n</blockquote>\n")
    } else {
        ("<p>", line, "</p>\n")
    };
    let mut html = String::with_capacity(start.len() + content.len() + end.len() + 16);
    html.push_str(start);
    write_line(&mut html, content)?;
    html.push_str(end);
    Some(html)
}

/// Writes the inline HTML of `line` to `html` when it is one line within
/// the subset that starts no block (trailing spaces aside); `None`, and
/// nothing written, otherwise.
pub(super) fn write_line(html: &mut String, line: &str) -> Option<()> {
    let line = line.trim_end_matches(' ');
    if line.len() > LONGEST || !line.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return None;
    }
    let subset = if line.is_ascii() {
        line.bytes().all(|b| in_subset(char::from(b)))
    } else {
        line.chars().all(in_subset)
    };
    if !subset || starts_autolink(line) {
        return None;
    }
    let mut pieces = pieces(line)?;
    process_emphasis(&mut pieces);
    for piece in &pieces {
        write_piece(html, line, piece);
    }
    Some(())
}

/// Debug builds' check where the stream uses this module: its HTML and
/// citation state for `text` are the parser's.
#[cfg(debug_assertions)]
pub(super) fn assert_as_parsed(
    ours: (&str, &IndexBuilder),
    parsed: (&str, &IndexBuilder),
    text: &str,
) {
    assert_eq!(ours.0, parsed.0, "{text:?}");
    assert_eq!(
        format!("{:?}", ours.1),
        format!("{:?}", parsed.1),
        "{text:?}"
    );
}

/// Whether `line` holds a `www.`, where one of citemark's autolinks starts.
fn starts_autolink(line: &str) -> bool {
    memchr::memchr_iter(b'.', line.as_bytes())
        .any(|dot| dot >= 3 && line.as_bytes()[dot - 3..dot].eq_ignore_ascii_case(b"www"))
}

/// Characters that start nothing but emphasis and code spans here. No `[`,
/// `<`, `:`, `@`, `&`, `\`, `$`, `~`, `|`, `!`, `【` (each may start a
/// construct outside the subset), and no whitespace but the space.
/// Non-ASCII text is in, but for what flanking cannot tell (see
/// [`Class::Unknown`]).
fn in_subset(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_alphanumeric()
            || matches!(
                c,
                ' ' | '.' | ',' | ';' | '?' | '\'' | '"' | '(' | ')' | '%' | '-' | '*' | '_' | '`'
            )
    } else {
        !c.is_whitespace() && !matches!(c, '【' | '】')
    }
}

/// A piece of the line: text, a code span, or a delimiter run.
#[derive(Debug)]
enum Piece {
    Text { start: usize, end: usize },
    Code { start: usize, end: usize },
    Run(Run),
}

/// A run of `*` or `_` (spec 6.2), with what process emphasis made of it.
#[derive(Debug)]
struct Run {
    delimiter: u8,
    /// The run's length in the source (for the rule of 3).
    length: usize,
    /// Delimiters left as literal text.
    left: usize,
    can_open: bool,
    can_close: bool,
    /// Whether it is still on the delimiter stack.
    active: bool,
    /// The spans it closes, innermost first (at its left end).
    closes: Spans,
    /// The spans it opens, outermost first (at its right end).
    opens: Spans,
}

/// Emphasis spans in the order their tags are written: a bit each, set for
/// `strong`. (A run pairs at most once per delimiter, and runs are at most
/// [`LONGEST_RUN`] long.)
#[derive(Debug, Default, Clone, Copy)]
struct Spans {
    strong: u64,
    count: u32,
}

/// The longest delimiter run taken: [`Spans`] holds 64.
const LONGEST_RUN: usize = 64;

impl Spans {
    fn push_last(&mut self, strong: bool) {
        self.strong |= u64::from(strong) << self.count;
        self.count += 1;
    }

    fn push_first(&mut self, strong: bool) {
        self.strong = self.strong << 1 | u64::from(strong);
        self.count += 1;
    }

    fn write(self, html: &mut String, end: bool) {
        for i in 0..self.count {
            html.push_str(match (self.strong >> i & 1 == 1, end) {
                (true, false) => "<strong>",
                (true, true) => "</strong>",
                (false, false) => "<em>",
                (false, true) => "</em>",
            });
        }
    }
}

/// Splits `text` into pieces: code spans first, as the spec's precedence
/// has it, then delimiter runs in the text between them. `None` when a
/// run's flanking turns on a character this module cannot classify, or a
/// run is longer than [`LONGEST_RUN`].
fn pieces(text: &str) -> Option<Vec<Piece>> {
    let line = text.as_bytes();
    let mut pieces = Vec::with_capacity(8);
    let mut text_start = 0;
    let mut at = 0;
    while at < line.len() {
        let b = line[at];
        if !matches!(b, b'`' | b'*' | b'_') {
            at += 1;
            continue;
        }
        let run = run_length(line, at);
        if b == b'`' {
            match closing_backticks(line, at + run, run) {
                Some(close) => {
                    push_text(&mut pieces, text_start, at);
                    pieces.push(Piece::Code {
                        start: at + run,
                        end: close,
                    });
                    at = close + run;
                    text_start = at;
                }
                // (An unmatched backtick string is literal text.)
                None => at += run,
            }
        } else {
            if run > LONGEST_RUN {
                return None;
            }
            push_text(&mut pieces, text_start, at);
            let before = Class::of(text[..at].chars().next_back());
            let after = Class::of(text[at + run..].chars().next());
            let (can_open, can_close) = can_open_close(b, before, after)?;
            pieces.push(Piece::Run(Run {
                delimiter: b,
                length: run,
                left: run,
                can_open,
                can_close,
                active: can_open || can_close,
                closes: Spans::default(),
                opens: Spans::default(),
            }));
            at += run;
            text_start = at;
        }
    }
    push_text(&mut pieces, text_start, line.len());
    Some(pieces)
}

fn push_text(pieces: &mut Vec<Piece>, start: usize, end: usize) {
    if start < end {
        pieces.push(Piece::Text { start, end });
    }
}

/// How many bytes equal to `line[at]` start at `at`.
fn run_length(line: &[u8], at: usize) -> usize {
    line[at..].iter().take_while(|&&b| b == line[at]).count()
}

/// Where the first backtick string of exactly `length` after `from`
/// starts.
fn closing_backticks(line: &[u8], from: usize, length: usize) -> Option<usize> {
    let mut at = from;
    while at < line.len() {
        if line[at] == b'`' {
            let run = run_length(line, at);
            if run == length {
                return Some(at);
            }
            at += run;
        } else {
            at += 1;
        }
    }
    None
}

/// What a delimiter run's flanking sees of a character next to it.
#[derive(Clone, Copy, PartialEq)]
enum Class {
    /// A space, or the line's start or end.
    Space,
    Punctuation,
    Other,
    /// Non-ASCII text: Unicode punctuation and symbols are punctuation to
    /// CommonMark, letters are not; this module keeps no table of which is
    /// which, and takes a run next to one only when both readings agree.
    Unknown,
}

impl Class {
    fn of(c: Option<char>) -> Class {
        match c {
            None | Some(' ') => Class::Space,
            Some(c) if c.is_ascii_punctuation() => Class::Punctuation,
            // (The typing mark, a private-use character, is neither.)
            Some(c) if c.is_ascii() || c == '\u{E000}' => Class::Other,
            Some(_) => Class::Unknown,
        }
    }

    /// The class as each reading has it.
    fn readings(self) -> [Class; 2] {
        match self {
            Class::Unknown => [Class::Punctuation, Class::Other],
            known => [known, known],
        }
    }
}

/// Whether a run of `delimiter` between `before` and `after` can open and
/// close emphasis (spec 6.2), or `None` when that turns on an unknown
/// character's class.
fn can_open_close(delimiter: u8, before: Class, after: Class) -> Option<(bool, bool)> {
    let reading = |before: Class, after: Class| {
        let left = after != Class::Space && (after != Class::Punctuation || before != Class::Other);
        let right =
            before != Class::Space && (before != Class::Punctuation || after != Class::Other);
        if delimiter == b'*' {
            (left, right)
        } else {
            (
                left && (!right || before == Class::Punctuation),
                right && (!left || after == Class::Punctuation),
            )
        }
    };
    let [b0, b1] = before.readings();
    let [a0, a1] = after.readings();
    let first = reading(b0, a0);
    [(b0, a1), (b1, a0), (b1, a1)]
        .into_iter()
        .all(|(b, a)| reading(b, a) == first)
        .then_some(first)
}

/// The spec's process emphasis over the whole line, searching each
/// closer's opener down the stack (the bounds the spec keeps for speed
/// change no result, and lines here are short).
fn process_emphasis(pieces: &mut [Piece]) {
    for closer in 0..pieces.len() {
        while let Some(Piece::Run(run)) = pieces.get(closer) {
            if !(run.active && run.can_close && run.left > 0) {
                break;
            }
            let found = (0..closer)
                .rev()
                .find(|&i| matches!(&pieces[i], Piece::Run(opener) if opener.opens_for(run)));
            let Some(opener) = found else {
                // (A closer that cannot open leaves the stack.)
                let stays = run.can_open;
                if let Some(Piece::Run(run)) = pieces.get_mut(closer) {
                    run.active = stays;
                }
                break;
            };
            let [Piece::Run(opening), .., Piece::Run(closing)] = &mut pieces[opener..=closer]
            else {
                break;
            };
            let strong = opening.left >= 2 && closing.left >= 2;
            let used = if strong { 2 } else { 1 };
            opening.left -= used;
            opening.opens.push_first(strong);
            opening.active = opening.left > 0;
            closing.left -= used;
            closing.closes.push_last(strong);
            for piece in &mut pieces[opener + 1..closer] {
                if let Piece::Run(between) = piece {
                    between.active = false;
                }
            }
        }
    }
}

impl Run {
    /// Whether this run, before `closer` on the stack, can open what it
    /// closes: the same delimiter, and the rule of 3 (a run that can both
    /// open and close pairs only with a run whose lengths do not add up to
    /// a multiple of 3, unless both are).
    fn opens_for(&self, closer: &Run) -> bool {
        let multiple_of_3 = (self.length + closer.length) % 3 == 0
            && !(self.length % 3 == 0 && closer.length % 3 == 0);
        self.active
            && self.can_open
            && self.left > 0
            && self.delimiter == closer.delimiter
            && !((self.can_close || closer.can_open) && multiple_of_3)
    }
}

fn write_piece(html: &mut String, text: &str, piece: &Piece) {
    match piece {
        Piece::Text { start, end } => escape(html, &text[*start..*end]),
        Piece::Code { start, end } => {
            let code = &text[*start..*end];
            // (One space is stripped from each side when both have one and
            // the code is not all spaces.)
            let code = if code.len() >= 2
                && code.starts_with(' ')
                && code.ends_with(' ')
                && code.bytes().any(|b| b != b' ')
            {
                &code[1..code.len() - 1]
            } else {
                code
            };
            html.push_str("<code>");
            escape(html, code);
            html.push_str("</code>");
        }
        Piece::Run(run) => {
            run.closes.write(html, true);
            let literal = if run.delimiter == b'*' { '*' } else { '_' };
            html.extend(std::iter::repeat_n(literal, run.left));
            run.opens.write(html, false);
        }
    }
}

fn escape(html: &mut String, text: &str) {
    // Writing to a String cannot fail.
    let _ = escape_html_body_text(&mut *html, text);
}

#[cfg(test)]
mod tests {
    use super::block;
    use crate::{render, Options};
    use proptest::prelude::*;

    fn same_as_render(text: &str) {
        let Some(fast) = block(text) else {
            return;
        };
        let html = render(text, &Options::default()).html;
        assert_eq!(fast, html, "{text:?}");
    }

    #[test]
    fn renders_spans_as_the_parser_does() {
        for text in [
            "x **4\u{E000}**",
            "x `max\u{E000}`",
            "The ",
            "a *b **c** d*",
            "a ***b*** c",
            "a **b* c",
            "a *b**c*",
            "foo*bar*",
            "foo_bar_",
            "x __init__ y",
            "a ` b ` c",
            "a `` b ` c `` d",
            "a `b",
            "a *(b)* c",
            "a**\"b\"**",
            "a ****",
            "x **\u{E000}**",
            "a *b *c d* e*",
            "a *foo**bar**baz*",
            "a *foo**bar*",
            "x **€\u{E000}**",
            "x **€635k**.",
            "- The ",
            "- a *b*\n",
            "> The **c**\n",
        ] {
            assert!(block(text).is_some(), "{text:?} is in the subset");
            same_as_render(text);
        }
    }

    #[test]
    fn leaves_other_constructs_and_unknown_flanking_to_the_parser() {
        for text in [
            "1. a",
            "* a",
            "# a",
            "a [1]",
            "a <b>",
            "a &amp;",
            "a\\*",
            "see www.x.com",
            "a ~b~",
            "a $x$",
            "a: b",
            "a\u{A0}b",
            "a 【3†source】",
            "```",
            " a",
            "a\nb",
            "a*€b*",
            "é*a*é",
            "a “*b*” c",
            "a *€*中",
            "-  a",
            ">  a",
            "- - a",
            "a\n\n",
            &format!("a {}b", "*".repeat(65)),
        ] {
            assert_eq!(block(text), None, "{text:?}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]
        #[test]
        fn renders_lines_as_the_parser_does(
            start in "(- |> )?",
            text in "[ab][ab *_`.()'\"\u{E000}é€“”—中-]{0,24}",
            end in "\n?",
        ) {
            same_as_render(&[start, text, end].concat());
        }
    }
}
