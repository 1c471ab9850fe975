//! The tail, rendered incrementally: a push re-renders what it changed,
//! not the whole open text.
//!
//! Rendering the open text whole on every push would cost (open size ÷
//! chunk size) per byte of the message. Instead the tail keeps what it
//! knows about the last line, which is where pushes land:
//! - [`State::Inline`]: the last line's text up to a word boundary is
//!   settled — no emphasis, code span, link, tag or citation before the
//!   boundary can still change — so its HTML (`head`) and the tags closing
//!   its blocks (`closers`) are kept. Plain words (no markdown syntax) are
//!   added to `head` as they come, without parsing; anything else
//!   re-renders only the words since the boundary, behind a stand-in word
//!   (`x `) so that they parse as the same inline text. That rendering is
//!   also made once with a stand-in character at its end ([`TYPING`]):
//!   plain text typed next, inside a span still open (`**bold wor…`),
//!   goes where the character came out, again without parsing. A line
//!   whose words cannot settle yet (`1. **Make the…`) is settled at the
//!   start of its inline content instead, its blocks' HTML found by
//!   rendering the text before with a stand-in letter. While the preview
//!   shows the same text (a tag or a URL being typed, held back), the last
//!   rendering is reused.
//! - [`State::Code`]: inside a code fence (at the margin, or in a list
//!   item), lines that cannot close the fence are escaped onto the block,
//!   less the fence's indentation.
//! - [`State::HeldRow`]: a table row shows only once it is whole, so the
//!   tail stays the same until its line ends.
//! - [`State::Table`]: in a table shown as typed, a row that has ended is
//!   rendered alone and added, so a long table costs each row once.
//! - Beside the states, a [`ListHead`]: in a tight outline of one-line
//!   items, nested or not, the items so far, so that a line starting an
//!   item renders alone and goes in where its indentation puts it
//!   (`outline`), and a long outline costs each line once.
//!
//! A paragraph's next line that starts, after the same quote markers, with
//! a letter goes on from the line before's settled HTML, a line break
//! added (`paragraph_goes_on`). Any other newline, or anything a state
//! cannot vouch for, renders the open text whole and sets up a state
//! again. Tests check push by push that the cached tail equals the whole
//! render. What the states read off text and HTML (where words end, what
//! is plain or settled, the parts of a rendering) is in `text`.

use std::cell::Cell;

use pulldown_cmark_escape::escape_html_body_text;

mod outline;
mod text;

use super::boundary::has_blank_line;
use super::preview::{
    after_blank_line, destinations_closed, fence_of, has_label_end, hides_definition_line,
    is_delimiter_row, item_marker, last_block_start, open_destination, preview,
    preview_block_start, stand_in_header, starts_inline_link, unclosed_tag, ItemMark, Preview,
    RowHold,
};
use super::typing::{is_held_url_byte, is_word_char, HeldKind, ItemCode};
use super::{has_any_byte, has_byte, has_fence_run, reaches_back, FindLast};
use crate::cite::index::IndexBuilder;
use crate::cite::marker::FILE_SEARCH_OPEN;
use outline::{Item, Place};
use text::{
    after_container_markers, brackets_close, byte_classes, cites_paired, classes_render_as_itself,
    closes_before_opening, has_html_line, has_url_like_word, inline_content_start, innermost_block,
    is_plain, is_settled, line_is_settled, may_be_settled, may_open_html_across_blank_lines,
    open_cite_tags, opens_code_span, opens_label_on_plain_words, opens_span_on_plain_words,
    renders_as_itself, split_at_typing, split_closers, stand_in_after, stand_in_content,
    still_held, tags_are_settled, text_is_settled, word_boundary, CLOSE_BRACKET, CLOSE_PAREN, HASH,
};

/// Renders text of the open part as HTML, continuing the citation state
/// `after` (`None`: after the committed part); returns the HTML and the
/// state after it.
pub(super) type Render<'r> = dyn Fn(&str, Option<&IndexBuilder>) -> (String, IndexBuilder) + 'r;

/// `parts` joined: a new tail. (Its capacity is rounded up, so that a
/// push's tail mostly fits the block freed with the last one, which a host
/// drops for it: the allocator hands that block back at once instead of
/// looking for one of the new size. The last tail is a few bytes shorter,
/// and what every push allocates anew is the tail.)
fn tail_string(parts: &[&str]) -> String {
    joined(parts, |len| len.next_multiple_of(TAIL_ROUNDING))
}

/// `parts` joined into `spare`, the buffer of a tail the host gave back
/// (see [`Tail::give_back`]), or else into a new tail: a host that paints
/// after every push then allocates no tail per push. (Tails over 1 KiB
/// are past what glibc's per-thread cache keeps: allocating one per push
/// and freeing the last was 5–6% of a stream's cost in 4-byte chunks.)
fn tail_in(spare: &mut String, parts: &[&str]) -> String {
    if spare.capacity() == 0 {
        return tail_string(parts);
    }
    let mut text = std::mem::take(spare);
    text.clear();
    push_parts(&mut text, parts);
    text
}

/// What a tail's capacity is rounded up to (see [`tail_string`]).
const TAIL_ROUNDING: usize = 256;

/// `parts` joined: the HTML of a line's settled words, with room for the
/// words to come (it grows at every word).
fn line_head(parts: &[&str]) -> String {
    joined(parts, |len| len + TAIL_ROUNDING)
}

/// `parts` joined into a string of the `capacity` for their length.
fn joined(parts: &[&str], capacity: impl Fn(usize) -> usize) -> String {
    let len: usize = parts.iter().map(|part| part.len()).sum();
    let mut text = String::with_capacity(capacity(len));
    push_parts(&mut text, parts);
    text
}

fn push_parts(text: &mut String, parts: &[&str]) {
    for part in parts {
        text.push_str(part);
    }
}

/// What the tail remembers between pushes (positions are in the open text).
#[derive(Debug, Clone, Default)]
pub(super) struct Tail {
    state: Option<State>,
    /// The last line and length at which setting up [`State::Inline`]
    /// failed after rendering: retried only once the line has grown.
    failed_at: Option<(usize, usize)>,
    /// The last whole rendering: what the preview showed, and its HTML.
    /// While the preview shows the same (a row or a tag held back), so
    /// does the tail.
    last_whole: Option<Rendering>,
    /// An outline's items before the line being typed, kept while it grows.
    list: Option<ListHead>,
    /// The line at whose start no [`ListHead`] could be made after
    /// rendering (a loose list): not tried again while it is typed.
    no_list_at: Option<usize>,
    /// The buffer of a tail the host is done with: the next tail goes in it.
    spare: String,
    /// What typing does to the last tail: see [`Tail::typing`].
    typing: Typed,
    /// The last tail is a code block's tail before it with code lines
    /// added or held back: see [`Tail::extends_code`].
    extends_code: bool,
    /// The bytes of unsettled text the last rendering read again: see
    /// [`Tail::reread`].
    reread: usize,
    /// The last tail was the preview's whole rendering, which hid what is
    /// being typed at the open text's end, of this kind: a badge
    /// ([`hides_badge`]), a label opening a line ([`hides_label`]) or a
    /// tag ([`hides_tag`]).
    held_whole: Option<HeldKind>,
}

/// What text typed after the last tail's text does to it (see
/// [`Tail::typing`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) enum Typed {
    /// Not known.
    #[default]
    Unknown,
    /// Words add themselves to the tail's text: it ends in a plain word
    /// of a line's inline text being typed.
    Words,
    /// Text that typing shows in a code span adds itself to the tail's
    /// text: it ends in a code span being typed on a line's inline text,
    /// on a word (see [`Typing::CodeSpan`]).
    ///
    /// [`Typing::CodeSpan`]: super::typing::Typing::CodeSpan
    CodeSpan,
    /// Nothing changes until a line break: the tail holds the table row
    /// being typed back until its line ends.
    HeldRow,
    /// Nothing changes until a line break: the tail's last block is a link
    /// reference definition being typed, which shows nothing whatever its
    /// line holds (`preview::hides_definition_line`).
    Definition,
    /// Nothing changes while text of the kind goes on with what the tail
    /// holds back at its end (see [`Typing::Held`]).
    ///
    /// [`Typing::Held`]: super::typing::Typing::Held
    Held(HeldKind),
    /// Text without a line break, tab, CR or NUL adds itself, escaped: the
    /// tail ends in a code line of a list item's code block, past its
    /// indentation and where it could close the block; line breaks too
    /// when the block is given (see [`Typing::CodeIn`]).
    ///
    /// [`Typing::CodeIn`]: super::typing::Typing::CodeIn
    Code(Option<ItemCode>),
}

/// The HTML of the open text before a line that starts an outline's item
/// (see `outline`): the outline's items so far, with the end tags of the
/// items and lists open at its end. The line renders alone (as a list of
/// one) and goes in where its place is: an outline, nested or not, costs
/// each line once, not the whole outline at each line.
#[derive(Debug, Clone)]
struct ListHead {
    /// Where the line after the items starts.
    item_start: usize,
    /// The HTML of the text before that line.
    html: String,
    /// The outline's items open at its end, outermost first.
    open: Vec<Item>,
    /// The citation state after the items.
    index: IndexBuilder,
}

/// What the preview showed, its HTML, and the citation state after it.
#[derive(Debug, Clone)]
struct Rendering {
    shown: String,
    html: String,
    index: IndexBuilder,
}

impl Rendering {
    /// `shown` rendered: the rendering kept for it, or a new one kept.
    fn keep<'k>(
        kept: &'k mut Option<Rendering>,
        shown: &str,
        render: impl FnOnce(&str) -> (String, IndexBuilder),
    ) -> &'k Rendering {
        if kept.as_ref().is_some_and(|kept| kept.shown != shown) {
            *kept = None;
        }
        kept.get_or_insert_with(|| {
            let (html, index) = render(shown);
            Rendering {
                shown: shown.to_owned(),
                html,
                index,
            }
        })
    }
}

/// Whether `open` has footnotes, link reference definitions or fences,
/// which change how a line renders in ways its own text cannot show.
fn reaches_across_lines(open: &str) -> bool {
    reaches_back(open) || has_fence_run(open)
}

/// [`reaches_across_lines`] for settling the words of a line, where
/// footnotes do not: the tail reads a reference provisionally, as the
/// footnote it will be, numbered on from the citation state it renders
/// after, in a piece as in the whole; and a footnote definition at the
/// margin is a block whose text renders as a paragraph's. Link reference
/// definitions and fences still do.
fn reaches_across_lines_into(open: &str) -> bool {
    has_link_definition_mark(open) || has_fence_run(open)
}

/// Whether `text` holds a `]:` that may end a link reference definition's
/// label: any but the end of a footnote label opening a line (`[^1]: …`,
/// the label plain).
fn has_link_definition_mark(text: &str) -> bool {
    let bytes = text.as_bytes();
    memchr::memchr_iter(b']', bytes).any(|at| {
        if bytes.get(at + 1) != Some(&b':') {
            return false;
        }
        let line_start = text[..at].find_last(b'\n').map_or(0, |i| i + 1);
        let footnote_label = text[line_start..at].strip_prefix("[^").is_some_and(|name| {
            !name.is_empty() && !name.contains(['[', ']', ' ', '\\', '\t', '\r'])
        });
        !footnote_label
    })
}

