//! A line of inline text read without the parser, when it stays within a
//! small subset of CommonMark: words, emphasis (`*`, `_`) and code spans,
//! rendered here; with the brackets the citation pipeline reads, read into
//! the parser's events for it (`events`).
//!
//! Much of what a stream renders is one such line: in the tail, a span
//! being typed (`x **4\u{E000}**`: the stand-in word, the span, the typing
//! mark) or a new item's first word; at a commit, a paragraph of one line,
//! or a list's next item (in a tight list, with an outline of such lines
//! under it: `container::write_outline`). Through the parser and the
//! citation pipeline each costs some 12 k instructions whatever its length
//! (docs/streaming.md, "Where this design stops"); here it costs what its
//! bytes do. This is the first part of the inline renderer that keeps its
//! state: CommonMark's delimiter algorithm (spec 6.2, "process emphasis")
//! over code spans and delimiter runs, for one line that starts no block
//! and holds nothing a citation syntax, link, autolink, entity, escape, raw
//! HTML, math or strikethrough could start from.
//!
//! Citations are the citation pipeline's to find, so a line that also
//! holds markers (`[1]`, `[1, 3]`), footnote references (`[^x]`) or full
//! references awaiting their definitions (`[the guide][g]`), or a
//! message's closing footnote definitions, one a line, is read into the
//! events the parser would give ([`block_events`]), which the stream hands
//! to the pipeline as it does the parser's: the parse is what is saved.
//! Anything else is `None`, and the stream renders it as always. The
//! output is checked against the parser's on random lines (the tests here
//! and in `events`) and, in debug builds, where the stream uses it, against
//! the stream's own rendering of the same text, every time (so every
//! streaming test checks it too).

use pulldown_cmark_escape::escape_html_body_text;

use super::preview::{item_marker, ItemMark};

mod events;

pub(super) use events::{block_events, push_line_events, push_lines_events};

#[cfg(debug_assertions)]
use crate::cite::index::IndexBuilder;

/// The longest text tried: a paragraph of a few sentences, which models
/// often write on one line. (What is longer is rare, and cheap to parse
/// by comparison.)
const LONGEST: usize = 1024;
/// The most delimiter runs a line may have: the delimiter search is
/// quadratic in them.
const MOST_RUNS: usize = 64;

/// The HTML of `text` rendered alone, as [`render`](crate::render()) gives
/// it with any options, when `text` is one line (a line break may end it)
/// of inline text within the subset: a paragraph, or the same after a list
/// item's marker and a space (a list of one item) or `> ` (a quote), or
/// such an item after a loose list's stand-in item ([`loose_item`]);
/// `None` otherwise.
pub(super) fn block(text: &str) -> Option<String> {
    // (A line, or a stand-in item and a blank line before one.)
    if let Some(at) = memchr::memchr(b'\n', text.as_bytes()) {
        if text.as_bytes().get(at + 1) == Some(&b'\n') {
            return loose_item(&text[..at], &text[at + 2..]);
        }
    }
    let line = text.strip_suffix('\n').unwrap_or(text);
    let (kind, content_at) = LineBlock::of(line);
    let mut html = String::with_capacity(line.len() + 32);
    match kind {
        LineBlock::Paragraph => html.push_str("<p>"),
        LineBlock::Item(start) => {
            write_list_start(&mut html, start);
            html.push_str("<li>");
        }
        LineBlock::Quote => html.push_str("<blockquote>\n<p>"),
    }
    write_line(&mut html, &line[content_at..])?;
    match kind {
        LineBlock::Paragraph => html.push_str("</p>\n"),
        LineBlock::Item(start) => {
            html.push_str("</li>\n");
            html.push_str(list_end(start));
        }
        LineBlock::Quote => html.push_str("</p>\n</blockquote>\n"),
    }
    Some(html)
}

/// A list's stand-in item (`- x`, then a blank line when the list is
/// loose) as the parser's HTML has it, and the tags the next item's line
/// goes between: `(stand-in, start, end)`.
pub(super) fn stand_in_item(loose: bool) -> (&'static str, &'static str, &'static str) {
    match loose {
        true => (LOOSE_STAND_IN, "<li>\n<p>", "</p>\n</li>\n"),
        false => ("<li>x</li>\n", "<li>", "</li>\n"),
    }
}

