//! TeX math in the four spellings models write: `$…$` and `\(…\)` inline,
//! `$$…$$` and `\[…\]` displayed (the escaped ones are what OpenAI's models
//! emit by default).
//!
//! CommonMark knows none of them: `\(` is an escaped `(`, and the TeX in
//! between may have become emphasis (`$a*b*c$`). So spans are found on a
//! leaf block's events, after parsing: a delimiter is in a text event (an
//! escaped `(` starts one, right after its backslash), opener and closer
//! at the same nesting level, and the TeX is taken from the source as
//! written. The events in between become one math event.
//!
//! `$` follows Pandoc's rule, so that prices stay text: an opening `$` is
//! followed by a non-space, a closing `$` preceded by one and not followed
//! by a digit (`**$1.84M** to **$2.11M**` holds no math). One rule more, as
//! chat answers quote far more prices than TeX starting with a digit: a `$`
//! before a digit opens math only when the span holds no space (`$2x$` is
//! math, `$1,000 at 5% … $x$` a price and then math). `\[1\]`, brackets
//! around what could be a marker, stays the literal brackets CommonMark
//! makes of it.

use std::ops::Range;

use pulldown_cmark::{CowStr, Event};

use crate::cite::text::slice;
use crate::parse::is_escaped;

/// An inline event with its range in the source.
type Spanned<'a> = (Event<'a>, Range<usize>);

/// Whether `source` may hold math (a cheap filter before its events are
/// looked at): a `$`, `\(` or `\[`.
pub(crate) fn may_hold_math(source: &str) -> bool {
    let bytes = source.as_bytes();
    memchr::memchr2_iter(b'$', b'\\', bytes)
        .any(|at| bytes[at] == b'$' || matches!(bytes.get(at + 1), Some(b'(' | b'[')))
}

/// The spellings of a math delimiter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Spelling {
    Dollar,
    DoubleDollar,
    /// `\(` or `\)`.
    Paren,
    /// `\[` or `\]`.
    Bracket,
}

/// A possible delimiter: where it is in the run and in the source.
#[derive(Debug, Clone, Copy)]
struct Delimiter {
    spelling: Spelling,
    /// The text event it is in, and where in that text.
    event: usize,
    at: usize,
    /// Its bytes in the text (the backslash of `\(` is not in the text).
    len: usize,
    /// Its range in the source (with the backslash).
    source: (usize, usize),
    /// The run's nesting depth there.
    depth: usize,
    opens: bool,
    closes: bool,
    /// A `$` before a digit: a price, unless closed within the same word.
    before_digit: bool,
}

/// Replaces each math span of an inline `run` (a leaf block's events,
/// ranges into `markdown`) by one math event.
pub(crate) fn fold_math<'a>(markdown: &'a str, run: &mut Vec<Spanned<'a>>) {
    let delimiters = delimiters(markdown, run);
    let spans = pair(markdown, &delimiters, run);
    if spans.is_empty() {
        return;
    }
    let mut folder = Folder {
        markdown,
        folded: Vec::with_capacity(run.len()),
        spans: spans.into_iter().peekable(),
        inside: None,
    };
    for (i, (event, range)) in std::mem::take(run).into_iter().enumerate() {
        folder.event(i, event, range);
    }
    *run = folder.folded;
}

/// [`fold_math`]'s state, event by event.
struct Folder<'a> {
    markdown: &'a str,
    folded: Vec<Spanned<'a>>,
    spans: std::iter::Peekable<std::vec::IntoIter<(Delimiter, Delimiter)>>,
    /// The span open across events, and the events inside it so far.
    inside: Option<(Delimiter, Delimiter, Vec<Spanned<'a>>)>,
}

impl<'a> Folder<'a> {
    fn event(&mut self, i: usize, event: Event<'a>, range: Range<usize>) {
        if let Some((open, close, between)) = &mut self.inside {
            if i != close.event {
                between.push((event, range));
                return;
            }
            let (open, close) = (*open, *close);
            let between = std::mem::take(between);
            self.inside = None;
            self.push_math(&open, &close, &between);
            if let Event::Text(text) = event {
                self.text(i, text, range, close.at + close.len);
            }
            return;
        }
        match event {
            Event::Text(text) if self.spans.peek().is_some_and(|(open, _)| open.event == i) => {
                self.text(i, text, range, 0);
            }
            event => self.folded.push((event, range)),
        }
    }