/// Whether words of `line`, the last line of `open`, may settle at all.
/// Tables, footnotes and definitions in the open text, and raw HTML blocks
/// change how a line renders in ways a word cannot show. (An HTML block
/// runs to a blank line: a list after its opening line is in it. One
/// before a blank line may leave an element open, which the sanitizer
/// closes at the open text's end, around the blocks after it: an HTML
/// block anywhere in the open text keeps its lines from settling.) Raw HTML
/// anywhere in the block is balanced by the sanitizer at its end, wherever
/// that is. (So do fences: the preview may see one open where the parser
/// sees raw HTML; and pipes: the preview may hold a row of a table the
/// parser does not see.)
fn may_settle(open: &str, line: &str) -> bool {
    let block = &open[last_block_start(open)..];
    !(has_any_byte(line, b"\t\r")
        || block.contains('|')
        || reaches_across_lines_into(open)
        || !tags_are_settled(block)
        || has_html_line(open)
        || may_open_html_across_blank_lines(open))
}

/// Whether the block of `open` up to `at` is settled, `then` after it:
/// the preview, which edits the last block from its end and may reach back
/// (hiding `[1` can bare a URL, which is held too; a `**` left open
/// earlier in the block is closed at its end), leaves it as it is. (A cite
/// tag left open on an earlier line of the block takes in what comes after
/// it.)
fn block_is_settled(open: &str, at: usize, then: &str) -> bool {
    let block = &open[last_block_start(&open[..at])..at];
    open_cite_tags(block) == Some(0)
        && match then {
            "" => is_settled(block),
            _ => is_settled(&[block, then].concat()),
        }
}

/// Whether the last line of `open`, starting at `line_start`, is one the
/// preview shows nothing of (an item's number or bare marker being typed,
/// a rule's start, a heading's `#`s), the text before it being left as it
/// is: then `open` shows as the text before it, whose tail the caches
/// hold. (A cheap look at the line first: short, and only what such lines
/// hold. The two previews are worth it at the margin or after a blank
/// line; after a line, an outline's head composes a nested item's marker
/// for less, and a quote's line of markers is the quote's own to read.)
fn held_line(open: &str, line_start: usize) -> bool {
    let line = &open[line_start..];
    let before = &open[..line_start];
    let after_blank_line = || {
        before[..before.len() - 1]
            .rsplit('\n')
            .next()
            .is_some_and(|blank| blank.bytes().all(|b| b == b' '))
    };
    !line.is_empty()
        && line.len() <= 12
        && line
            .bytes()
            .all(|b| b.is_ascii_digit() || b" -+*=_#>.)".contains(&b))
        && before.ends_with('\n')
        && (!line.starts_with(' ') && !line.contains('>') || after_blank_line())
        && *preview(before).text == *before
        && *preview(open).text == *before
}

/// How many quote markers `line` starts with.
fn quote_depth(line: &str) -> usize {
    quote_markers(line).bytes().filter(|&b| b == b'>').count()
}

/// `line` without the spaces ending it.
fn before_spaces(line: &str) -> &str {
    line.trim_end_matches(' ')
}

/// The quote markers starting `line` (`> > `), each with one space at
/// most: what a paragraph's next line repeats to go on with it.
fn quote_markers(line: &str) -> &str {
    let mut rest = line;
    while let Some(quoted) = rest.strip_prefix('>') {
        rest = quoted.strip_prefix(' ').unwrap_or(quoted);
    }
    &line[..line.len() - rest.len()]
}

/// [`Typed::HeldRow`] when `line`, a table's row held back until it ends,
/// stays held whatever is typed on it: its start says it is no fence.
fn row_stays_held(line: &str) -> Typed {
    match line.bytes().any(|b| b != b' ') && still_held(RowHold::UntilNewline, line) {
        true => Typed::HeldRow,
        false => Typed::Unknown,
    }
}

/// A list rendered alone, its opening tag left off (what follows a
/// [`ListHead`]'s items).
fn after_list_opening(html: &str, mark: ItemMark) -> Option<&str> {
    let (opening, closing) = mark.list_tags();
    if !html.starts_with(opening) || !html.ends_with(closing) {
        return None;
    }
    html.get(html.find('\n')? + 1..)
}

/// Whether one more item of the list ending `text` renders tight. (A blank
/// line before makes a list loose even where its items so far, empty task
/// items say, show no paragraph to tell.)
fn next_item_is_tight(text: &str, mark: ItemMark, render: &Render<'_>) -> bool {
    let marker = match mark {
        ItemMark::Bullet(bullet) => char::from(bullet).to_string(),
        ItemMark::Ordered(delimiter) => format!("1{}", char::from(delimiter)),
    };
    let (html, _) = render(&format!("{text}{marker} x\n"), None);
    html.ends_with(&format!("<li>x</li>\n{}", mark.list_tags().1))
}

impl ListHead {
    /// The outline's HTML with `line` (as it renders, without its line
    /// break) in its place, rendered alone (as a list of one); with the
    /// citation state after it.
    fn followed_by(&self, line: &str, render: &Render<'_>) -> Option<(String, IndexBuilder)> {
        let item = outline::item_of(line)?;
        let place = outline::place(&self.open, &item)?;
        let (html, index) = render(&line[item.marker..], Some(&self.index));
        Some((self.with(item, place, &html)?, index))
    }

    /// The outline's HTML with `html`, an `item` rendered alone, at `place`.
    fn with(&self, item: Item, place: Place, html: &str) -> Option<String> {
        let mark = item.mark;
        let after_opening = after_list_opening(html, mark)?;
        let piece = match place {
            Place::Next(_) => after_opening.strip_suffix(mark.list_tags().1)?,
            Place::Inside => html,
        };
        let (at, glue) = outline::cut(&self.html, &self.open, place)?;
        Some(tail_string(&[
            &self.html[..at],
            glue,
            piece,
            &self.html[at..],
        ]))
    }

    /// The HTML of an outline ending with the text before `line_start` in
    /// `open`, rendered whole: the outline's lists must be tight, which
    /// they are when no line is blank; a list alone, when its HTML shows
    /// it tight.
    fn of(open: &str, line_start: usize, render: &Render<'_>) -> Option<ListHead> {
        let before = &open[..line_start];
        let (start, items) = outline::open_items(before)?;
        let (html, index) = render(before, None);
        let body = html.strip_suffix(outline::all_ends(&items).as_str())?;
        // (In more lists than the outline holds, or after an item that is
        // no text, the HTML would end in more end tags.)
        if body.ends_with('\n') {
            return None;
        }
        if has_blank_line(before) {
            // (A loose list wraps its items in paragraphs, which one
            // rendered alone would not have; a blank line before makes a
            // list loose even where its items so far, empty task items
            // say, show no paragraph to tell.)
            let [item] = items[..] else {
                return None;
            };
            let last_item = &body[body.rfind("<li>")?..];
            if last_item.starts_with("<li>\n")
                || after_blank_line(&open[..start]) > 0
                    && !next_item_is_tight(before, item.mark, render)
            {
                return None;
            }
        }
        Some(ListHead {
            item_start: line_start,
            html,
            open: items,
            index,
        })
    }

    /// The head before `line_start`, after this one's line and those up to
    /// it, all complete, each rendered alone and put in its place.
    fn extended(mut self, open: &str, line_start: usize, render: &Render<'_>) -> Option<ListHead> {
        for line in open.get(self.item_start..line_start)?.split_inclusive('\n') {
            let item = outline::item_of(line.strip_suffix('\n')?).filter(|item| item.plain)?;
            let place = outline::place(&self.open, &item)?;
            let (html, index) = render(&line[item.marker..], Some(&self.index));
            self.html = self.with(item, place, &html)?;
            outline::add(&mut self.open, place, item);
            self.index.absorb_following(index);
        }
        self.item_start = line_start;
        Some(self)
    }
}

#[derive(Debug, Clone)]
enum State {
    HeldRow {
        line_start: usize,
        hold: RowHold,
        html: String,
    },
    Inline(Box<SettledLine>),
    Code {
        at: usize,
        head: String,
        fence_char: u8,
        /// How many of them the fence has (a closing one has as many).
        fence_len: usize,
        /// The spaces each line of the block loses: the fence's, a list
        /// item's content's included.
        indent: usize,
        /// Up to how many spaces a line of spaces only may be a closing
        /// fence's indentation: surely, and at most ([`closing_indent`]).
        closing: (usize, usize),
        /// The end tags after the block's content: the block's, then an
        /// item's and its list's.
        closers: String,
    },
    Table(Box<TableRows>),
}

/// A table whose rows so far showed as typed: a row being typed is held
/// back, and a finished one is rendered alone and added.
#[derive(Debug, Clone)]
struct TableRows {
    /// Where the row being typed starts.
    line_start: usize,
    /// The HTML up to the last row's end ([`TABLE_CLOSERS`] follow).
    head: String,
    /// A header of stand-in cells and the table's delimiter row: a row
    /// after them renders as it does in the table.
    header: String,
    /// The citation state after the last row.
    index: IndexBuilder,
}

/// A line whose text up to `at` is settled.
#[derive(Debug, Clone)]
struct SettledLine {
    line_start: usize,
    /// Where the settled text ends (after a space, or a CJK mark: see
    /// [`word_boundary`]).
    at: usize,
    /// The stand-in word rendered before the text since `at`: it ends as
    /// the settled text does ([`stand_in_after`]).
    stand_in: &'static str,
    /// The HTML up to `at`, and the tags closing its blocks.
    head: String,
    /// The spaces ending `head` as typed: they end the paragraph, and go,
    /// if nothing follows them.
    typed_spaces: usize,
    closers: String,
    /// A heading's line: `#` may be its closing sequence.
    heading: bool,
    /// Settled up to the start of the line's content, with nothing of it:
    /// if all of it is held back, its block renders differently.
    at_content_start: bool,
    /// The citation state after `at`.
    index: IndexBuilder,
    /// The open text's length when the text since `at` was last rendered.
    rendered_to: usize,
    /// That text rendered with [`TYPING`] at its end.
    typing: Typing,
    /// The last rendering of the text since `at`, behind the stand-in.
    last_piece: Option<Rendering>,
    /// The text since `at` ended in a construct the preview held back, and
    /// this was the tail; see [`Held`].
    held: Option<Held>,
}

/// A tail whose text ends in something still being typed that the preview
/// holds back whole: a tag, an entity, a marker, a URL or a link's
/// destination (and, in `(…)`, its label). While what is
/// typed next only goes on with it (`<cite id="ca` + `ll_1`), the preview
/// holds all of it back in the same place, so the tail stays the same.
#[derive(Debug, Clone)]
struct Held {
    what: HeldBack,
    /// The open text's length when the tail was made.
    to: usize,
    tail: String,
}

/// What the preview holds back, by how it is typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum HeldBack {
    /// `<cite id="…` without its `>`.
    Tag,
    /// `&amp`: up to 32 letters, digits and `#` after the `&`.
    Entity { len: usize },
    /// `[1, 2`: a digit, then letters, digits, `,`, `-`, `#`, `=`.
    Marker,
    /// `https://…` and `www.…`, in URL characters.
    Url,
    /// A link being typed, at that part of it: the preview shows its label
    /// alone, or nothing of a link in `(…)` (a citation's parentheses go).
    Link(LinkPart),
}

/// Where a link the preview holds back is being typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LinkPart {
    /// The label of a link in `(…)`, after `([`.
    Label,
    /// Its `]`, with the `(` still to come.
    LabelEnd,
    /// The destination, after `](`.
    Destination,
}