/// The HTML of a loose list's stand-in item ([`stand_in_item`]).
pub(super) const LOOSE_STAND_IN: &str = "<li>\n<p>x</p>\n</li>\n";

/// [`block`] of a list's item, `item` (one line, blank lines may follow
/// it), after the stand-in item `head` (`- x`, `3. x`, with its mark) and a
/// blank line: the item as a loose list's (the tail's of an open loose
/// list, `Container::tail_opener`). Or that line, a blank line and the
/// opening fence of a code block in the item with nothing in it yet
/// ([`empty_code_block`]): a numbered step as its code block starts.
fn loose_item(head: &str, item: &str) -> Option<String> {
    // (Blank lines after the item, at the text's end, change nothing of
    // a list already loose.)
    let (line, after) = item.split_once("\n\n").unwrap_or((item, ""));
    let line = line.trim_end_matches('\n');
    let (LineBlock::Item(start), x) = LineBlock::of(head) else {
        return None;
    };
    let (LineBlock::Item(_), content_at) = LineBlock::of(line) else {
        return None;
    };
    let same_mark = item_marker(head)?.0 == item_marker(line)?.0;
    let content = &line[content_at..];
    if !(same_mark && &head[x..] == "x" && !content.is_empty()) {
        return None;
    }
    // (A blank line after the fence would be the code block's.)
    let code = match after.bytes().all(|b| b == b'\n') {
        true => None,
        false => Some(empty_code_block(
            after.strip_suffix('\n').unwrap_or(after),
            content_at,
        )?),
    };
    let (stand_in, item_start, item_end) = stand_in_item(true);
    let mut html = String::with_capacity(line.len() + 96);
    write_list_start(&mut html, start);
    html.push_str(stand_in);
    html.push_str(item_start);
    write_line(&mut html, content)?;
    match code {
        None => html.push_str(item_end),
        Some(lang) => {
            html.push_str("</p>\n");
            crate::html::write_code_block_start(&mut html, lang);
            html.push_str("</code></pre>\n</li>\n");
        }
    }
    html.push_str(list_end(start));
    Some(html)
}

/// The language of a fenced code block's opening line, `fence`, in a list
/// item whose content is indented by `indent`, when it is that indentation,
/// three or more backticks and a word of ASCII letters and digits or
/// nothing (no second word, no character a later line could read
/// otherwise): the block it opens has nothing in it yet.
fn empty_code_block(fence: &str, indent: usize) -> Option<&str> {
    let marks = fence.get(..indent)?;
    let rest = fence[indent..].trim_start_matches('`');
    let ticks = fence.len() - indent - rest.len();
    (marks.bytes().all(|b| b == b' ')
        && ticks >= 3
        && rest.bytes().all(|b| b.is_ascii_alphanumeric()))
    .then_some(rest)
}

/// Writes the start tag of a list, numbered from `start` or bulleted, and
/// its line break, as the parser's HTML has them.
pub(super) fn write_list_start(html: &mut String, start: Option<u64>) {
    match start {
        None => html.push_str("<ul>\n"),
        Some(1) => html.push_str("<ol>\n"),
        Some(start) => html.push_str(&format!("<ol start=\"{start}\">\n")),
    }
}

/// The end tag of a list (numbered when it has a `start`).
pub(super) fn list_end(start: Option<u64>) -> &'static str {
    match start {
        None => "</ul>\n",
        Some(_) => "</ol>\n",
    }
}

/// The block a line of [`block`] is.
#[derive(Debug, Clone, Copy)]
enum LineBlock {
    Paragraph,
    /// A list's one item: bulleted, or numbered from its number.
    Item(Option<u64>),
    Quote,
}

impl LineBlock {
    /// What `line` is, and where its content starts. (A marker must be
    /// followed by one space; the content's first letter, which the
    /// subset asks for, keeps the rest from being a block of its own.)
    fn of(line: &str) -> (LineBlock, usize) {
        if line.starts_with("> ") {
            return (LineBlock::Quote, 2);
        }
        match item_marker(line) {
            Some((ItemMark::Bullet(_), rest)) if rest.starts_with(' ') => {
                (LineBlock::Item(None), 2)
            }
            Some((ItemMark::Ordered(_), rest)) if rest.starts_with(' ') => {
                let digits = line.len() - rest.len() - 1;
                match line[..digits].parse() {
                    Ok(start) => (LineBlock::Item(Some(start)), digits + 2),
                    Err(_) => (LineBlock::Paragraph, 0),
                }
            }
            _ => (LineBlock::Paragraph, 0),
        }
    }
}