    /// The text event `i` from `from` on, with the spans that open in it.
    fn text(&mut self, i: usize, text: CowStr<'a>, range: Range<usize>, mut from: usize) {
        while let Some((open, close)) = self.spans.next_if(|(open, _)| open.event == i) {
            self.push_text(&text, &range, from..open.at);
            if close.event != i {
                self.inside = Some((open, close, Vec::new()));
                return;
            }
            self.push_math(&open, &close, &[]);
            from = close.at + close.len;
        }
        self.push_text(&text, &range, from..text.len());
    }

    fn push_text(&mut self, text: &CowStr<'a>, range: &Range<usize>, part: Range<usize>) {
        if !part.is_empty() {
            let at = range.start + part.start..range.start + part.end;
            self.folded.push((Event::Text(slice(text, part)), at));
        }
    }

    fn push_math(&mut self, open: &Delimiter, close: &Delimiter, between: &[Spanned<'a>]) {
        let tex = CowStr::from(tex(self.markdown, open.source.1..close.source.0, between));
        let math = match open.spelling {
            Spelling::Dollar | Spelling::Paren => Event::InlineMath(tex),
            Spelling::DoubleDollar | Spelling::Bracket => Event::DisplayMath(tex),
        };
        self.folded.push((math, open.source.0..close.source.1));
    }
}

/// Every possible delimiter in the run's text events, in order.
fn delimiters(markdown: &str, run: &[Spanned<'_>]) -> Vec<Delimiter> {
    let mut found = Vec::new();
    let mut depth = 0usize;
    for (i, (event, range)) in run.iter().enumerate() {
        match event {
            Event::Start(_) => depth += 1,
            Event::End(_) => depth = depth.saturating_sub(1),
            Event::Text(text) => {
                // (Most text holds no delimiter, told by its bytes before
                // it is compared with the source: a `$`, or an escaped
                // bracket or parenthesis starting it.)
                let bytes = text.as_bytes();
                if !matches!(bytes.first(), Some(b'(' | b')' | b'[' | b']'))
                    && memchr::memchr(b'$', bytes).is_none()
                {
                    continue;
                }
                // Positions map to the source only in verbatim text.
                if markdown.get(range.clone()) != Some(&**text) {
                    continue;
                }
                text_delimiters(markdown, text, range.start, i, depth, &mut found);
            }
            _ => {}
        }
    }
    found
}

/// The delimiters in one verbatim text event, `text` at `start` in the
/// source.
fn text_delimiters(
    markdown: &str,
    text: &str,
    start: usize,
    event: usize,
    depth: usize,
    found: &mut Vec<Delimiter>,
) {
    let bytes = text.as_bytes();
    let source = markdown.as_bytes();
    let before = |at: usize| {
        (start + at)
            .checked_sub(1)
            .and_then(|i| source.get(i))
            .copied()
    };
    let after = |at: usize| source.get(start + at).copied();
    let escaped = |at: usize| is_escaped(markdown, start + at);
    let space = |b: Option<u8>| b.is_none_or(|b| b.is_ascii_whitespace());
    // An escaped `(` or `[` starts its text event.
    if let Some(&first) = bytes.first() {
        if matches!(first, b'(' | b')' | b'[' | b']') && escaped(0) {
            let spelling = if matches!(first, b'(' | b')') {
                Spelling::Paren
            } else {
                Spelling::Bracket
            };
            let opens = matches!(first, b'(' | b'[');
            found.push(Delimiter {
                spelling,
                event,
                at: 0,
                len: 1,
                source: (start - 1, start + 1),
                depth,
                opens,
                closes: !opens,
                before_digit: false,
            });
        }
    }
    let mut at = 0;
    while let Some(offset) = memchr::memchr(b'$', &bytes[at..]) {
        let dollar = at + offset;
        let run = bytes[dollar..].iter().take_while(|&&b| b == b'$').count();
        at = dollar + run;
        if escaped(dollar) || run > 2 {
            continue;
        }
        let (spelling, opens, closes) = match run {
            2 => (Spelling::DoubleDollar, true, true),
            _ => (
                Spelling::Dollar,
                !space(after(dollar + 1)),
                !space(before(dollar)) && !after(dollar + 1).is_some_and(|b| b.is_ascii_digit()),
            ),
        };
        found.push(Delimiter {
            spelling,
            event,
            at: dollar,
            len: run,
            source: (start + dollar, start + dollar + run),
            depth,
            opens,
            closes,
            before_digit: after(dollar + run).is_some_and(|b| b.is_ascii_digit()),
        });
    }
}

/// Pairs openers with closers of their spelling at their nesting level,
/// with nothing in between leaving it; left to right, the first closer
/// wins, and delimiters inside a span are its TeX.
fn pair(
    markdown: &str,
    delimiters: &[Delimiter],
    run: &[Spanned<'_>],
) -> Vec<(Delimiter, Delimiter)> {
    let mut spans = Vec::new();
    let mut i = 0;
    while i < delimiters.len() {
        let open = delimiters[i];
        i += 1;
        if !open.opens {
            continue;
        }
        let closer = delimiters[i..]
            .iter()
            .position(|d| d.spelling == open.spelling && d.closes && d.depth == open.depth);
        let Some(offset) = closer else { continue };
        let close = delimiters[i + offset];
        let inner = markdown
            .get(open.source.1..close.source.0)
            .unwrap_or_default();
        let marker = open.spelling == Spelling::Bracket && is_marker_content(run, &open, &close);
        // `$1,000 … and $x$` is a price, then math: a `$` before a digit
        // opens math only when it closes within the word (`$2x$`).
        let price = open.spelling == Spelling::Dollar
            && open.before_digit
            && inner.contains(char::is_whitespace);
        if inner.is_empty() || marker || price || !level_between(run, &open, &close) {
            continue;
        }
        spans.push((open, close));
        i += offset + 1;
    }
    spans
}

/// Whether the events between `open` and `close` never leave their level.
fn level_between(run: &[Spanned<'_>], open: &Delimiter, close: &Delimiter) -> bool {
    let mut depth = 0usize;
    for (event, _) in run.get(open.event + 1..close.event).unwrap_or_default() {
        match event {
            Event::Start(_) => depth += 1,
            Event::End(_) if depth == 0 => return false,
            Event::End(_) => depth -= 1,
            _ => {}
        }
    }
    depth == 0
}

/// `\[1\]`, `\[2, 3\]`: brackets around what could be a marker's content,
/// which the writer meant as literal brackets.
fn is_marker_content(run: &[Spanned<'_>], open: &Delimiter, close: &Delimiter) -> bool {
    let marker_byte = |b: u8| b.is_ascii_digit() || matches!(b, b',' | b' ' | b'-');
    run.get(open.event..=close.event)
        .unwrap_or_default()
        .iter()
        .enumerate()
        .all(|(i, (event, _))| {
            let Event::Text(text) = event else {
                return false;
            };
            let from = if i == 0 { open.at + open.len } else { 0 };
            let to = if open.event + i == close.event {
                close.at
            } else {
                text.len()
            };
            text.get(from..to)
                .is_some_and(|t| t.bytes().all(marker_byte))
        })
}

/// The TeX between the delimiters, `inner` in the source, as written: on
/// each line after the first, the container's marks (`> `, an item's
/// indent) are left out, which is where the line's first event starts.
fn tex(markdown: &str, inner: Range<usize>, events: &[Spanned<'_>]) -> String {
    let mut tex = String::with_capacity(inner.len());
    let mut from = inner.start;
    let mut line_break = false;
    for (event, range) in events {
        if line_break && range.start > from {
            // (A line starting with an escape starts at its backslash.)
            let start = range.start - usize::from(is_escaped(markdown, range.start));
            from = start.max(from);
        }
        line_break = matches!(event, Event::SoftBreak | Event::HardBreak);
        if line_break {
            tex.push_str(markdown.get(from..range.end).unwrap_or_default());
            from = range.end;
        }
    }
    if line_break {
        // The closer starts its line: the marks before it are not TeX.
        from = inner.end;
    }
    tex.push_str(markdown.get(from..inner.end).unwrap_or_default());
    tex
}