impl LinkPart {
    /// The part reached after `typed`, when it only goes on with the link
    /// in characters that can neither end it nor change how the preview
    /// reads the text before it.
    fn after(self, typed: &[u8]) -> Option<LinkPart> {
        typed.iter().try_fold(self, |part, &b| match part {
            LinkPart::Label if b == b']' => Some(LinkPart::LabelEnd),
            LinkPart::Label => label_byte(b).then_some(part),
            LinkPart::LabelEnd => (b == b'(').then_some(LinkPart::Destination),
            LinkPart::Destination => (url_byte(b) && b != b'\'' || b == b'_').then_some(part),
        })
    }
}

/// What goes on with the label of a link in `(…)`: words, and punctuation
/// that is no syntax. (The preview drops the whole link there.)
fn label_byte(b: u8) -> bool {
    url_byte(b) && b != b'\'' || matches!(b, b' ' | b'_') || !b.is_ascii()
}

/// What, anywhere in a piece, keeps a link being typed from being held:
/// an entity, tag, code span, escape or table cell may reach into it.
const LINK_HOLD_BREAKERS: &[u8] = b"&<`\\|";

impl HeldBack {
    /// What the held back text `held` (after any spaces that end the shown
    /// text) is, if it is one of the kinds and typed in its plain
    /// characters only.
    fn of(held: &str) -> Option<HeldBack> {
        let bytes = held.as_bytes();
        let rest = bytes.get(1..).filter(|rest| !rest.is_empty())?;
        match bytes[0] {
            // (A tag's name, `/` or `!` must follow: `< 4` is text.)
            b'<' => ((rest[0].is_ascii_alphabetic() || matches!(rest[0], b'/' | b'!'))
                && !has_any_byte(held, b">\n\r|"))
            .then_some(HeldBack::Tag),
            b'&' => (rest.len() <= MAX_ENTITY && rest.iter().all(|&b| entity_byte(b)))
                .then_some(HeldBack::Entity { len: rest.len() }),
            b'[' => (rest[0].is_ascii_digit() && rest.iter().all(|&b| marker_byte(b)))
                .then_some(HeldBack::Marker),
            // (A label of digits may be a marker: `([1]` shows as one.)
            b'(' if rest[0] == b'[' && rest.get(1).is_some_and(u8::is_ascii_alphabetic) => {
                LinkPart::Label.after(&rest[2..]).map(HeldBack::Link)
            }
            _ => {
                let token = held.trim_start_matches(['(', '*', '_']);
                let scheme = ["https://", "http://", "www."]
                    .iter()
                    .any(|scheme| token.starts_with(scheme));
                (scheme && held.bytes().all(url_byte)).then_some(HeldBack::Url)
            }
        }
    }

    /// The same held back after `typed`, which goes on with it; for an
    /// entity, its new length.
    fn goes_on_with(self, typed: &str) -> Option<HeldBack> {
        let bytes = typed.as_bytes();
        match self {
            HeldBack::Tag => (!has_any_byte(typed, b">\n\r|")).then_some(self),
            HeldBack::Entity { len } => {
                let len = len + bytes.len();
                (len <= MAX_ENTITY && bytes.iter().all(|&b| entity_byte(b)))
                    .then_some(HeldBack::Entity { len })
            }
            HeldBack::Marker => bytes.iter().all(|&b| marker_byte(b)).then_some(self),
            HeldBack::Url => bytes.iter().all(|&b| url_byte(b)).then_some(self),
            HeldBack::Link(part) => part.after(bytes).map(HeldBack::Link),
        }
    }
}

/// The longest entity name the preview holds back.
const MAX_ENTITY: usize = 32;

fn entity_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'#'
}

/// What the preview holds back in a marker being typed (no space: the
/// preview trims them).
fn marker_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b',' | b'-' | b'#' | b'=')
}

/// The URL characters that are no markdown syntax.
fn url_byte(b: u8) -> bool {
    is_held_url_byte(b) || b == b'\''
}

/// The text since a settled line's end rendered with [`TYPING`] after it.
#[derive(Debug, Clone)]
enum Typing {
    NotRendered,
    /// Plain text typed since goes in between, without rendering again.
    Split(Box<TypingSplit>),
    /// Not found where typed text would be.
    Unusable,
}

/// A rendering with [`TYPING`] in it, split there.
#[derive(Debug, Clone)]
struct TypingSplit {
    /// The inline HTML before and after the stand-in (the line's head and
    /// closers go around them).
    before: String,
    after: String,
    /// What the preview added after the stand-in (closers, `**`).
    closers: String,
    /// The character before the stand-in in the text rendered (the
    /// preview's): what typed text goes next to, which may not be what it
    /// was typed after (a label's `[` does not show).
    shown_before: Option<char>,
    /// The citation state after the rendering.
    index: IndexBuilder,
}

impl TypingSplit {
    /// Whether `typed` may stand where the stand-in stood: it goes on as
    /// the stand-in did after the character it goes next to in the text
    /// rendered (see [`goes_on_after`]; `$[q` shows as `$q`, math to the
    /// preview, where the stand-in, no ASCII letter, opens none), and the
    /// closers after it close as they did (see [`close_alike_after`]).
    fn fits(&self, typed: &str) -> bool {
        let goes_on = self
            .shown_before
            .is_none_or(|before| goes_on_after(before, typed));
        goes_on
            && typed
                .chars()
                .next_back()
                .is_some_and(|c| close_alike_after(c, &self.closers))
    }

    /// The split of `html`, a rendering of `shown` (the stand-in word
    /// `stand_in` and text as the preview shows them, [`TYPING`] at `at`),
    /// which the preview followed with the closers after the stand-in.
    fn of(
        html: &str,
        shown: &str,
        stand_in: &str,
        at: usize,
        index: IndexBuilder,
    ) -> Option<TypingSplit> {
        let (inner, _) = stand_in_content(html, stand_in)?;
        let (before, after) = split_at_typing(inner)?;
        Some(TypingSplit {
            before: before.to_owned(),
            after: after.to_owned(),
            closers: shown[at + TYPING.len()..].to_owned(),
            shown_before: shown[..at].chars().next_back(),
            index,
        })
    }
}

/// Stands for text typed after a rendering: it parses as a letter would,
/// and is found in the HTML by being unlike anything else.
const TYPING: &str = "\u{E000}";

/// How far the line must grow before setting up a state is tried again.
const RETRY_AFTER: usize = 32;
/// The stand-in word rendered before unsettled text.
const STAND_IN: &str = "x ";
/// The stand-in content rendered after a line's block markers (`1. `,
/// `### `), so that its blocks are there to split off.
const CONTENT_STAND_IN: &str = "x";
/// The tags that close a code block.
const CODE_CLOSERS: &str = "</code></pre>\n";
/// The end of a rendered piece (a paragraph).
const PARAGRAPH_END: &str = "</p>\n";
/// The tags that close a table.
const TABLE_CLOSERS: &str = "</tbody></table>\n";

impl Tail {
    /// Forgets everything: the open text was cut or replaced.
    pub(super) fn reset(&mut self) {
        let spare = std::mem::take(&mut self.spare);
        *self = Tail {
            spare,
            ..Tail::default()
        };
    }

    /// Takes back the buffer of a tail the host is done with, to write the
    /// next one into.
    pub(super) fn give_back(&mut self, tail: String) {
        self.spare = tail;
    }

    /// The tail's HTML for `open`, which extends the open text of the last
    /// call (or anything, after [`Tail::reset`]).
    /// `line_start`: where the last line of `open` starts.
    pub(super) fn render(&mut self, open: &str, line_start: usize, render: &Render<'_>) -> String {
        self.extends_code = false;
        self.reread = 0;
        self.held_whole = None;
        let html = self.render_cached(open, line_start, render);
        self.typing = self.typed_after(open, line_start);
        html
    }

    /// What text typed after the last tail's text does to it, when it
    /// commits nothing:
    /// - [`Typed::Words`]: words (letters, digits, spaces, some
    ///   punctuation: see [`Typing::Words`]) only add themselves to it,
    ///   before the end tags closing it (but for spaces ending them, and
    ///   words begun in them that may start a URL, which the preview holds
    ///   back). It ends in a word of a line's inline text (see
    ///   [`ends_word`]), and everything since the line's last settled word
    ///   (or the start of its content) renders as itself. (Such words keep it so; they start no block and reach
    ///   back to nothing before them.)
    /// - [`Typed::HeldRow`]: text without a line break changes nothing:
    ///   the tail holds a table's row back until its line ends, and the
    ///   line's start says it is no fence.
    ///
    /// [`Typing::Words`]: super::typing::Typing::Words
    pub(super) fn typing(&self) -> Typed {
        self.typing
    }

    /// The bytes of text the last rendering read again past a settled
    /// line's settled point: the line's text since its last settled word,
    /// which the preview and the tail's checks read whole at each
    /// rendering. A few words in real text; a whole line where no word
    /// settles (4 KiB of `*a_ `), which costs the preview its length at
    /// every push though little is rendered (see `budget.rs`).
    pub(super) fn reread(&self) -> usize {
        self.reread
    }

    /// Whether the last tail is the tail of a code block rendered whole
    /// before, with escaped code lines added or held back since: the same
    /// elements around them, only text inside the code element changed.
    pub(super) fn extends_code(&self) -> bool {
        self.extends_code
    }

    /// Forgets what [`Tail::typing`] says of the last tail: it was not the
    /// one shown (a list's or quote's element did not hold it, and showed
    /// its own).
    pub(super) fn forget_typing(&mut self) {
        self.typing = Typed::Unknown;
    }

    /// [`Tail::typing`] for the tail just made of `open`. (A line holding
    /// a `【` is in no [`State::Inline`].)
    fn typed_after(&self, open: &str, line_start: usize) -> Typed {
        if hides_definition_line(open, line_start) {
            return Typed::Definition;
        }
        if let Some(kind) = self.held_whole {
            return Typed::Held(kind);
        }
        match &self.state {
            Some(State::Inline(line)) => {
                let pending = open.get(line.at..).unwrap_or_default();
                let words = line.line_start == line_start
                    && line.held.is_none()
                    && pending.chars().next_back().is_some_and(ends_word)
                    && (renders_as_itself(pending)
                        || opens_span_on_plain_words(pending)
                        || opens_label_on_plain_words(pending)
                        || line.types_at_split(open));
                if words {
                    return Typed::Words;
                }
                // (Not in a heading, where a `#` may close it. In a link's
                // label, `` [`Ser ``, as in any text: the preview hides
                // the `[`.)
                let code_span = line.line_start == line_start
                    && line.held.is_none()
                    && !line.heading
                    && opens_code_span(pending.strip_prefix('[').unwrap_or(pending));
                if code_span {
                    return Typed::CodeSpan;
                }
                // (The tail just made holds it back: `Held::to`.)
                let held = line
                    .held
                    .as_ref()
                    .filter(|held| held.to == open.len() && line.line_start == line_start);
                match held.map(|held| held.what) {
                    Some(HeldBack::Url | HeldBack::Link(LinkPart::Destination)) => {
                        return Typed::Held(HeldKind::Url)
                    }
                    Some(HeldBack::Tag) => return Typed::Held(HeldKind::Tag),
                    _ => {}
                }
            }
            Some(State::HeldRow {
                line_start: held,
                hold: RowHold::UntilNewline,
                ..
            }) if *held == line_start => return row_stays_held(&open[line_start..]),
            Some(State::Table(rows)) if rows.line_start == line_start => {
                return row_stays_held(&open[line_start..]);
            }
            // (At the margin, the frontier's element is the code block, and
            // its typing the frontier's.)
            Some(State::Code {
                at,
                indent,
                fence_char,
                closing: (surely, at_most),
                ..
            }) if *indent > 0 && *at == line_start => {
                let line = &open[line_start..];
                let code = line.trim_start_matches(' ');
                // (Not a tab after the spaces: a fence after it may close
                // the block, which the tail holds back.)
                let settled = line.len() - code.len() >= *indent
                    && code
                        .bytes()
                        .next()
                        .is_some_and(|b| b != *fence_char && b != b'\t')
                    && !has_any_byte(line, b"\r\0");
                if settled {
                    // (Where the closing fence's indentation is not known,
                    // a line of spaces may show otherwise: line breaks are
                    // pushed.)
                    let block = (surely == at_most).then(|| {
                        Some(ItemCode {
                            indent: u16::try_from(*indent).ok()?,
                            closing: u16::try_from(*surely).ok()?,
                            fence: char::from(*fence_char),
                        })
                    });
                    return Typed::Code(block.flatten());
                }
            }
            _ => {}
        }
        Typed::Unknown
    }