/// Writes the inline HTML of `line` to `html` when it is one line within
/// the subset that starts no block (trailing spaces aside); `None`, and
/// nothing written, otherwise.
pub(super) fn write_line(html: &mut String, line: &str) -> Option<()> {
    let (line, pieces) = parse_line(line, Brackets::NONE)?;
    for piece in &pieces {
        write_piece(html, line, piece);
    }
    Some(())
}

/// Writes the inline HTML of a paragraph's `lines` (their content, each
/// without its line break) to `html`, joined by the soft breaks between
/// them, when [`paragraph_lines`] reads them; `None`, and nothing written,
/// otherwise.
pub(super) fn write_lines<'t>(
    html: &mut String,
    lines: impl Iterator<Item = &'t str>,
) -> Option<()> {
    let parsed = paragraph_lines(lines, Brackets::NONE)?;
    for (i, (line, pieces)) in parsed.iter().enumerate() {
        if i > 0 {
            html.push('\n');
        }
        for piece in pieces {
            write_piece(html, line, piece);
        }
    }
    Some(())
}

/// A paragraph's `lines` (their content, each without its line break),
/// each read as [`parse_line`] reads one, when reading them line by line
/// is reading the paragraph: CommonMark pairs code spans and emphasis
/// across a paragraph's lines, so no line but the last may leave what a
/// later line could pair with ([`leaves_nothing_open`]), nor end in a
/// space (before a line break, spaces make a hard break or are dropped).
/// (A line's start and end read as whitespace either way, so flanking is
/// the same.)
fn paragraph_lines<'t>(
    lines: impl Iterator<Item = &'t str>,
    brackets: Brackets,
) -> Option<Vec<(&'t str, Vec<Piece>)>> {
    let mut parsed: Vec<(&str, Vec<Piece>)> = Vec::with_capacity(4);
    let mut last_ends_in_space = false;
    for line in lines {
        if let Some((before, pieces)) = parsed.last() {
            if last_ends_in_space || !leaves_nothing_open(before, pieces) {
                return None;
            }
        }
        last_ends_in_space = line.ends_with(' ');
        parsed.push(parse_line(line, brackets)?);
    }
    (!parsed.is_empty()).then_some(parsed)
}

/// Whether a line's `pieces`, emphasis processed, leave nothing a later
/// line of the paragraph could pair with: every backtick string is paired
/// (one left literal may open a code span on a later line) and every
/// delimiter run that keeps delimiters as text can only close (a closer
/// that finds no opener drops off the delimiter stack; an opener stays on
/// it, for a closer on a later line).
fn leaves_nothing_open(line: &str, pieces: &[Piece]) -> bool {
    pieces.iter().all(|piece| match piece {
        Piece::Run(run) => run.left == 0 || !run.can_open,
        Piece::Text { start, end } => {
            memchr::memchr(b'`', &line.as_bytes()[*start..*end]).is_none()
        }
        _ => true,
    })
}

/// The brackets a line may hold besides the subset's, for
/// [`block_events`]: each is read as the parser reads it, so that the
/// citation pipeline, fed the same events, finds the same citations.
#[derive(Debug, Clone, Copy)]
pub(super) struct Brackets {
    /// Citation markers, `[1]` and `[1, 3]` (shortcut references that no
    /// definition after them can change: citemark's markers are on).
    pub(super) markers: bool,
    /// Footnote references with a plain label, `[^x]` (read
    /// provisionally: as references to a definition still to come).
    pub(super) footnotes: bool,
    /// Full references of words, `[the guide][g]`, read provisionally:
    /// as links to a definition still to come
    /// ([`AWAITED_DESTINATION`](crate::parse::AWAITED_DESTINATION)).
    pub(super) references: bool,
}

impl Brackets {
    const NONE: Brackets = Brackets {
        markers: false,
        footnotes: false,
        references: false,
    };