    /// [`Tail::render`], through the states that apply.
    fn render_cached(&mut self, open: &str, line_start: usize, render: &Render<'_>) -> String {
        if held_line(open, line_start) {
            // (The preview shows nothing of the last line, a block of its
            // own, and leaves the text before it as it is: the tail is
            // that text's.)
            let before = &open[..line_start];
            return self.render_cached(
                before,
                before.find_last(b'\n').map_or(0, |i| i + 1),
                render,
            );
        }
        // A `【` on the line may open a file-search marker, which the
        // preview holds back whole: the inline caches, which take typed
        // text as showing as typed, stay off while it is there.
        let inline = !open[line_start..].contains(FILE_SEARCH_OPEN);
        let cached = match &self.state {
            Some(State::HeldRow {
                line_start: held,
                hold,
                html,
            }) if *held == line_start && still_held(*hold, &open[line_start..]) => {
                Some(tail_in(&mut self.spare, &[html]))
            }
            Some(State::Inline(line)) if line.line_start == line_start && inline => {
                self.inline(open, render)
            }
            // (A line that has shown no more than the quote markers it
            // must repeat ends the paragraph's line for now, as a blank
            // line of the quote would: `> a\n>` shows as `> a\n`.)
            Some(State::Inline(line)) if inline && line.may_go_on(open, line_start) => {
                self.line_ended(&open[..line_start], line_start, render)
            }
            Some(State::Inline(_)) if inline => self
                .line_ended(open, line_start, render)
                .or_else(|| self.paragraph_goes_on(open, line_start, render)),
            Some(State::Code { .. }) => {
                let html = self.code(open);
                self.extends_code = html.is_some();
                html
            }
            Some(State::Table(_)) => self.table(open, line_start, render),
            _ => None,
        };
        if let Some(html) = cached {
            return html;
        }
        // (A settled paragraph line is kept while the next line has shown
        // quote markers at most: it may go on with the paragraph.)
        let waiting = self.state.take().filter(|state| match state {
            State::Inline(line) => line.may_go_on(open, line_start),
            _ => false,
        });
        if let Some(html) = inline
            .then(|| self.settle_inline(open, line_start, render))
            .flatten()
        {
            return html;
        }
        let shown = preview(open);
        self.held_whole = match () {
            _ if hides_badge(open, line_start, &shown.text) => Some(HeldKind::Url),
            _ if hides_label(open, line_start, &shown.text) => Some(HeldKind::Label),
            _ if hides_tag(open, line_start, &shown.text) => Some(HeldKind::Tag),
            _ => None,
        };
        let (html, index) = match self.list_tail(open, line_start, &shown.text, render) {
            Some(rendered) => rendered,
            None => {
                let kept =
                    Rendering::keep(&mut self.last_whole, &shown.text, |text| render(text, None));
                (tail_in(&mut self.spare, &[&kept.html]), kept.index.clone())
            }
        };
        self.remember(open, line_start, &shown, &html, index);
        if self.state.is_none() {
            self.state = waiting;
        }
        html
    }

    /// After a whole render: a held table row or a code block at the margin.
    fn remember(
        &mut self,
        open: &str,
        line_start: usize,
        shown: &Preview<'_>,
        html: &str,
        index: IndexBuilder,
    ) {
        if let Some(rows) = table_rows(open, line_start, shown, html, index) {
            self.state = Some(State::Table(Box::new(rows)));
        } else if let Some(hold) = shown.holds_row {
            self.state = Some(State::HeldRow {
                line_start,
                hold,
                html: html.to_owned(),
            });
        } else if let Some(fence) = shown
            .in_fence
            .filter(|_| shown.text == open && !has_html_line(open))
        {
            // The block must be the fence the preview sees open (an HTML
            // block can hide a fence from it, and a list item's marker the
            // fence after it, `- ```` on one line, whose closing fence the
            // preview then takes for an opening one; and then the HTML may
            // hold the same lines by chance): the HTML's code block holds
            // exactly the lines since the fence's, less its indentation.
            let fence_line = open[..line_start]
                .split_inclusive('\n')
                .scan(0, |at, line| {
                    *at += line.len();
                    Some((*at - line.len(), *at, line))
                })
                .filter(|(_, _, line)| fence_of(line).is_some_and(|f| f.char == fence.char))
                .last()
                // (The last fence of its character must be the one the
                // preview sees open: in `1. a\n   ```\n```a```, a
                // paragraph the preview does not see ends the item and
                // the block.)
                .filter(|(_, _, line)| fence_of(line) == Some(fence));
            let content = fence_line.and_then(|(fence_start, start, line)| {
                let (lines, last) = open[start..].split_at(line_start - start);
                // (A fence with an info string closes no block: it opens one.)
                let info = line.trim_start_matches(' ')[fence.len..].trim();
                Some((
                    code_lines(lines, fence.indent)?,
                    last,
                    fence_start,
                    !info.is_empty(),
                ))
            });
            let state = html.rfind(CODE_CLOSERS).and_then(|end| {
                let (code, closers) = html.split_at(end);
                let in_item = closers != CODE_CLOSERS;
                let code_start = code
                    .rfind("<code")
                    .and_then(|i| code[i..].find('>').map(|j| i + j + 1))?;
                let (lines, last, fence_start, opens) = content?;
                let closing = closing_indent(&open[..fence_start], fence.indent, in_item);
                let partial = code_partial(last, fence.indent, closing)?;
                let content = lines + &partial;
                // (The block must be the HTML's last, open or followed by
                // its item's and list's end tags only, and what it holds
                // must say so: the preview, which does not see a fence
                // indented past three spaces, takes `   ```` for an opening
                // fence in `1. \n     ```\n   ```\n`, where it closes an
                // empty block. Empty, it is the fence's when that fence
                // has an info string.)
                let ends_html = closers[CODE_CLOSERS.len()..]
                    .split_inclusive('\n')
                    .all(|tag| matches!(tag, "</li>\n" | "</ol>\n" | "</ul>\n"));
                let holds = !content.is_empty() || opens;
                let head = (ends_html && holds && code[code_start..] == *content)
                    .then(|| code.strip_suffix(partial.as_str()))
                    .flatten()?;
                // (At the margin, nothing but the block's own end tags.)
                (fence.indent > 0 || !in_item).then(|| State::Code {
                    at: line_start,
                    head: head.to_owned(),
                    fence_char: fence.char,
                    fence_len: fence.len,
                    indent: fence.indent,
                    closing,
                    closers: closers.to_owned(),
                })
            });
            if let Some(state) = state {
                self.state = Some(state);
            }
        }
    }

    /// In a table: while a row is typed, the table as it was; once its
    /// line ends, the row rendered alone (after stand-in header cells, so
    /// that it has the table's columns) and added, the next line being
    /// held back in turn.
    fn table(&mut self, open: &str, line_start: usize, render: &Render<'_>) -> Option<String> {
        let Some(State::Table(rows)) = &mut self.state else {
            return None;
        };
        if line_start == rows.line_start {
            return still_held(RowHold::UntilNewline, &open[line_start..])
                .then(|| tail_in(&mut self.spare, &[&rows.head, TABLE_CLOSERS]));
        }
        let row_end = line_start.checked_sub(1)?;
        let row_start = open[..row_end].find_last(b'\n').map_or(0, |i| i + 1);
        // (The next line, if begun, is held back as a row in turn.)
        if row_start != rows.line_start || !still_held(RowHold::UntilNewline, &open[line_start..]) {
            return None;
        }
        // (Only a line opening with `|` is surely a row: others may end
        // the table.)
        let row = &open[row_start..row_end];
        if !row.trim_start_matches(' ').starts_with('|') || row.contains('\r') {
            return None;
        }
        let text = [rows.header.as_str(), row, "\n"].concat();
        if preview(&text).text != text {
            return None;
        }
        let (html, index) = render(&text, Some(&rows.index));
        let row_html = html
            .split_once("<tbody>\n")?
            .1
            .strip_suffix(TABLE_CLOSERS)?;
        rows.head.push_str(row_html);
        rows.index.absorb_following(index);
        rows.line_start = line_start;
        Some(tail_in(&mut self.spare, &[&rows.head, TABLE_CLOSERS]))
    }

    /// In a code block: the new text escaped onto it, unless one of its
    /// lines might be the closing fence. A closing fence being typed is
    /// held back, as the preview holds it; once its line is complete, the
    /// block shows as it did without it while only blank lines follow (a
    /// closed code block shows as an open one with the same lines).
    fn code(&mut self, open: &str) -> Option<String> {
        let Some(State::Code {
            at,
            head,
            fence_char,
            fence_len,
            indent,
            closing,
            closers,
        }) = &mut self.state
        else {
            return None;
        };
        if has_any_byte(open.get(*at..)?, b"\r\0") {
            return None;
        }
        // (After spaces or tabs: a tab-indented fence may close the block
        // too, which only a whole render tells.)
        let starts_fence = |line: &str| {
            line.trim_start_matches([' ', '\t']).as_bytes().first() == Some(fence_char)
        };
        // Whole lines join the block.
        let complete = open.find_last(b'\n').map_or(*at, |i| (i + 1).max(*at));
        let lines = &open[*at..complete];
        let mut line_end = *at;
        let fence_line = lines.split_inclusive('\n').find_map(|line| {
            line_end += line.len();
            starts_fence(line).then_some((line_end - line.len(), line))
        });
        if let Some((fence_start, fence_line)) = fence_line {
            // (At a line that may close the block: it must close it, with
            // nothing but blank lines after it.)
            let fence_end = fence_start + fence_line.len();
            let closes = closes_code(fence_line, *fence_char, *fence_len, *closing);
            if !closes || !open[fence_end..].bytes().all(|b| b == b' ' || b == b'\n') {
                return None;
            }
            head.push_str(&code_lines(&open[*at..fence_start], *indent)?);
            *at = fence_start;
            return Some(tail_in(&mut self.spare, &[head, closers]));
        }
        let last = &open[complete..];
        let partial = match last.trim_start_matches(' ') {
            // (A closing fence being typed, which the preview holds back.)
            fence if !fence.is_empty() && fence.bytes().all(|b| b == *fence_char) => String::new(),
            _ if starts_fence(last) => return None,
            _ => code_partial(last, *indent, *closing)?,
        };
        head.push_str(&code_lines(lines, *indent)?);
        *at = complete;
        Some(tail_in(&mut self.spare, &[head, &partial, closers]))
    }

    /// The tail as shown (`shown` being the preview of `open`) when its last
    /// line starts an outline's next item: the outline so far, the line
    /// rendered alone in its place.
    fn list_tail(
        &mut self,
        open: &str,
        line_start: usize,
        shown: &str,
        render: &Render<'_>,
    ) -> Option<(String, IndexBuilder)> {
        let list = self.list_head(open, line_start, render)?;
        // (The preview edits the last line only, after a list item. Spaces
        // alone are a blank line, which ends no list.)
        let shown_line = shown.strip_prefix(&open[..line_start])?;
        if shown_line.bytes().all(|b| b == b' ') {
            return Some((tail_string(&[&list.html]), list.index.clone()));
        }
        list.followed_by(shown_line, render)
    }

    /// The [`ListHead`] before the line starting at `line_start`, when the
    /// line starts an item of the outline that the lines before end with,
    /// and where it goes: the one kept for the line before with the lines
    /// since added, or made by rendering the text before the line whole
    /// (once per outline).
    fn list_head(
        &mut self,
        open: &str,
        line_start: usize,
        render: &Render<'_>,
    ) -> Option<&ListHead> {
        // (The line, as far as it is typed, must be able to start an item:
        // else the head would be made for nothing. An HTML block takes in
        // the lines after it, item-like or not.)
        if line_start == 0
            || !outline::may_start_item(&open[line_start..])
            || reaches_across_lines(open)
            || has_html_line(open)
        {
            return None;
        }
        let list = match self.list.take() {
            Some(list) if list.item_start == line_start => Some(list),
            // (After a line or a few, when the tail was not asked for at
            // every line.)
            Some(list) if list.item_start < line_start => list.extended(open, line_start, render),
            _ => None,
        };
        let list = match list {
            Some(list) => list,
            None if self.no_list_at == Some(line_start) => return None,
            None => match ListHead::of(open, line_start, render) {
                Some(list) => list,
                None => {
                    self.no_list_at = Some(line_start);
                    return None;
                }
            },
        };
        Some(self.list.insert(list))
    }

    /// Sets up [`State::Inline`] at the last word boundary of the last
    /// line, if the text before it is settled; returns the tail.
    fn settle_inline(
        &mut self,
        open: &str,
        line_start: usize,
        render: &Render<'_>,
    ) -> Option<String> {
        let line = &open[line_start..];
        if self.failed_at.is_some_and(|(failed_line, len)| {
            failed_line == line_start && open.len() < len + RETRY_AFTER
        }) {
            return None;
        }
        let boundary = word_boundary(line);
        // (A heading's `#`s or a `*` item's `*` alone show nothing: at
        // its content's start, the block is read with a letter after it,
        // below; and only where the line starts the block as the preview
        // reads blocks, from a blank line: the preview may read a `](`
        // typed later as closing a `[` on a line before.)
        let content_start = inline_content_start(line).filter(|&start| {
            let markers = line[..start].trim_start_matches([' ', '>']);
            let marks_alone_show_nothing =
                markers.starts_with('#') || markers.trim_end().ends_with('*');
            !marks_alone_show_nothing || last_block_start(&open[..line_start + start]) == line_start
        });
        if boundary.is_none() && content_start.is_none() || !may_settle(open, line) {
            return None;
        }
        // Settled up to the line's last word boundary; else, when its
        // content starts as inline text, up to that start (an item or a
        // heading opening with `**Bold`).
        // The preview edits the last block from its end, and may reach
        // back (hiding `[1` can bare a URL, which is held too; a `**` left
        // open earlier in the block is closed at its end): the block up to
        // the settled end must be left as it is.
        // (A cite tag left open on an earlier line of the block takes in
        // what comes after it.)
        // (The block read whole and found unsettled is not read again
        // until the line has grown: where nothing settles, `[ a_` over and
        // over, it was read at every push.)
        // (At the content's start, the block is read with a letter after
        // it, as its content starts.)
        let unsettled = Cell::new(false);
        let block_is_settled = |at: usize, then: &str| {
            let settled = block_is_settled(open, at, then);
            unsettled.set(unsettled.get() || !settled);
            settled
        };
        let by_words = boundary
            .map(|boundary| line_start + boundary)
            .filter(|&at| line_is_settled(&open[line_start..at]) && block_is_settled(at, ""));
        let start = match by_words {
            Some(at) => Some((at, "")),
            None => content_start
                .map(|start| (line_start + start, CONTENT_STAND_IN))
                .filter(|&(at, _)| block_is_settled(at, "x")),
        };
        let Some((at, stand_in)) = start else {
            if unsettled.get() {
                self.failed_at = Some((line_start, open.len()));
            }
            return None;
        };
        let settled = &open[..at];
        let (html, index) = self
            .list_head(open, line_start, render)
            .and_then(|list| {
                // The item so far, as a list of one in its place.
                list.followed_by(&[&open[line_start..at], stand_in].concat(), render)
            })
            .unwrap_or_else(|| render(&[settled, stand_in].concat(), None));
        let split = split_closers(&html).and_then(|(head, closers, heading)| {
            Some((head.strip_suffix(stand_in)?, closers, heading))
        });
        let Some((head, closers, heading)) = split else {
            self.failed_at = Some((line_start, open.len()));
            return None;
        };
        // (A space the rendering kept, after a tag that rendered nothing,
        // is one the preview would trim: the spaces must be the typed ones.
        // A heading's text ending in `#` ended in its closing sequence,
        // which text after it turns back into text; a `#` after it may
        // start one, which `Tail::inline` leaves to the whole rendering:
        // failing here waits for the line to grow instead of setting up a
        // state that each push would refuse.)
        let closing_sequence = heading
            && (stand_in.is_empty() && settled.trim_end().ends_with('#')
                || has_byte(&open[at..], b'#'));
        if !text_is_settled(innermost_block(head))
            || head.ends_with(' ')
            || closing_sequence
            || !cites_paired(settled, head)
        {
            self.failed_at = Some((line_start, open.len()));
            return None;
        }
        let spaces = match stand_in {
            "" => &settled[settled.trim_end_matches(' ').len()..],
            _ => "",
        };
        self.state = Some(State::Inline(Box::new(SettledLine {
            line_start,
            at,
            stand_in: match stand_in {
                "" => stand_in_after(settled),
                _ => STAND_IN,
            },
            head: line_head(&[head, spaces]),
            typed_spaces: spaces.len(),
            closers: closers.to_owned(),
            heading,
            at_content_start: !stand_in.is_empty(),
            index,
            rendered_to: at,
            typing: Typing::NotRendered,
            last_piece: None,
            held: None,
        })));
        self.inline(open, render)
    }

    /// On the line after a settled line of a paragraph, when it goes on
    /// with the paragraph: after the same quote markers, a letter (which
    /// starts no block, and no underline), as the settled line's text did.
    /// The paragraph then shows as it did through the settled line's end,
    /// a soft break, and the new line: so the new line is settled at the
    /// start of its content with that head, rendering at most the settled
    /// line's words since its settled point, not the paragraph again. (A
    /// paragraph of many lines costs each line once, as a list of one-line
    /// items costs each item once.)
    fn paragraph_goes_on(
        &mut self,
        open: &str,
        line_start: usize,
        render: &Render<'_>,
    ) -> Option<String> {
        let Some(State::Inline(line)) = &mut self.state else {
            return None;
        };
        let markers = line.next_line_markers(open, line_start)?;
        let text = &open[line_start..];
        // (A line ending may be CRLF: the open text keeps it as typed.)
        let newline = line_start - 1 - usize::from(open[..line_start - 1].ends_with('\r'));
        if quote_markers(text) != markers
            || !text[markers.len()..].starts_with(|c: char| c.is_ascii_alphabetic())
            || !may_settle(open, text)
        {
            return None;
        }
        let at = line_start + markers.len();
        if !block_is_settled(open, at, "")
            || preview(&open[..line_start]).text != open[..line_start]
        {
            return None;
        }
        // (Spaces end the line's text: two or more make a hard break.)
        let text_end = line.line_start + before_spaces(&open[line.line_start..newline]).len();
        let break_html = match newline - text_end {
            0 | 1 => "\n",
            _ => "<br />\n",
        };
        let words = open.get(line.at..text_end).unwrap_or_default();
        let inner = match renders_as_itself(words) {
            true => words.to_owned(),
            false => {
                let piece = [line.stand_in, words].concat();
                if !may_be_settled(words) || !is_settled(&piece) {
                    return None;
                }
                let (html, index) = render(&piece, Some(&line.index));
                let (inner, _) = stand_in_content(&html, line.stand_in)?;
                if !text_is_settled(inner) || inner.ends_with(' ') || !cites_paired(words, inner) {
                    return None;
                }
                line.index.absorb_following(index);
                inner.to_owned()
            }
        };
        if line.at > text_end {
            // (Settled past the text: the spaces typed go.)
            line.head.truncate(line.head.len() - line.typed_spaces);
        }
        line.head.push_str(&inner);
        line.head.push_str(break_html);
        line.line_start = line_start;
        line.at = at;
        line.stand_in = STAND_IN;
        line.typed_spaces = 0;
        line.at_content_start = true;
        line.rendered_to = at;
        line.typing = Typing::NotRendered;
        line.last_piece = None;
        line.held = None;
        self.inline(open, render)
    }

    /// Just after the newline that ends a settled line (and any blank lines
    /// after it) whose text since the settled point has nothing unfinished
    /// (the preview leaves it as it is): the block shows as that text would
    /// at the line's end (a paragraph or an item ends the same way at a
    /// newline as at its last word), so only that text is rendered, not the
    /// open text.
    fn line_ended(&mut self, open: &str, line_start: usize, render: &Render<'_>) -> Option<String> {
        let Some(State::Inline(line)) = &mut self.state else {
            return None;
        };
        // (Blank lines may follow it: `Q3\n\n` may come in one chunk. They
        // change nothing of how the block shows; nor, in a quote, do lines
        // of no more than its markers, the last one being typed too: they
        // are blank lines of the quote.)
        let newline =
            line.line_start + memchr::memchr(b'\n', open.get(line.line_start..)?.as_bytes())?;
        let quoted = quote_depth(&open[line.line_start..newline]);
        // (Each of those as deep as the one before at most: after one less
        // deep, a deeper one opens a quote of its own.)
        let mut depth = quoted;
        let blank_after = open[newline + 1..].split('\n').all(|after| {
            let markers = quote_markers(after);
            let was = std::mem::replace(&mut depth, quote_depth(markers));
            after[markers.len()..].bytes().all(|b| b == b' ') && depth <= was
        });
        if line_start != open.len() && quoted == 0 || !blank_after {
            return None;
        }
        // (What the line's text was checked against is the part of its
        // block on this line: the preview of the open text may now see a
        // block that starts further back, a list item's first line before
        // the line going on with it, and an opener left there. Not so a
        // paragraph's line that a next line may go on with: its paragraph
        // shows the same with the line ended.)
        if preview_block_start(open) < line.line_start
            && line.next_line_markers(open, newline + 1).is_none()
        {
            return None;
        }
        let pending = open.get(line.at..newline)?;
        // (A heading's `#` may end in its closing sequence, which is no text.)
        if line.heading && has_byte(pending, b'#') {
            return None;
        }
        if let Some(html) = line.plain(pending, &mut self.spare) {
            return Some(html);
        }
        let piece = [line.stand_in, pending].concat();
        // (The preview of the whole block must leave it as it is too: its
        // brackets pair up differently with the settled text before. In a
        // quote, up to the line's end: the preview may edit the blank lines
        // of the quote after it.)
        let block = match quoted {
            0 => open,
            _ => &open[..=newline],
        };
        if preview(&piece).text != piece || preview(block).text != block {
            return None;
        }
        line.compose_shown(&piece, None, render, &mut self.spare)
    }