    fn any(self) -> bool {
        self.markers || self.footnotes || self.references
    }
}

/// `line` without its trailing spaces, in pieces, with emphasis
/// processed, when it is one line within the subset (and `brackets`)
/// that starts no block.
fn parse_line(line: &str, brackets: Brackets) -> Option<(&str, Vec<Piece>)> {
    let line = line.trim_end_matches(' ');
    if line.len() > LONGEST || !line.starts_with(char::is_alphabetic) {
        return None;
    }
    // (Brackets first: most are not those read here, and their shape says
    // so soon.)
    if brackets.any() {
        let mut at = 0;
        while let Some(open) = memchr::memchr(b'[', &line.as_bytes()[at..]) {
            at = bracketed(line, at + open, brackets)?.0;
        }
    }
    let allowed = |c: char| in_subset(c) || (brackets.any() && matches!(c, '[' | ']' | '^'));
    let subset = if line.is_ascii() {
        // (By table: this is most of what reading a line costs.)
        let table = match brackets.any() {
            true => &ASCII_WITH_BRACKETS,
            false => &ASCII_IN_SUBSET,
        };
        line.bytes().all(|b| table[usize::from(b & 0x7f)])
    } else {
        line.chars().all(allowed)
    };
    if !subset || starts_autolink(line) {
        return None;
    }
    let mut pieces = pieces(line, brackets)?;
    process_emphasis(&mut pieces);
    Some((line, pieces))
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
        ours.1.debug_at(parsed.1),
        format!("{:?}", parsed.1),
        "{text:?}"
    );
}

/// Whether `line` holds a `www.`, where one of citemark's autolinks starts.
fn starts_autolink(line: &str) -> bool {
    memchr::memchr_iter(b'.', line.as_bytes())
        .any(|dot| dot >= 3 && line.as_bytes()[dot - 3..dot].eq_ignore_ascii_case(b"www"))
}

/// [`in_subset`] of each ASCII character.
const ASCII_IN_SUBSET: [bool; 128] = ascii_table(false);
/// The same, and the brackets [`Brackets`] reads.
const ASCII_WITH_BRACKETS: [bool; 128] = ascii_table(true);

const fn ascii_table(brackets: bool) -> [bool; 128] {
    let mut table = [false; 128];
    let mut b = 0;
    while b < 128 {
        table[b as usize] = ascii_in_subset(b) || brackets && matches!(b, b'[' | b']' | b'^');
        b += 1;
    }
    table
}

/// Characters that start nothing but emphasis and code spans here. No `[`,
/// `<`, `:`, `@`, `&`, `\`, `$`, `~`, `|`, `!`, `【` (each may start a
/// construct outside the subset), and no whitespace but the space.
/// Non-ASCII text is in, but for what flanking cannot tell (see
/// [`Class::Unknown`]).
fn in_subset(c: char) -> bool {
    match u8::try_from(c) {
        Ok(b) if b.is_ascii() => ascii_in_subset(b),
        _ => !c.is_whitespace() && !matches!(c, '【' | '】'),
    }
}

/// [`in_subset`] of an ASCII character.
const fn ascii_in_subset(b: u8) -> bool {
    b.is_ascii_alphanumeric()
        || matches!(
            b,
            b' ' | b'.'
                | b','
                | b';'
                | b'?'
                | b'\''
                | b'"'
                | b'('
                | b')'
                | b'%'
                | b'-'
                | b'*'
                | b'_'
                | b'`'
        )
}

/// A piece of the line: text, a code span, a delimiter run, or (with
/// [`Brackets`]) a bracket or footnote reference.
#[derive(Debug)]
enum Piece {
    Text {
        start: usize,
        end: usize,
    },
    /// The code between backtick strings `ticks` long.
    Code {
        start: usize,
        end: usize,
        ticks: usize,
    },
    Run(Run),
    /// A marker's `[` or `]`: text, but an event of its own, as the
    /// parser makes it.
    Bracket {
        at: usize,
    },
    /// `[^label]`.
    Footnote {
        start: usize,
        end: usize,
    },
    /// `[text][label]`, its text and label within.
    Reference {
        start: usize,
        end: usize,
        text: (usize, usize),
    },
}