    /// On a settled line: the head, the text since it, and the closers.
    fn inline(&mut self, open: &str, render: &Render<'_>) -> Option<String> {
        let Some(State::Inline(line)) = &mut self.state else {
            return None;
        };
        let pending = open.get(line.at..)?;
        self.reread += pending.len();
        // (A line settled at its start, before an inline link's label,
        // only while it is one: see `starts_inline_link`.)
        if line.at_content_start && pending.starts_with(['[', '!']) && !starts_inline_link(pending)
        {
            return None;
        }
        let classes = byte_classes(pending);
        // A heading's `#` may close it; a `]` or `)` without its opener
        // here may pair with one in the settled text (for the preview).
        if line.heading && classes & HASH != 0
            || classes & CLOSE_BRACKET != 0 && closes_before_opening(pending, b'[', b']')
            || classes & CLOSE_PAREN != 0 && closes_before_opening(pending, b'(', b')')
        {
            return None;
        }
        let spare = &mut self.spare;
        if let Some(html) = line.still_held(open, spare) {
            return Some(html);
        }
        if let Some(html) = line.plain_classified(pending, classes, spare) {
            return Some(html);
        }
        if let Some(html) = line.typed(open, render, spare) {
            return Some(html);
        }
        // Settle the words before the last boundary first, so that the
        // next push re-renders less.
        if let Some(boundary) = word_boundary(pending) {
            let words = &pending[..boundary];
            // (Past the start of the line's content, words need no
            // letter: they can no longer make a rule or a list marker.)
            let words_settle = match line.at_content_start {
                true => line_is_settled(words),
                false => open_cite_tags(words) == Some(0),
            };
            if renders_as_itself(words) && words_settle {
                // (Plain words render as themselves, as in `plain`.)
                line.advance(words, boundary, None);
                if let Some(html) = line.plain(&open[line.at..], spare) {
                    return Some(html);
                }
            } else if let Some(piece) = (words_settle && may_be_settled(words))
                .then(|| [line.stand_in, words].concat())
                .filter(|piece| is_settled(piece))
            {
                let (html, after) = line
                    .typed_words(open, line.at + boundary)
                    .or_else(|| line.last_piece_followed_by(&piece))
                    .unwrap_or_else(|| render(&piece, Some(&line.index)));
                let settled = |(inner, _): &(&str, bool)| {
                    text_is_settled(inner) && !inner.ends_with(' ') && cites_paired(words, inner)
                };
                if let Some((inner, _)) = stand_in_content(&html, line.stand_in).filter(settled) {
                    let spaces = &words[words.trim_end_matches(' ').len()..];
                    line.advance(&[inner, spaces].concat(), boundary, Some(after));
                    if let Some(html) = line.plain(&open[line.at..], spare) {
                        return Some(html);
                    }
                }
            }
        }
        let piece = [line.stand_in, &open[line.at..]].concat();
        let shown = preview(&piece).text;
        // (Typed text whose end the preview holds back, the `*` of `Q3*`,
        // shows as the text typed up to it.)
        if let Some(end) = line.typed_then_held(&piece, &shown) {
            if let Some(html) = line.typed(&open[..end], render, spare) {
                return Some(html);
            }
        }
        line.typing = Typing::NotRendered;
        let html = line.compose_shown(&shown, Some(&piece), render, spare)?;
        line.rendered_to = open.len();
        line.held = held_back(&piece, &shown).map(|what| Held {
            what,
            to: open.len(),
            tail: tail_string(&[&html]),
        });
        Some(html)
    }
}

/// Whole lines of a code block (each ending in a line break), as its HTML
/// holds them: each less `indent` spaces, escaped. In a list item
/// (`indent` above zero), `None` for a line without them or of spaces
/// only, which may end the item, and the block with it.
fn code_lines(lines: &str, indent: usize) -> Option<String> {
    let mut html = String::with_capacity(lines.len() + 8);
    for line in lines.split_inclusive('\n') {
        let text = match indent {
            0 => line,
            _ => less_indent(line, indent)
                .filter(|text| !text.trim_start_matches(' ').trim_end().is_empty())?,
        };
        let _ = escape_html_body_text(&mut html, text);
    }
    Some(html)
}

/// `line` less its first `indent` bytes, when they are spaces.
fn less_indent(line: &str, indent: usize) -> Option<&str> {
    let spaces = line.get(..indent)?;
    spaces.bytes().all(|b| b == b' ').then(|| &line[indent..])
}

/// Up to how many spaces a line of spaces only, in a code block whose
/// fence is indented `fence_indent` after `before_fence`, may be a closing
/// fence's indentation: three past where the block's container starts its
/// content, surely and at most. That is the margin, or a list item's
/// content column, read from the item's first line, the last before the
/// fence indented less (`1. ` gives three, `- ` two: a fence may be
/// indented past its item's content, `- 1. ```\n   ```` opening one in the
/// `-` item). When that line is no item's, the column is somewhere from
/// the third up to the fence's.
fn closing_indent(before_fence: &str, fence_indent: usize, in_item: bool) -> (usize, usize) {
    if !in_item {
        return (3, 3);
    }
    // (The line's indentation, and its content after it.)
    let item_line = before_fence.lines().rev().find_map(|line| {
        let content = line.trim_start_matches(' ');
        let indent = line.len() - content.len();
        (indent < fence_indent && !content.is_empty()).then_some((indent, content))
    });
    let column = item_line.and_then(|(indent, content)| {
        let (_, rest) = item_marker(content)?;
        let spaces = rest.len() - rest.trim_start_matches(' ').len();
        let gap = match spaces {
            1..=4 if spaces < rest.len() => spaces,
            _ => 1,
        };
        Some(indent + content.len() - rest.len() + gap)
    });
    match column.filter(|&column| column <= fence_indent) {
        Some(column) => (column + 3, column + 3),
        None => (5, fence_indent + 3),
    }
}

/// The line of a code block being typed, as it shows: less `indent`
/// spaces, escaped; `None` when, in a list item, it has fewer (it may end
/// the item). A line of spaces only shows nothing while it may yet be a
/// closing fence's indentation (`closing`, see [`closing_indent`]); `None`
/// where that is not known.
fn code_partial(line: &str, indent: usize, closing: (usize, usize)) -> Option<String> {
    let spaces = line.bytes().take_while(|&b| b == b' ').count();
    // (A blank line with a tab: how it shows, if at all, the render says.)
    if line.bytes().all(|b| b == b' ' || b == b'\t') && spaces < line.len() {
        return None;
    }
    if spaces == line.len() {
        let (surely, at_most) = closing;
        if spaces <= surely {
            return Some(String::new());
        }
        if spaces <= at_most {
            return None;
        }
    }
    let mut html = String::new();
    let _ = escape_html_body_text(&mut html, less_indent(line, indent)?);
    Some(html)
}

/// Whether `line` (with its newline) closes a code block fenced with
/// `len` of `fence_char`, whose closing fence may be indented as
/// `closing` says ([`closing_indent`]): known only when both bounds agree,
/// three past the container's content column, which the line must reach
/// (a line indented less, in a list item, ends the item instead).
fn closes_code(line: &str, fence_char: u8, len: usize, closing: (usize, usize)) -> bool {
    let (surely, at_most) = closing;
    let spaces = line.bytes().take_while(|&b| b == b' ').count();
    let rest = &line[spaces..];
    let run = rest.bytes().take_while(|&b| b == fence_char).count();
    surely == at_most
        && (surely.saturating_sub(3)..=surely).contains(&spaces)
        && run >= len
        && rest[run..].bytes().all(|b| b == b' ' || b == b'\n')
}

/// Whether text typed after `c` goes on a word, as [`Typed::Words`] asks of
/// the text before the typing point: a letter or digit, of any script, or
/// a character beyond ASCII that typing shows as itself (`。` `，` `»` `🙂`),
/// which no inline syntax reads. (Not ASCII punctuation: what follows a
/// `.`, `:`, `(` or `!` may make a link of it, and the preview holds some
/// back.)
fn ends_word(c: char) -> bool {
    c.is_alphanumeric() || is_word_char(c)
}

/// Where [`TYPING`] goes in `shown`, the preview of `piece`, when the
/// preview of `piece` followed by it would show it there: the preview only
/// added closers after `piece`, which ends where typed text may follow
/// ([`typing_may_follow`], but not a space, and [`close_alike_after`]),
/// with no cite tag open (its label is also an
/// attribute, where the stand-in cannot be told apart) and no word that
/// may be a link (whose URL would hold it too).
fn typing_place(piece: &str, shown: &str) -> Option<usize> {
    let closers = shown.strip_prefix(piece)?;
    let ends_in_word = piece
        .chars()
        .next_back()
        .is_some_and(|c| c != ' ' && typing_may_follow(c) && close_alike_after(c, closers));
    let only_closers = are_closers(closers);
    let no_link = !has_url_like_word(piece);
    (ends_in_word && only_closers && no_link && open_cite_tags(piece) == Some(0))
        .then_some(piece.len())
}

/// Whether `closers`, the preview's after text ending in `c`, close as
/// they do after the typing stand-in, which parses as a letter. After a
/// letter or digit they do. After punctuation a run of closers followed by
/// another (`**` of `**_`) may open as well as close, and the rule of
/// three may then leave it unmatched (`_*a */**_` shows no second
/// emphasis, `_*a *` + stand-in + `**_` does); one run alone, followed by
/// nothing, only closes either way.
fn close_alike_after(c: char, closers: &str) -> bool {
    let one_run = closers
        .bytes()
        .all(|b| closers.as_bytes().first() == Some(&b));
    one_run || c.is_alphanumeric()
}

/// Whether `more`, after `text`, renders as itself and as if `text` ended
/// there: it starts with a space or punctuation, after which a delimiter
/// ending `text` closes and opens as it does at the end (not `)`, which
/// after a link citation written `([label](url))` goes with the `(`
/// before; nor punctuation that may go on a URL ending `text`, `/b` after
/// `https://h/-/c`). Nothing at all follows as itself.
fn follows_as_itself(more: &str, text: &str) -> bool {
    let starts_well = more.bytes().next().is_none_or(|b| {
        b == b' '
            || b.is_ascii_punctuation()
                && !matches!(b, b'(' | b')' | b'!' | b'[' | b'<')
                && !has_url_like_word(text)
    });
    starts_well && renders_as_itself(more)
}

/// Whether `text` holds a `[` and a digit that no `]` closes right after
/// the marker's characters: a marker still being typed, or never closed.
fn has_unfinished_marker(text: &str) -> bool {
    let bytes = text.as_bytes();
    memchr::memchr_iter(b'[', bytes).any(|at| {
        let marker = &bytes[at + 1..];
        let len = marker
            .iter()
            .take_while(|&&b| marker_byte(b) || b == b' ')
            .count();
        marker.first().is_some_and(u8::is_ascii_digit) && marker.get(len) != Some(&b']')
    })
}

/// Whether `text` is only closers of spans, as the preview adds them.
fn are_closers(text: &str) -> bool {
    text.bytes().all(|b| matches!(b, b'*' | b'_' | b'~' | b'`'))
}

/// Whether `typed`, after `before`, goes on as the typing stand-in does
/// there: after `<`, `&` or `\` a letter starts a tag, entity or escape
/// (after `$`, math to the preview); next to a delimiter a letter and a
/// space differ (`**x` opens, `** ` does not). (After `_`, a letter and
/// the stand-in differ too: the preview reads `_é` as opening, `_` +
/// stand-in as closing.)
fn goes_on_after(before: char, typed: &str) -> bool {
    typing_may_follow(before)
        || (matches!(before, '*' | '~' | '`' | '[' | '(')
            && typed.starts_with(char::is_alphanumeric))
}

/// Whether text typed after `c` goes on as the typing stand-in does: after
/// a letter, a digit, a space, text punctuation or a character beyond
/// ASCII (`€`), but not after markdown syntax, where a letter and a space
/// differ (`**x` opens, `** ` does not) or start something (`<x`, `&x`).
fn typing_may_follow(c: char) -> bool {
    c.is_alphanumeric()
        || c == ' '
        || (!c.is_ascii() && !c.is_whitespace())
        || matches!(
            c,
            '.' | ',' | ';' | ':' | '%' | '\'' | '"' | '-' | '+' | '=' | '/' | '?' | '^'
        )
}

/// What the preview held back at the end of `piece`, showing `shown`: the
/// piece up to it (its spaces trimmed) and then only closers.
fn held_back(piece: &str, shown: &str) -> Option<HeldBack> {
    let common = piece
        .bytes()
        .zip(shown.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    let closers_only = are_closers(shown.get(common..)?);
    let held = piece.get(common..)?.trim_start_matches(' ');
    let what = match closers_only && !held.is_empty() {
        true => HeldBack::of(held),
        false => None,
    };
    match what {
        Some(HeldBack::Link(_)) => what.filter(|_| link_is_its_own(piece, held.len())),
        Some(what) => Some(what),
        None => held_destination(piece),
    }
}

/// Whether `open`, whose last line starts at `line_start`, ends in a link's
/// label opening the line's content (after the markers of its quotes and
/// items), its `]` not typed, that its preview, `shown`, hides whole,
/// showing the text before it as it is: such a label may yet be a link
/// reference definition's (`[label]:`), and the preview shows nothing of it
/// until what follows its `]` says (`preview::show_label`). Text typed next
/// without a bracket, a `|` (which may make the line a table's row) or a
/// line break ([`HeldKind::Label`]) leaves it so.
fn hides_label(open: &str, line_start: usize, shown: &str) -> bool {
    let line = &open[line_start..];
    let content = after_container_markers(line);
    let at = open.len() - content.len();
    // (An item holding nothing shown yet is dropped with its marker:
    // `- [Docs` after a paragraph shows the paragraph.)
    content
        .strip_prefix('[')
        .is_some_and(|label| !has_any_byte(label, b"[]"))
        && shows_up_to(open, shown, at, b" \n>-+*.)0123456789")
}

/// Whether `shown`, the preview of `open`, is `open` up to `at`, less some
/// of the bytes of `gap` ending it (the spaces and line breaks the preview
/// trims): what is typed from `at` on shows nothing.
fn shows_up_to(open: &str, shown: &str, at: usize, gap: &[u8]) -> bool {
    open[..at].starts_with(shown) && open[shown.len()..at].bytes().all(|b| gap.contains(&b))
}

/// Whether `open`, whose last line starts at `line_start`, ends in a tag
/// or a comment begun on that line, past its `<` (`<a href="https://…`,
/// `<!-- cargo-r`), that its preview, `shown`, hides whole, showing the
/// text before it as it is: in an HTML block's lines as in a paragraph's. Text typed next without `>`, `|` or a line
/// break ([`HeldKind::Tag`]) leaves the tag unfinished, so hidden.
fn hides_tag(open: &str, line_start: usize, shown: &str) -> bool {
    let line = &open[line_start..];
    // (Not after a `[` opening the line: a `]:` typed in the tag would make
    // the line a definition's, which shows nothing.)
    !after_container_markers(line).starts_with('[')
        && unclosed_tag(line, None).is_some_and(|lt| {
            let at = line_start + lt;
            // (Begun: a `<` alone may be text, `<<`.)
            open.len() > at + 1 && shows_up_to(open, shown, at, b" \t\n")
        })
}

/// Whether `open`, whose last line starts at `line_start`, ends in a badge
/// being typed that its preview, `shown`, hides whole, showing the text
/// before it as it is: a link around an image, typed up to somewhere in
/// its image (the alt text, which may hold spaces, then the image's
/// destination or label, of URL characters; or an `<img …` tag, without a
/// bracket or parenthesis) or in the link's destination or label (URL
/// characters): `[![Build status](https://…)](https://…`,
/// `[![docs][docs-badge]][docs` or `[<img alt="docs" src="https://…`.
/// URL characters typed next ([`HeldKind::Url`]) add no bracket,
/// parenthesis or `>`, so the preview reads the badge's brackets as before
/// and goes on hiding it (a link around an image shows no text until it is
/// whole: `preview::show_label`, which hides a label opening a line with
/// a tag too); nor do they reach back into the text before it. Not once a
/// part has ended without the next one begun, where they may end the link
/// (`[![a](u)]x` is text).
fn hides_badge(open: &str, line_start: usize, shown: &str) -> bool {
    let line = &open[line_start..];
    let at = match (line.rfind("[!["), line.rfind("[<img ")) {
        (Some(image), Some(tag)) => image.max(tag),
        (image, tag) => match image.or(tag) {
            Some(at) => at,
            None => return false,
        },
    };
    let at = line_start + at;
    // A part in `(…)` or `[…]` of URL characters, up to its end if it has
    // one: what comes after that end.
    fn part(text: &str) -> Option<Option<&str>> {
        let close = match text.as_bytes().first()? {
            b'(' => ')',
            b'[' => ']',
            _ => return None,
        };
        let inner = &text[1..];
        let end = inner.find(close);
        let url = &inner[..end.unwrap_or(inner.len())];
        url.bytes()
            .all(is_held_url_byte)
            .then(|| end.map(|end| &inner[end + 1..]))
    }
    // The link's part after its label's `]`: begun, and not ended.
    let link_going_on = |after_label: &str| {
        after_label
            .strip_prefix(']')
            .is_some_and(|link| part(link).is_some_and(|end| end.is_none()))
    };
    let badge = &open[at + 1..];
    let in_badge = match badge.strip_prefix("![") {
        Some(image) => {
            let (alt, after_alt) = image.split_at(image.find(']').unwrap_or(image.len()));
            alt.bytes().all(|b| is_held_url_byte(b) || b == b' ')
                && match after_alt.strip_prefix(']') {
                    None => true,
                    Some(image) => match part(image) {
                        Some(None) => true,
                        Some(Some(after_image)) => link_going_on(after_image),
                        None => false,
                    },
                }
        }
        None => match badge.find('>') {
            None => !has_any_byte(&badge[1..], b"[]()<"),
            Some(end) => {
                !has_any_byte(&badge[1..end], b"[]()<") && link_going_on(&badge[end + 1..])
            }
        },
    };
    // (Nor with a part still empty, its bracket or parenthesis last.)
    in_badge && !open.ends_with(['[', '(']) && shows_up_to(open, shown, at, b" \n")
}

/// Whether the link in `(…)` being typed in the last `len` bytes of
/// `piece` is held back as typed: its `(` does not go on a label or
/// destination before it (`[1]([a` shows `1` once its `]` comes), and
/// nothing before it may reach into it.
fn link_is_its_own(piece: &str, len: usize) -> bool {
    let before = &piece[..piece.len() - len];
    !before.ends_with(']')
        && destinations_closed(before)
        && !has_any_byte(piece, LINK_HOLD_BREAKERS)
}

/// A link not in `(…)` whose destination is being typed at the end of
/// `piece`: the preview shows its label alone, once the destination has
/// begun (`[1](` shows the marker).
fn held_destination(piece: &str) -> Option<HeldBack> {
    let at = open_destination(piece).filter(|&at| at < piece.len())?;
    if has_any_byte(piece, LINK_HOLD_BREAKERS) {
        return None;
    }
    let part = LinkPart::Destination.after(&piece.as_bytes()[at..])?;
    Some(HeldBack::Link(part))
}

/// After a whole render just past a newline: the open text's last block is
/// a table shown as typed (the preview changed nothing), whose rows can be
/// added one by one.
fn table_rows(
    open: &str,
    line_start: usize,
    shown: &Preview<'_>,
    html: &str,
    index: IndexBuilder,
) -> Option<TableRows> {
    if line_start != open.len() || shown.text != open || shown.in_fence.is_some() {
        return None;
    }
    let mut lines = open[last_block_start(open)..].split('\n');
    let (header, delimiter) = (lines.next()?, lines.next()?);
    if !header.contains('|') || !is_delimiter_row(delimiter) || has_html_line(open) {
        return None;
    }
    let head = html.strip_suffix(TABLE_CLOSERS)?;
    Some(TableRows {
        line_start,
        head: head.to_owned(),
        header: stand_in_header(&[delimiter, "\n"].concat()),
        index,
    })
}

impl SettledLine {
    /// The quote markers a line starting at `line_start` repeats to go on
    /// with this line's paragraph, if it is one, right after this line:
    /// a line of its text, starting (after the markers) with a letter, as
    /// the next must. (Not one ending in a backslash, a hard break that
    /// the line's rendering alone would show as a backslash.)
    fn next_line_markers<'o>(&self, open: &'o str, line_start: usize) -> Option<&'o str> {
        let newline = line_start.checked_sub(1)?;
        let line = open.get(self.line_start..newline)?;
        let markers = quote_markers(line);
        let goes_on = !self.heading
            && self.closers.starts_with(PARAGRAPH_END)
            && self.at <= newline
            && !line.contains('\n')
            && !before_spaces(line).ends_with('\\')
            && line[markers.len()..].starts_with(|c: char| c.is_ascii_alphabetic());
        goes_on.then_some(markers)
    }

    /// Whether the line starting at `line_start`, the last of `open`, may
    /// yet go on with this line's paragraph: so far it has shown no more
    /// than the quote markers it must repeat.
    fn may_go_on(&self, open: &str, line_start: usize) -> bool {
        let text = &open[line_start..];
        self.next_line_markers(open, line_start)
            .is_some_and(|markers| markers.starts_with(text))
    }

    /// `piece` rendered, when it is the last piece rendered followed by
    /// text that renders as itself and begins with a space or punctuation
    /// (`x **a**` and `, `): that rendering with the text added. (After a
    /// space or punctuation a delimiter ending the piece closes and opens
    /// as it does at the end of the text. Not `)`: after a link citation
    /// written `([label](url))` it goes with the `(` before.)
    fn last_piece_followed_by(&self, piece: &str) -> Option<(String, IndexBuilder)> {
        let last = self.last_piece.as_ref()?;
        let more = piece.strip_prefix(last.shown.as_str())?;
        if more.is_empty() || !follows_as_itself(more, &last.shown) {
            return None;
        }
        // (A paragraph's trailing spaces do not show.)
        let html = last.html.strip_suffix(PARAGRAPH_END)?;
        let html = tail_string(&[html, more.trim_end_matches(' '), PARAGRAPH_END]);
        Some((html, last.index.clone()))
    }

    /// While the text held back at the end of the last tail only goes on:
    /// that tail again.
    fn still_held(&mut self, open: &str, spare: &mut String) -> Option<String> {
        let held = self.held.as_mut()?;
        let Some(what) = held.what.goes_on_with(open.get(held.to..)?) else {
            self.held = None;
            return None;
        };
        held.what = what;
        held.to = open.len();
        self.rendered_to = open.len();
        Some(tail_in(spare, &[&held.tail]))
    }

    /// When `pending`, the text since `at`, has no syntax: the tail, with
    /// no rendering; the words before its last boundary settle.
    fn plain(&mut self, pending: &str, spare: &mut String) -> Option<String> {
        self.plain_classified(pending, byte_classes(pending), spare)
    }

    /// [`SettledLine::plain`], the [`byte_classes`] of `pending` known.
    fn plain_classified(
        &mut self,
        pending: &str,
        classes: u8,
        spare: &mut String,
    ) -> Option<String> {
        if !classes_render_as_itself(pending, classes) {
            return None;
        }
        let shown = pending.trim_end_matches(' ');
        let html = self.compose(shown, !shown.is_empty(), spare)?;
        if let Some(boundary) = word_boundary(pending) {
            self.advance(&pending[..boundary], boundary, None);
        }
        Some(html)
    }

    /// Moves the settled end `by` bytes on, its HTML being `html`.
    fn advance(&mut self, html: &str, by: usize, index: Option<IndexBuilder>) {
        self.head.push_str(html);
        self.typed_spaces = html.len() - html.trim_end_matches(' ').len();
        self.stand_in = stand_in_after(html);
        self.at += by;
        self.at_content_start = false;
        self.last_piece = None;
        self.held = None;
        if let Some(index) = index {
            self.index.absorb_following(index);
        }
        self.rendered_to = self.rendered_to.max(self.at);
        self.typing = Typing::NotRendered;
    }

    /// When only plain text was typed since the last rendering: that
    /// rendering with the text put where [`TYPING`] was.
    fn typed(&mut self, open: &str, render: &Render<'_>, spare: &mut String) -> Option<String> {
        let shown_typed = self.typed_text(open)?;
        if matches!(self.typing, Typing::NotRendered) {
            let piece = [self.stand_in, &open[self.at..self.rendered_to], TYPING].concat();
            let shown = preview(&piece);
            // (Held back, the stand-in shows nothing: no need to render.)
            let split = shown.text.find(TYPING).and_then(|at| {
                let (html, index) = render(&shown.text, Some(&self.index));
                TypingSplit::of(&html, &shown.text, self.stand_in, at, index)
            });
            self.typing = split.map_or(Typing::Unusable, |split| Typing::Split(Box::new(split)));
        }
        let Typing::Split(split) = &self.typing else {
            return None;
        };
        if !split.fits(shown_typed) {
            return None;
        }
        Some(tail_in(
            spare,
            &[
                &self.head,
                &split.before,
                shown_typed,
                &split.after,
                &self.closers,
            ],
        ))
    }

    /// Whether the tail of `open` is the last typing rendering with the
    /// text typed since put where [`TYPING`] was ([`SettledLine::typed`]),
    /// in text where the preview reads words as it does everywhere (not in
    /// a code span, math, a tag, an entity or escape, or a label left
    /// open, where it holds no URL or holds a marker): words typed next go
    /// there too, as they would in that rendering, though the words before
    /// them have not settled (a marker's `[3]. ` and the words typed after
    /// it in the same push). Words may end in punctuation (`:`), after
    /// which the closers must still close alike ([`close_alike_after`]):
    /// `_a _b` + `:` + `__**` leaves both `_` open (the rule of three).
    fn types_at_split(&self, open: &str) -> bool {
        let Typing::Split(split) = &self.typing else {
            return false;
        };
        if !close_alike_after(':', &split.closers) {
            return false;
        }
        let Some(since) = open.get(self.at..) else {
            return false;
        };
        self.rendered_to < open.len()
            && !has_any_byte(since, b"`$<&\\")
            && brackets_close(since)
            && self.typed_text(open).is_some_and(|typed| split.fits(typed))
    }

    /// The text typed since the last rendering, as it shows (its spaces
    /// trimmed), when it goes where [`TYPING`] was in a rendering made with
    /// it: plain text, going on as the stand-in does. (`open` may end
    /// before the open text does.)
    fn typed_text<'o>(&self, open: &'o str) -> Option<&'o str> {
        let typed = open.get(self.rendered_to..)?;
        let before = open[..self.rendered_to].chars().next_back()?;
        // The words typed text goes on or starts.
        let words = &open[open[..self.rendered_to]
            .find_last(b' ')
            .map_or(0, |i| i + 1)..];
        let shown_typed = typed.trim_end_matches(' ');
        // `[x` may become a task box, which the preview holds back.
        let may_be_task_box = before == '[' && matches!(shown_typed, "x" | "X");
        let plain = !shown_typed.is_empty()
            && is_plain(typed)
            // A closer the preview adds goes after it: after whitespace
            // wider than a byte (U+00A0) it closes nothing, after the
            // stand-in it would.
            && !shown_typed.ends_with(char::is_whitespace)
            && !may_be_task_box
            && !has_url_like_word(words)
            // Raw HTML is balanced by the sanitizer around the end of the
            // rendered text, wherever that is.
            && tags_are_settled(&open[self.at..])
            // Typed text must go on as the stand-in would after what it
            // was typed after (and, see [`TypingSplit::fits`], after what
            // it shows next to).
            && goes_on_after(before, typed)
            // In a word with `&`, `<` or `\`, letters make an entity, a tag
            // name or an escape.
            && !has_any_byte(words, b"&<\\")
            // After `[`, letters go on a label, shown as the stand-in is.
            && open[self.at..].rfind('[').is_none_or(|at| {
                open[self.at + at + 1..].contains(']')
                    || typed.chars().all(|c| c.is_alphabetic() || c == ' ')
            })
            // But after `[1` letters and digits go on a marker, which the
            // preview holds back (`[1#page=3]`), while the stand-in ends it;
            // so after any unfinished `[1`: once the labels after it show
            // without their brackets, the typed text may go on its marker
            // (`[1[a` shows as `[1a`, held back whole).
            && !has_unfinished_marker(&open[self.at..])
            // A `)` may close a link's destination opened before.
            && (!typed.contains(')') || !has_label_end(&open[self.at..]));
        plain.then_some(shown_typed)
    }

    /// Words to settle (the open text up to `end`, a word boundary) that
    /// are the last typing rendering's text, text typed after it, the
    /// closers the preview showed after the stand-in, typed, and text that
    /// renders as itself (`**€4.8` + `2M` + `**` + `, `): their rendering
    /// (the stand-in's) and the citation state after them, from the split.
    fn typed_words(&self, open: &str, end: usize) -> Option<(String, IndexBuilder)> {
        let Typing::Split(split) = &self.typing else {
            return None;
        };
        let after = open.get(self.rendered_to..end)?;
        let closers_at = match split.closers.as_str() {
            "" => after.trim_end_matches(' ').len(),
            closers => after.find(closers)?,
        };
        let typed_end = self.rendered_to + closers_at;
        let shown_typed = self.typed_text(&open[..typed_end])?;
        let more = &after[closers_at + split.closers.len()..];
        if shown_typed.len() != closers_at
            || !split.fits(shown_typed)
            || !follows_as_itself(more, "")
        {
            return None;
        }
        let html = [
            "<p>",
            self.stand_in,
            &split.before,
            shown_typed,
            &split.after,
            more.trim_end_matches(' '),
            PARAGRAPH_END,
        ]
        .concat();
        Some((html, split.index.clone()))
    }
}