/// A run of `*` or `_` (spec 6.2), with what process emphasis made of it.
#[derive(Debug)]
struct Run {
    /// Where it starts in the line.
    start: usize,
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
fn pieces(text: &str, brackets: Brackets) -> Option<Vec<Piece>> {
    let line = text.as_bytes();
    let mut pieces = Vec::with_capacity(8);
    let mut text_start = 0;
    let mut at = 0;
    let mut runs = 0;
    while at < line.len() {
        let b = line[at];
        if !matches!(b, b'`' | b'*' | b'_' | b'[' | b']') {
            at += 1;
            continue;
        }
        if b == b'[' {
            let (end, what) = bracketed(text, at, brackets).filter(|(_, what)| what.read())?;
            push_text(&mut pieces, text_start, at);
            match what {
                Bracketed::Footnote => pieces.push(Piece::Footnote { start: at, end }),
                Bracketed::Marker(_) => {
                    pieces.push(Piece::Bracket { at });
                    push_text(&mut pieces, at + 1, end - 1);
                    pieces.push(Piece::Bracket { at: end - 1 });
                }
                Bracketed::Reference(words) => pieces.push(Piece::Reference {
                    start: at,
                    end,
                    text: (at + 1, at + 1 + words.len()),
                }),
            }
            at = end;
            text_start = at;
            continue;
        }
        if b == b']' {
            // (One that closes no marker.)
            return None;
        }
        let run = run_length(line, at);
        if b == b'`' {
            match closing_backticks(line, at + run, run) {
                Some(close) => {
                    push_text(&mut pieces, text_start, at);
                    pieces.push(Piece::Code {
                        start: at + run,
                        end: close,
                        ticks: run,
                    });
                    at = close + run;
                    text_start = at;
                }
                // (An unmatched backtick string is literal text.)
                None => at += run,
            }
        } else {
            runs += 1;
            if run > LONGEST_RUN || runs > MOST_RUNS {
                return None;
            }
            push_text(&mut pieces, text_start, at);
            let before = Class::of(text[..at].chars().next_back());
            let after = Class::of(text[at + run..].chars().next());
            let (can_open, can_close) = can_open_close(b, before, after)?;
            pieces.push(Piece::Run(Run {
                start: at,
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

/// Where the bracketed text at `at` ends, and what it is, when it has the
/// shape of one that `brackets` allows and nothing after it makes it a
/// link (a destination, another label) or a definition: a footnote
/// reference, or a marker's numbers (which the citation pipeline has the
/// last word on: [`Bracketed::read`]); `None` otherwise.
fn bracketed(line: &str, at: usize, brackets: Brackets) -> Option<(usize, Bracketed<'_>)> {
    let rest = &line[at + 1..];
    let inner = &rest[..rest.find(']')?];
    let mut end = at + inner.len() + 2;
    // (Words, not a marker's numbers, then a plain label.)
    let words = inner.bytes().any(|b| b.is_ascii_alphabetic())
        && !inner.starts_with([' ', '^'])
        && inner
            .bytes()
            .all(|b| !matches!(b, b'*' | b'_' | b'`' | b'['));
    // (With a letter: a marker's label, `[text][1]`, is a citation's.)
    let plain = |label: &str| {
        label.bytes().any(|b| b.is_ascii_alphabetic())
            && !label.starts_with(' ')
            && !label.ends_with(' ')
            && !label.contains("  ")
            && label
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b' ' | b'-'))
    };
    let reference = line[end..]
        .strip_prefix('[')
        .and_then(|after| after.split_once(']'))
        .filter(|(label, _)| brackets.references && words && plain(label));
    let what = match (inner.strip_prefix('^'), reference) {
        (_, Some((label, _))) => {
            end += label.len() + 2;
            Bracketed::Reference(inner)
        }
        (Some(label), None) => {
            let plain = !label.is_empty() && label.bytes().all(|b| b.is_ascii_alphanumeric());
            if !(brackets.footnotes && plain) {
                return None;
            }
            Bracketed::Footnote
        }
        (None, None) => {
            let numbers = inner
                .bytes()
                .all(|b| b.is_ascii_digit() || b == b',' || b == b' ');
            if !(brackets.markers && numbers) {
                return None;
            }
            Bracketed::Marker(inner)
        }
    };
    match line.as_bytes().get(end) {
        Some(b'(' | b':') => None,
        Some(b'[') if !line[end..].starts_with("[^") => None,
        _ => Some((end, what)),
    }
}

/// What [`bracketed`] found.
enum Bracketed<'t> {
    Footnote,
    /// A marker's numbers, as written.
    Marker(&'t str),
    /// A full reference's words.
    Reference(&'t str),
}

impl Bracketed<'_> {
    /// Whether it is read as such: a marker's numbers as the citation
    /// pipeline reads a marker's label (a reference it can never make a
    /// link of).
    fn read(&self) -> bool {
        match self {
            Bracketed::Footnote | Bracketed::Reference(_) => true,
            Bracketed::Marker(inner) => crate::cite::is_marker_label(inner),
        }
    }
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
pub(in crate::stream) enum Class {
    /// A space, or the line's start or end.
    Space,
    Punctuation,
    Other,
    /// Non-ASCII text: Unicode punctuation and symbols are punctuation to
    /// CommonMark, letters are not; this module keeps no table of which is
    /// which (but for the blocks of Chinese, Japanese and Korean letters,
    /// their commonest punctuation and the currency signs), and takes a
    /// run next to one only when both readings agree.
    Unknown,
}

impl Class {
    /// The class of `c` (`None`: the line's start or end).
    pub(in crate::stream) fn of(c: Option<char>) -> Class {
        match c {
            None | Some(' ') => Class::Space,
            Some(c) if c.is_ascii_punctuation() => Class::Punctuation,
            // (The typing mark, a private-use character, is neither.)
            Some(c) if c.is_ascii() || c == '\u{E000}' => Class::Other,
            Some(c) if is_cjk_letter(c) => Class::Other,
            Some(c) if is_known_punctuation(c) => Class::Punctuation,
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

/// Whether `c` is in a block of letters (general category Lo or Lm) of
/// Chinese, Japanese or Korean text: CJK ideographs (and extension A),
/// hiragana, katakana and its marks, Hangul syllables.
fn is_cjk_letter(c: char) -> bool {
    matches!(c,
        '\u{3400}'..='\u{4DBF}'
        | '\u{4E00}'..='\u{9FFF}'
        | '\u{3041}'..='\u{3096}'
        | '\u{30A1}'..='\u{30FA}'
        | '\u{30FC}'..='\u{30FE}'
        | '\u{AC00}'..='\u{D7A3}')
}

/// Whether `c` is punctuation to the parser, of those a model's text
/// holds most next to a delimiter: the commonest marks of CJK text (of
/// category P: `、` `。` `〃`, the brackets `〈〉《》「」『』`, the full-width
/// `！` `（` `）` `，` `：` `；` `？`) and the currency signs (category Sc,
/// punctuation to CommonMark since 0.31 and to the parser: `**€5**` after a
/// letter opens nothing).
fn is_known_punctuation(c: char) -> bool {
    matches!(c,
        '\u{3001}'..='\u{3003}'
        | '\u{3008}'..='\u{300F}'
        | '\u{FF01}'
        | '\u{FF08}'
        | '\u{FF09}'
        | '\u{FF0C}'
        | '\u{FF1A}'
        | '\u{FF1B}'
        | '\u{FF1F}'
        | '\u{A2}'..='\u{A5}'
        | '\u{20A0}'..='\u{20C0}')
}

/// Whether a run of `delimiter` between `before` and `after` can open and
/// close emphasis (spec 6.2), or `None` when that turns on an unknown
/// character's class.
pub(in crate::stream) fn can_open_close(
    delimiter: u8,
    before: Class,
    after: Class,
) -> Option<(bool, bool)> {
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
        Piece::Code { start, end, .. } => {
            html.push_str("<code>");
            escape(html, code_content(&text[*start..*end]));
            html.push_str("</code>");
        }
        Piece::Run(run) => {
            run.closes.write(html, true);
            let literal = if run.delimiter == b'*' { '*' } else { '_' };
            html.extend(std::iter::repeat_n(literal, run.left));
            run.opens.write(html, false);
        }
        // (Only `parse_line` with brackets makes these, for events.)
        Piece::Bracket { at } => escape(html, &text[*at..*at + 1]),
        Piece::Footnote { start, end } => escape(html, &text[*start..*end]),
        Piece::Reference { text: words, .. } => escape(html, &text[words.0..words.1]),
    }
}

/// A code span's content as it shows: one space is stripped from each
/// side when both have one and the code is not all spaces.
fn code_content(code: &str) -> &str {
    if code.len() >= 2
        && code.starts_with(' ')
        && code.ends_with(' ')
        && code.bytes().any(|b| b != b' ')
    {
        &code[1..code.len() - 1]
    } else {
        code
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
            "1. a",
            "* a",
            "+ a **b**",
            "99. The ",
            "007) a\n",
            "> The **c**\n",
            "1. x\n\n1. The **c**\n\n",
            "1. x\n\n1. The **c**\n\n   ```rust",
            "1. x\n\n1. The **c**\n\n   ````\n",
            "10. x\n\n10. The c\n\n    ```py3\n",
            "- x\n\n- a\n\n  ```sh",
            "- x\n\n- a\n\n\n",
            // Text written without spaces, next to its letters and marks;
            // currency signs are punctuation after a letter too.
            "x，达到**€5**。",
            "x到**达**。",
            "x「*引用*」，_かな_カナ한글。",
            "a*€b*",
            "a *€*中",
        ] {
            assert!(block(text).is_some(), "{text:?} is in the subset");
            same_as_render(text);
        }
    }

    #[test]
    fn leaves_other_constructs_and_unknown_flanking_to_the_parser() {
        for text in [
            "1.a",
            "1234567890. a",
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
            "a*©b*",
            "é*a*é",
            "a “*b*” c",
            "a *§*中",
            "-  a",
            ">  a",
            "- - a",
            "a\n\n",
            "1. x\n\n1. a\n\n  ```rust",
            "1. x\n\n1. a\n\n   ``rust",
            "1. x\n\n1. a\n\n   ```ru st",
            "1. x\n\n1. a\n\n   ```rust\n   fn",
            "1. x\n\n1. a\n\n   ~~~",
            "1. x\n\n1. a\n\n   ```rust\n\n",
            &format!("a {}b", "*".repeat(65)),
        ] {
            assert_eq!(block(text), None, "{text:?}");
        }
    }

    /// `lines` as [`super::write_lines`] writes a paragraph of them, when it
    /// does, against `render`'s; whether it did.
    fn paragraph_as_render(lines: &[&str]) -> bool {
        let mut html = String::from("<p>");
        if super::write_lines(&mut html, lines.iter().copied()).is_none() {
            return false;
        }
        html.push_str("</p>\n");
        let text = lines.join("\n");
        assert_eq!(html, render(&text, &Options::default()).html, "{text:?}");
        true
    }

    #[test]
    fn reads_a_paragraphs_lines_only_when_no_line_reaches_into_the_next() {
        for lines in [
            &["a *b* c", "d **e** f."][..],
            &["The `x` y", "z"],
            &["x_y z*", "w"],
            &["a", "b *c"],
            &["a **b**", "c **d"],
        ] {
            assert!(paragraph_as_render(lines), "{lines:?} is read");
        }
        for lines in [
            // (An opener left on a line but the last, though nothing
            // after it closes it: the stack is not read across lines.)
            &["a *b", "c"][..],
            &["a *b", "c* d"],
            &["a **b", "c** d"],
            &["a `b", "c` d"],
            &["a ***b**", "c* d"],
            &["a ", "b"],
            &["a  ", "b"],
            &["a", " b"],
            &["a", "# b"],
        ] {
            assert!(
                !paragraph_as_render(lines),
                "{lines:?} is left to the parser"
            );
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]
        #[test]
        fn renders_a_paragraphs_lines_as_the_parser_does(
            lines in proptest::collection::vec("[ab][ab *_`.()'é€“”中，]{0,16}", 1..4),
        ) {
            let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
            paragraph_as_render(&lines);
        }

        #[test]
        fn renders_lines_as_the_parser_does(
            start in "(- |> |\\* |\\+ |1\\. |7\\) |012\\. )?",
            text in "[ab中か][ab *_`.()'\"\u{E000}é€£“”—©中文かカ한。、「」，！（）-]{0,24}",
            end in "\n?",
        ) {
            same_as_render(&[start, text, end].concat());
        }
    }
}