impl SettledLine {
    /// Where the text typed since the last rendering ends, when what the
    /// preview shows of `piece` (the stand-in and the text since `at`) is
    /// text up to there and then the closers it showed after the typing
    /// stand-in: the text typed since shows as typed text, and what follows
    /// it is held back (`Q3*`) or is those closers, typed (`Q3**`).
    fn typed_then_held(&self, piece: &str, shown: &str) -> Option<usize> {
        let Typing::Split(split) = &self.typing else {
            return None;
        };
        let visible = shown.strip_suffix(split.closers.as_str())?;
        let end = self.at + visible.len().checked_sub(self.stand_in.len())?;
        // (The closers may also have been typed, as the preview would add
        // them; but then a space before them is in the span, where the
        // preview trims it.)
        let held = visible.len() < piece.len() && !visible.ends_with(char::is_whitespace);
        (held && piece.starts_with(visible) && end > self.rendered_to).then_some(end)
    }

    /// The tail for `shown`, the stand-in and the text since `at` as the
    /// preview shows them: rendered (or kept from when the preview last
    /// showed the same), its inline content composed with the head.
    ///
    /// With `piece` (the stand-in and the text since `at`, as typed), when
    /// text typed next may go on it as plain text, the rendering is made
    /// with [`TYPING`] where that text would go, and [`Typing`] set from it
    /// too: one rendering instead of one now and one at the next push.
    fn compose_shown(
        &mut self,
        shown: &str,
        piece: Option<&str>,
        render: &Render<'_>,
        spare: &mut String,
    ) -> Option<String> {
        if shown == self.stand_in.trim_end() {
            // All of it held back, it shows nothing: no need to render.
            return self.compose("", false, spare);
        }
        // (What shows of it may be plain text: `12` of `12 <ci`.)
        if let Some(text) = shown.strip_prefix(self.stand_in) {
            if renders_as_itself(text) && !text.ends_with(' ') {
                return self.compose(text, true, spare);
            }
        }
        let typing_at = piece.and_then(|piece| typing_place(piece, shown));
        let mut split = None;
        Rendering::keep(&mut self.last_piece, shown, |text| {
            if let Some(at) = typing_at {
                let typed = [&text[..at], TYPING, &text[at..]].concat();
                let (html, index) = render(&typed, Some(&self.index));
                if let Some(typing) =
                    TypingSplit::of(&html, &typed, self.stand_in, at, index.clone())
                {
                    split = Some(Typing::Split(Box::new(typing)));
                    return (html.replacen(TYPING, "", 1), index);
                }
            }
            render(text, Some(&self.index))
        });
        if let Some(split) = split {
            self.typing = split;
        }
        let (inner, keep_spaces) =
            stand_in_content(&self.last_piece.as_ref()?.html, self.stand_in)?;
        self.compose(inner, keep_spaces, spare)
    }

    /// `head` + `inner` + `closers`; unless `keep_spaces`, the spaces typed
    /// at the end of `head` end the paragraph and are dropped.
    fn compose(&self, inner: &str, keep_spaces: bool, spare: &mut String) -> Option<String> {
        if inner.is_empty() && self.at_content_start {
            return None;
        }
        let head = if keep_spaces {
            &self.head
        } else {
            &self.head[..self.head.len() - self.typed_spaces]
        };
        Some(tail_in(spare, &[head, inner, &self.closers]))
    }
}
