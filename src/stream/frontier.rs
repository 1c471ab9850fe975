//! The open leaf: a code block or a table committed line by line inside
//! its element, rather than re-sent whole at every push.
//!
//! What makes it exact (docs/streaming.md, "The frontier"): a finished
//! line of a code block, or row of a table, renders the same whatever
//! other lines the block holds. Its HTML depends only on the lines that
//! opened the block, the *opener* (a fence line, an indented code block's
//! first line, a table's header and delimiter rows). So the block's
//! element is handed to the host open ([`Step::Open`]); each later batch of
//! finished lines is parsed after the opener alone, and what the lines add
//! inside the element is handed over ([`Step::Html`]); the same parse says
//! where the block ends ([`Step::Close`]). Only the line being typed, and
//! blank lines that the next line may still make part of the block or not,
//! are the tail.

use std::borrow::Cow;
use std::ops::Range;

use pulldown_cmark::Event;

use pulldown_cmark_escape::escape_html_body_text;

use super::boundary::is_blank;
use super::container::Container;
use super::preview::{self, Fence};
use super::provisional::{Reading, StandIns};
use super::typing::{CodeLine, Typing, NOT_VERBATIM};
use super::{has_any_byte, FindLast, RenderContext};
use crate::cite::index::{IndexBuilder, Offset};
use crate::cite::marker_definitions;
use crate::html::html_capacity;
use crate::parse::{is_inline, is_inline_end, is_inline_tag};

/// A change to the elements the committed HTML leaves open, as a
/// [`Patch`](super::Patch) hands it to a host that builds a DOM.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum Step {
    /// The next `n` bytes of `append` open an element (`<pre><code>`,
    /// `<table>…<tbody>`), and may hold its first content: later steps and
    /// the tail go inside its innermost element (reached from the new
    /// nodes through each last child that is an element).
    Open(usize),
    /// The next `n` bytes of `append` are balanced HTML, appended inside
    /// the innermost open element (the document itself when none is open).
    Html(usize),
    /// The next `n` bytes of `append` are the end tags of the innermost
    /// open element (`</code></pre>`): it is finished.
    Close(usize),
}

/// The code block committed line by line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Code {
    /// A fenced code block.
    Fenced(Fence),
    /// An indented code block.
    Indented,
}

impl Code {
    /// How many spaces of indentation a line of the block loses.
    fn indent(self) -> usize {
        match self {
            Code::Fenced(fence) => fence.indent,
            Code::Indented => 4,
        }
    }
}

/// The blocks committed line by line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LeafKind {
    Code(Code),
    Table,
}

impl LeafKind {
    /// The end tags that close the block's element.
    fn end_tags(self) -> &'static str {
        match self {
            LeafKind::Code(_) => "</code></pre>",
            LeafKind::Table => "</tbody></table>",
        }
    }
}

/// An open leaf block (code, table) whose element the host already has.
#[derive(Debug, Clone)]
pub(super) struct LeafBlock {
    leaf: LeafKind,
    /// The lines that opened the block, as written.
    opener: String,
    /// What the tail renders before the open text (see
    /// [`Frontier::tail_opener`]): a table's delimiter row after a header of
    /// empty cells, which renders as the opener does with its cells left
    /// out (checked when the table opens), so that the tail shows no
    /// header's citations again, nor its syntax to the preview. Empty for
    /// code.
    tail_opener: String,
    /// What a render of the opener then lines starts with, the opener's
    /// own text left out (a table's header cells come out empty): the HTML
    /// before the lines' HTML. (Code is text, escaped character by
    /// character: an indented code block's first line stays in.)
    skeleton: String,
    /// The code tail of the last push, which typing extends.
    typed: TypedCode,
}

/// The HTML of a code block's unfinished end as last shown: code is
/// escaped character by character, so once the line being typed is
/// settled (past the block's indentation, and for a fenced block not
/// starting with the fence's character, so never a closing fence), what is
/// typed after it only adds its own escaped bytes. (Without it, every push
/// escaped the line being typed from its start.)
#[derive(Debug, Clone, Default)]
struct TypedCode {
    /// The open text's length and its HTML, written by hand, when its last
    /// line is settled; `None` after the open text lost committed lines.
    shown: Option<(usize, String)>,
}

impl TypedCode {
    /// The HTML of `open`, when it extends the last open text (which only
    /// grows between commits) by bytes written as they are.
    fn extend(&mut self, open: &str) -> Option<&str> {
        // (A new line, a tab, a CR or NUL: the parser's rules, or the
        // indentation to cut, decide; written again.)
        if !self.extends_verbatim(open) {
            return None;
        }
        let (len, html) = self.shown.as_mut()?;
        write_code(html, open.get(*len..)?);
        *len = open.len();
        Some(html)
    }

    /// Whether text typed after `open` only adds its escaped bytes to the
    /// tail (see [`TypedCode::extend`]), if it has none of [`NOT_VERBATIM`].
    fn extends_verbatim(&self, open: &str) -> bool {
        self.shown.as_ref().is_some_and(|(len, _)| {
            open.get(*len..)
                .is_some_and(|added| !has_any_byte(added, NOT_VERBATIM))
        })
    }

    /// Keeps `html`, the tail of `open` (all of it shown), when typing on
    /// its last line can only add to it.
    fn keep(&mut self, code: Code, open: &str, html: &str) {
        let line = &open[open.find_last(b'\n').map_or(0, |i| i + 1)..];
        let first = line.bytes().find(|&b| b != b' ');
        let spaces = line.bytes().take_while(|&b| b == b' ').count();
        let settled = match (code, first) {
            (_, None | Some(b'\t')) => false,
            (Code::Fenced(fence), Some(first)) => first != fence.char,
            (Code::Indented, Some(_)) => spaces >= code.indent(),
        };
        self.shown = settled.then(|| (open.len(), html.to_owned()));
    }
}

/// What [`Frontier::enter`] opens.
pub(super) struct Entered {
    /// The HTML that opens the element (the [`Step::Open`]).
    pub(super) html: String,
    /// The citations in it.
    pub(super) index: IndexBuilder,
    /// It holds a reference that a later definition may change.
    pub(super) awaits: bool,
    /// The opener's length.
    pub(super) taken: usize,
    pub(super) frontier: Frontier,
}

/// What [`Frontier::commit`] takes from the open text.
#[derive(Debug, Default)]
pub(super) struct Committed {
    /// The bytes of the open text taken.
    pub(super) taken: usize,
    /// Their HTML inside the element.
    pub(super) html: String,
    /// The citations in it (none for code).
    pub(super) index: Option<IndexBuilder>,
    /// It holds a reference that a later definition may change.
    pub(super) awaits: bool,
    /// The block ended with them.
    pub(super) closed: bool,
    /// What was committed of the block must be rendered again: a list
    /// turned loose, or where a container ends was not clear at the end.
    pub(super) redo: bool,
    /// The link reference definitions they make, as written.
    pub(super) definitions: Vec<String>,
}

/// An element that the committed HTML leaves open, and what going on
/// inside it needs.
#[derive(Debug, Clone)]
pub(super) enum Frontier {
    Leaf(LeafBlock),
    Container(Container),
}

impl Frontier {
    /// Opens the block that starts `open` (whose complete lines end at
    /// `complete`), when its opener is complete.
    pub(super) fn enter(
        context: &RenderContext<'_>,
        open: &str,
        complete: usize,
    ) -> Option<Entered> {
        LeafBlock::enter(context, open, complete)
            .or_else(|| Container::enter(context, open, complete))
    }

    /// What the finished lines of `open` (at `at` in the message; its
    /// complete lines end at `complete`; at the message's end, all of it)
    /// add inside the element, and whether the block ended with them.
    pub(super) fn commit(
        &mut self,
        context: &RenderContext<'_>,
        open: &str,
        at: usize,
        complete: usize,
        at_end: bool,
    ) -> Committed {
        match self {
            Frontier::Leaf(leaf) => leaf.commit(context, open, complete, at_end),
            Frontier::Container(container) => container.commit(context, open, at, complete, at_end),
        }
    }

    /// The HTML of `open`, the block's unfinished end, inside its element.
    pub(super) fn tail(&self, context: &RenderContext<'_>, open: &str) -> String {
        match self {
            Frontier::Leaf(leaf) => leaf.tail(context, open),
            Frontier::Container(container) => container.tail(context, open),
        }
    }

    /// The citations [`Frontier::tail`] shows: none in code.
    pub(super) fn tail_citations(
        &self,
        context: &RenderContext<'_>,
        open: &str,
    ) -> Option<IndexBuilder> {
        match self {
            Frontier::Leaf(leaf) => leaf.tail_rendered(context, open).index,
            Frontier::Container(container) => Some(container.tail_rendered(context, open).1),
        }
    }

    /// [`Frontier::tail`] for a push of a host that shows the tail after
    /// every push: a code block's line being typed is escaped once, not
    /// again from its start at every push.
    /// Written after what `out` holds.
    pub(super) fn typed_tail(&mut self, context: &RenderContext<'_>, open: &str, out: &mut String) {
        match self {
            Frontier::Leaf(leaf) => leaf.typed_tail(context, open, out),
            Frontier::Container(container) => out.push_str(&container.tail(context, open)),
        }
    }

    /// [`Typing::Verbatim`] when text typed after `open` (without
    /// [`NOT_VERBATIM`] bytes) only adds itself, escaped, at the end of the
    /// tail: a code line past where it could close its block. Line breaks
    /// go so too in a fenced block at the margin, whose lines are code as
    /// typed (an indented one's lose their indentation). In an indented
    /// block, a line of spaces so far shows nothing (blank lines at its
    /// end are not the block's until code follows them), nor do the spaces
    /// typed on it: [`CodeLine::Blank`], until something else comes.
    pub(super) fn code_typing(&self, open: &str) -> Option<Typing> {
        let Frontier::Leaf(leaf) = self else {
            return None;
        };
        let fence = match leaf.leaf {
            LeafKind::Code(Code::Fenced(fence)) => {
                (fence.indent == 0).then_some(char::from(fence.char))
            }
            LeafKind::Code(Code::Indented) => {
                let line = &open[open.find_last(b'\n').map_or(0, |i| i + 1)..];
                if line.bytes().all(|b| b == b' ') {
                    return Some(Typing::Verbatim {
                        fence: None,
                        line: CodeLine::Blank,
                    });
                }
                None
            }
            LeafKind::Table => return None,
        };
        leaf.typed
            .extends_verbatim(open)
            .then_some(Typing::Verbatim {
                fence,
                line: CodeLine::Settled,
            })
    }

    /// Whether the element is a table's.
    pub(super) fn is_table(&self) -> bool {
        matches!(self, Frontier::Leaf(leaf) if leaf.leaf == LeafKind::Table)
    }

    /// Starts over on an emptied element (see [`Container::restart`]).
    pub(super) fn restart(&mut self) {
        if let Frontier::Container(container) = self {
            container.restart();
        }
    }

    /// The end tags that close the element.
    pub(super) fn end_tags(&self) -> &'static str {
        match self {
            Frontier::Leaf(leaf) => leaf.end_tags(),
            Frontier::Container(container) => container.end_tags(),
        }
    }

    /// Whether what is committed inside may change later (a reference in a
    /// table's row, a list turning loose): the text since the mark is kept.
    pub(super) fn may_await(&self) -> bool {
        match self {
            Frontier::Leaf(leaf) => leaf.may_await(),
            Frontier::Container(_) => true,
        }
    }

    /// The text to render before the open text for its tail through the
    /// tail's caches, the element's start then being cut off by
    /// [`Frontier::inside`]: a table's delimiter row after a header of
    /// empty cells (its own cells, handed over, are not shown again);
    /// for a list or quote, whose open text (`open`) starts its last child,
    /// nothing, or a loose list's stand-in item, so that the child renders
    /// as an item of a list that loose. `None` for code, whose tail is the
    /// code as typed (the caches' preview would hold back `[1` in it). It
    /// holds no citations.
    pub(super) fn tail_opener(&self, open: &str) -> Option<Cow<'_, str>> {
        match self {
            Frontier::Leaf(leaf) => {
                (leaf.leaf == LeafKind::Table).then_some(Cow::Borrowed(leaf.tail_opener.as_str()))
            }
            Frontier::Container(container) => Some(container.tail_opener(open)),
        }
    }

    /// Whether the tail is code as typed: [`Frontier::tail_opener`] is
    /// `None`.
    pub(super) fn shows_code(&self) -> bool {
        matches!(self, Frontier::Leaf(leaf) if leaf.leaf != LeafKind::Table)
    }

    /// What a render of [`Frontier::tail_opener`] then the open text holds
    /// inside the element: `None` when the render is not that element
    /// alone (the open text ended it).
    pub(super) fn inside<'h>(&self, html: &'h str) -> Option<&'h str> {
        self.inside_range(html).map(|inside| &html[inside])
    }

    /// Where [`Frontier::inside`] is in `html`: a tail can then be cut out
    /// of the rendering in its own buffer.
    pub(super) fn inside_range(&self, html: &str) -> Option<Range<usize>> {
        self.inside_range_if(html, |inner| never_closes_more(inner, self.end_tags()))
    }

    /// [`Frontier::inside_range`] of `html`, a render of the open text
    /// `open` (at `at` in the message) for the tail: when the open text of
    /// a list or quote reads as its element alone
    /// ([`Container::holds_one_element`]), or `html` is a tail that stayed
    /// inside with only text added in it (`stayed`), what is inside is not
    /// read again to check that it stays inside.
    pub(super) fn tail_range(
        &self,
        html: &str,
        open: &str,
        at: usize,
        stayed: bool,
    ) -> Option<Range<usize>> {
        let one = matches!(self, Frontier::Container(c) if c.holds_one_element(open, at));
        self.inside_range_if(html, |inner| {
            stayed || one || never_closes_more(inner, self.end_tags())
        })
    }

    /// Where what is inside the element is in `html`, when `stays` holds
    /// of it.
    fn inside_range_if(
        &self,
        html: &str,
        stays: impl FnOnce(&str) -> bool,
    ) -> Option<Range<usize>> {
        let start = match self {
            Frontier::Leaf(_) => {
                memchr::memmem::find(html.as_bytes(), TBODY_START.as_bytes())? + TBODY_START.len()
            }
            Frontier::Container(container) => {
                let start = memchr::memchr(b'\n', html.as_bytes())? + 1;
                start + container.stand_in_html(&html[start..])?
            }
        };
        let inner = html[start..]
            .strip_suffix('\n')?
            .strip_suffix(self.end_tags())?;
        // (`> a\n\n>` renders two quotes: the first one's end tag and the
        // second one's start are not inside the first.)
        stays(inner).then_some(start..start + inner.len())
    }

    /// Whether the line being typed at the end of `open` already ends the
    /// block.
    pub(super) fn typing_ends_block(&self, open: &str, complete: usize) -> bool {
        match self {
            Frontier::Leaf(leaf) => leaf.typing_ends_block(open, complete),
            Frontier::Container(container) => container.typing_ends_block(open, complete),
        }
    }

    /// Whether `open` is a list's item being typed alone, its first line
    /// decided by its start: the items before it were committed as it
    /// began ([`Frontier::typing_starts_child`]), and typing on commits
    /// nothing more.
    pub(super) fn types_item_alone(&self, open: &str) -> bool {
        match self {
            Frontier::Leaf(_) => false,
            Frontier::Container(container) => container.types_item_alone(open),
        }
    }

    /// The content column of the list item that `open` (at `at` in the
    /// message; its complete lines end at `complete`) goes on with, when a
    /// next line indented to it, not blank, commits nothing (see
    /// [`Container::item_going_on`]).
    pub(super) fn item_going_on(&self, open: &str, at: usize, complete: usize) -> Option<usize> {
        match self {
            Frontier::Leaf(_) => None,
            Frontier::Container(container) => container.item_going_on(&open[..complete], at),
        }
    }

    /// Whether the line being typed at the end of `open` (whose complete
    /// lines end at `complete`) already starts the element's next child:
    /// then every child before it is final (a list's next item, see
    /// [`Container::typing_starts_child`]).
    pub(super) fn typing_starts_child(&self, open: &str, complete: usize) -> bool {
        match self {
            Frontier::Leaf(_) => false,
            Frontier::Container(container) => container.typing_starts_child(open, complete),
        }
    }
}

/// Whether `open` (whose complete lines end at `complete`) starts with
/// what reads as the opener of a leaf block committed line by line.
pub(super) fn opens_at(open: &str, complete: usize) -> bool {
    opener_at(open, complete).is_some() || super::container::opens_at(open, complete)
}

/// The leaf block that `open` starts with, when its opener (a fence, a
/// line indented as code, a table's header and delimiter rows) is
/// complete: its kind and the opener's length.
fn opener_at(open: &str, complete: usize) -> Option<(LeafKind, usize)> {
    let first_end = open[..complete].find('\n')? + 1;
    let first = &open[..first_end];
    if let Some(fence) = preview::fence_of(first) {
        return Some((LeafKind::Code(Code::Fenced(fence)), first_end));
    }
    if first.starts_with("    ") && !is_blank(first) {
        return Some((LeafKind::Code(Code::Indented), first_end));
    }
    if !first.contains('|') {
        return None;
    }
    let second_end = first_end + open[first_end..complete].find('\n')? + 1;
    preview::is_delimiter_row(&open[first_end..second_end]).then_some((LeafKind::Table, second_end))
}

/// The start of the first complete line of `open`, at or after `from` (a
/// line start), that is a code fence following a line that is not blank:
/// a fence interrupts a paragraph, so no blank line comes before it to
/// cut at.
pub(super) fn fence_after_text(open: &str, from: usize, complete: usize) -> Option<usize> {
    let mut start = from;
    while start < complete {
        let end = start + open[start..complete].find('\n')? + 1;
        if start > 0 && preview::fence_of(&open[start..end]).is_some() {
            let before_start = open[..start - 1].find_last(b'\n').map_or(0, |i| i + 1);
            if !is_blank(&open[before_start..start]) {
                return Some(start);
            }
        }
        start = end;
    }
    None
}

impl LeafBlock {
    /// Opens the leaf block that starts `open` (whose complete lines end
    /// at `complete`), when its opener is complete.
    pub(super) fn enter(
        context: &RenderContext<'_>,
        open: &str,
        complete: usize,
    ) -> Option<Entered> {
        let (leaf, opener_len) = opener_at(open, complete)?;
        let opener = &open[..opener_len];
        let element_start = |html: &str| {
            html.strip_suffix('\n')?
                .strip_suffix(leaf.end_tags())
                .map(str::to_owned)
        };
        let empty = render_inside(context, opener, "", leaf);
        let skeleton = element_start(&empty.html)?;
        // The opener as the message renders it, the block's start still open
        // after it: a table's with its header cells (and their citations,
        // counted here once); a code block's is the skeleton.
        let (html, index, awaits) = match leaf {
            LeafKind::Table => {
                let real = render_inside(context, "", opener, leaf);
                (element_start(&real.html)?, real.index, real.awaits)
            }
            LeafKind::Code(_) => (skeleton.clone(), empty.index, false),
        };
        let starts = match leaf {
            LeafKind::Code(_) => "<pre><code",
            LeafKind::Table => "<table>",
        };
        if !html.starts_with(starts) || empty.closed_at.is_some() {
            return None;
        }
        let tail_opener = match leaf {
            LeafKind::Table => {
                let delimiter = &opener[opener.find('\n')? + 1..];
                let header = preview::stand_in_header(delimiter);
                (render_inside(context, &header, "", leaf).html == empty.html).then_some(header)?
            }
            LeafKind::Code(_) => String::new(),
        };
        Some(Entered {
            html,
            index,
            awaits,
            taken: opener_len,
            frontier: Frontier::Leaf(LeafBlock {
                leaf,
                opener: opener.to_owned(),
                tail_opener,
                skeleton,
                typed: TypedCode::default(),
            }),
        })
    }

    /// The end tags that close the block's element.
    pub(super) fn end_tags(&self) -> &'static str {
        self.leaf.end_tags()
    }

    /// Whether its lines may hold references (a table's rows), which a
    /// later definition may change.
    pub(super) fn may_await(&self) -> bool {
        self.leaf == LeafKind::Table
    }

    /// What the finished lines of `open` (its complete lines end at
    /// `complete`; at the message's end, all of it) add inside the block's
    /// element, and whether the block ended with them.
    pub(super) fn commit(
        &mut self,
        context: &RenderContext<'_>,
        open: &str,
        complete: usize,
        at_end: bool,
    ) -> Committed {
        let committed = self.commit_lines(context, open, complete, at_end);
        if committed.taken > 0 {
            // (The open text loses those lines.)
            self.typed = TypedCode::default();
        }
        committed
    }

    /// [`LeafBlock::commit`]'s lines.
    fn commit_lines(
        &self,
        context: &RenderContext<'_>,
        open: &str,
        complete: usize,
        at_end: bool,
    ) -> Committed {
        if !at_end && self.typing_ends_block(open, complete) {
            let ended = self.lines(context, open);
            if ended.closed {
                return ended;
            }
        }
        // Blank lines at the end may yet be part of the block or end it:
        // the next line that is not blank tells.
        let decided = match at_end {
            true => open.len(),
            false => without_blank_lines_at_end(&open[..complete]).len(),
        };
        let lines = &open[..decided];
        let mut committed = match at_end {
            // (At the end, the parser reads the last line: one without its
            // newline is code only if it is not blank.)
            true => self.parsed_lines(context, lines),
            false => self.lines(context, lines),
        };
        committed.closed |= at_end;
        committed
    }

    /// What `lines` add to the block: code line by line where it is
    /// plain, by the parser where not.
    fn lines(&self, context: &RenderContext<'_>, lines: &str) -> Committed {
        let plain = match self.leaf {
            LeafKind::Code(code) => plain_code(code, lines),
            LeafKind::Table => None,
        };
        plain.unwrap_or_else(|| self.parsed_lines(context, lines))
    }

    /// [`Frontier::commit`] by the parser: `lines` rendered after the
    /// opener, up to where the block ends.
    fn parsed_lines(&self, context: &RenderContext<'_>, lines: &str) -> Committed {
        let inside = render_inside(context, &self.opener, lines, self.leaf);
        let (taken, inside, closed) = match inside.closed_at {
            Some(end) if end < lines.len() => (
                end,
                render_inside(context, &self.opener, &lines[..end], self.leaf),
                true,
            ),
            Some(end) => (end, inside, true),
            None => (lines.len(), inside, false),
        };
        Committed {
            taken,
            html: self.lines_html(&inside.html),
            index: Some(inside.index),
            awaits: inside.awaits,
            closed,
            ..Committed::default()
        }
    }

    /// Whether the line being typed at the end of `open` (whose complete
    /// lines end at `complete`) already ends the block: a table's row after
    /// a blank line; an indented code block's line at the margin, with
    /// fewer than four spaces (and no tab) before its first character. (A
    /// fence closes only with its line complete: "```x" is code.)
    pub(super) fn typing_ends_block(&self, open: &str, complete: usize) -> bool {
        let typed = &open[complete..];
        let starts_at_margin = || {
            let spaces = typed.bytes().take_while(|&b| b == b' ').count();
            spaces < 4
                && typed
                    .as_bytes()
                    .get(spaces)
                    .is_some_and(|b| !matches!(b, b' ' | b'\t'))
        };
        match self.leaf {
            LeafKind::Code(Code::Indented) => starts_at_margin(),
            LeafKind::Code(Code::Fenced(_)) => false,
            LeafKind::Table => {
                !is_blank(typed) && without_blank_lines_at_end(&open[..complete]).len() < complete
            }
        }
    }

    /// The part of `html` (a render of the opener then lines) that the
    /// lines add inside the element.
    fn lines_html(&self, html: &str) -> String {
        let inner = html
            .strip_prefix(self.skeleton.as_str())
            .and_then(|inner| inner.strip_suffix('\n'))
            .and_then(|inner| inner.strip_suffix(self.leaf.end_tags()));
        inner.unwrap_or_default().to_owned()
    }

    /// The HTML of `open`, the block's unfinished end, inside its element:
    /// code as typed, but for a closing fence being typed and an indented
    /// block's blank lines at the end; a table's rows through the preview,
    /// which hides syntax still being typed.
    pub(super) fn tail(&self, context: &RenderContext<'_>, open: &str) -> String {
        self.tail_rendered(context, open).html
    }

    /// [`LeafBlock::tail`], and its citations (none for code).
    fn tail_rendered(&self, context: &RenderContext<'_>, open: &str) -> Committed {
        match self.leaf {
            LeafKind::Code(code) => self.lines(context, shown_code(code, open)),
            LeafKind::Table => {
                let whole = [self.tail_opener.as_str(), open].concat();
                let preview = preview::preview(&whole);
                let rows = preview.text.strip_prefix(self.tail_opener.as_str());
                self.lines(context, rows.unwrap_or(open))
            }
        }
    }

    /// [`LeafBlock::tail`], a code block's extending the last one's HTML
    /// when typing only added to it.
    fn typed_tail(&mut self, context: &RenderContext<'_>, open: &str, out: &mut String) {
        let LeafKind::Code(code) = self.leaf else {
            return out.push_str(&self.tail(context, open));
        };
        if let Some(html) = self.typed.extend(open) {
            return out.push_str(html);
        }
        let shown = shown_code(code, open);
        match plain_code(code, shown) {
            Some(plain) if shown.len() == open.len() => {
                self.typed.keep(code, open, &plain.html);
                out.push_str(&plain.html);
            }
            Some(plain) => out.push_str(&plain.html),
            None => out.push_str(&self.parsed_lines(context, shown).html),
        }
    }
}

/// What of `open`, a code block's unfinished end, the tail shows: the code
/// as typed, but for a closing fence being typed (or spaces that may start
/// one) and an indented block's blank lines at the end.
fn shown_code(code: Code, open: &str) -> &str {
    let line_start = open.find_last(b'\n').map_or(0, |i| i + 1);
    let typed = open[line_start..].trim_start_matches(' ');
    match code {
        // (A line of spaces is held too: it may become one. Spaces at the
        // end of a `<pre>` show nothing, and a host showing typing holds
        // the line back until it cannot close the block.)
        Code::Fenced(fence) if typed.bytes().all(|b| b == fence.char) => &open[..line_start],
        Code::Fenced(_) => open,
        Code::Indented => without_blank_lines_at_end(open),
    }
}

/// Code lines committed by hand, for lines that hold nothing the parser
/// reads in a way of its own (a tab in the indentation, a CR, a NUL):
/// `None` for others. A line of code loses the block's indentation and is
/// escaped; a fenced block ends after a closing fence, an indented one
/// before a line at the margin (the blank lines before it are not its
/// own).
fn plain_code(code: Code, lines: &str) -> Option<Committed> {
    if has_any_byte(lines, b"\0\r") {
        return None;
    }
    let indent = code.indent();
    let mut committed = Committed {
        html: String::with_capacity(lines.len() + lines.len() / 8),
        ..Committed::default()
    };
    let mut blank_from = None;
    let mut at = 0;
    for line in lines.split_inclusive('\n') {
        let spaces = line.bytes().take_while(|&b| b == b' ').count();
        if line.as_bytes().get(spaces) == Some(&b'\t') && spaces < indent {
            return None;
        }
        let blank = is_blank(line);
        match code {
            Code::Fenced(fence) if closes(fence, line)? => {
                committed.taken = at + line.len();
                committed.closed = true;
                return Some(committed);
            }
            Code::Indented if blank => {
                blank_from.get_or_insert(at);
            }
            Code::Indented if spaces < indent => {
                committed.taken = blank_from.unwrap_or(at);
                committed.closed = true;
                return Some(committed);
            }
            _ => {}
        }
        if !blank || matches!(code, Code::Fenced(_)) {
            // (An indented block's blank lines are its own once a line
            // of code follows them.)
            let from = blank_from.take().unwrap_or(at);
            for line in lines[from..at + line.len()].split_inclusive('\n') {
                let cut = line.bytes().take(indent).take_while(|&b| b == b' ').count();
                write_code(&mut committed.html, &line[cut..]);
            }
        }
        at += line.len();
        if blank_from.is_none() {
            committed.taken = at;
        }
    }
    Some(committed)
}

/// Whether `line` closes the code block that `fence` opened: at most three
/// spaces, then a run of the fence's character at least as long, then
/// only spaces. `None` when a tab follows such a run (left to the parser).
fn closes(fence: Fence, line: &str) -> Option<bool> {
    let indent = line.bytes().take_while(|&b| b == b' ').count();
    let rest = &line[indent..];
    let run = rest.bytes().take_while(|&b| b == fence.char).count();
    if indent > 3 || run < fence.len {
        return Some(false);
    }
    let after = rest[run..].trim_end_matches('\n');
    if after.contains('\t') {
        return None;
    }
    Some(after.bytes().all(|b| b == b' '))
}

/// Writes a line of code as the HTML writer writes text.
fn write_code(html: &mut String, code: &str) {
    // Writing to a String cannot fail.
    let _ = escape_html_body_text(html, code);
}

/// A render of lines after an opener.
struct Inside {
    html: String,
    /// The citation state after them.
    index: IndexBuilder,
    /// Where, in the lines, the block ended, when the lines hold something
    /// after it.
    closed_at: Option<usize>,
    /// They hold a reference that a later definition may change.
    awaits: bool,
}

/// `text` without the blank lines at its end.
pub(super) fn without_blank_lines_at_end(text: &str) -> &str {
    let mut end = text.len();
    while end > 0 {
        let line = text[..end].strip_suffix('\n').unwrap_or(&text[..end]);
        let line_start = line.find_last(b'\n').map_or(0, |i| i + 1);
        if !is_blank(&text[line_start..end]) {
            break;
        }
        end = line_start;
    }
    &text[..end]
}

/// Where a table's rows start in its HTML.
const TBODY_START: &str = "<tbody>\n";

/// Whether `html` never closes more elements named as `end_tag` (`</ul>`)
/// than it opened before: read left to right, it stays inside one.
fn never_closes_more(html: &str, end_tag: &str) -> bool {
    let name = end_tag
        .trim_start_matches("</")
        .trim_end_matches('>')
        .as_bytes();
    let html = html.as_bytes();
    let mut depth = 0usize;
    // (Per push, over the tail: `<` found by memchr, a tag's name compared
    // as bytes.)
    for at in memchr::memchr_iter(b'<', html) {
        let tag = &html[at + 1..];
        if let Some(closing) = tag.strip_prefix(b"/") {
            if closing
                .strip_prefix(name)
                .is_some_and(|rest| rest.first() == Some(&b'>'))
            {
                let Some(less) = depth.checked_sub(1) else {
                    return false;
                };
                depth = less;
            }
        } else if tag
            .strip_prefix(name)
            .is_some_and(|rest| matches!(rest.first(), Some(b'>' | b' ')))
        {
            depth += 1;
        }
    }
    true
}

/// Renders `lines` after `opener`, whose own text is left out (a code
/// block's fence or first line stays in: code is one text), continuing the
/// stream's citation state; tells where the block that the opener starts
/// ends, and whether the lines hold a reference that a later definition
/// may change.
fn render_inside(context: &RenderContext<'_>, opener: &str, lines: &str, leaf: LeafKind) -> Inside {
    // (Code holds no footnotes.)
    let reading = match leaf {
        LeafKind::Table => context.reading,
        LeafKind::Code(_) => Reading::Code,
    };
    let stand_ins = StandIns::new(lines, reading);
    context.parse_after(
        stand_ins.as_str(),
        opener,
        lines,
        context.links_by_reference,
        |text, lines_start, events, notes| {
            let definitions = marker_definitions(events.reference_definitions());
            let mut watch = BlockEnd::default();
            // (A table's header cells are left out: their citations were counted
            // when the header was handed over.)
            let events = events
                .filter(|(event, range)| stand_ins.keep(event, range))
                .filter(|(event, range)| {
                    leaf != LeafKind::Table || range.start >= lines_start || !is_inline(event)
                })
                .inspect(|(event, range)| watch.see(event, range));
            let index = context.index.part(Offset {
                add: context.committed,
                sub: lines_start,
            });
            let (written, index) = context.write_part(
                text,
                events,
                index,
                definitions,
                html_capacity(lines.len()),
                &stand_ins,
            );
            Inside {
                html: written.html,
                index,
                closed_at: watch.closed_at(text, lines_start),
                awaits: notes.awaits(),
            }
        },
    )
}

/// Where the first block of a parse ends, and whether anything follows.
#[derive(Default)]
struct BlockEnd {
    depth: usize,
    /// The end of the last event inside the block.
    content_end: usize,
    end: Option<usize>,
    followed: bool,
}

impl BlockEnd {
    fn see(&mut self, event: &Event<'_>, range: &Range<usize>) {
        if self.end.is_some() {
            self.followed = true;
            return;
        }
        match event {
            Event::Start(tag) if !is_inline_tag(tag) => {
                if self.depth > 0 {
                    self.content_end = self.content_end.max(range.end);
                }
                self.depth += 1;
            }
            Event::End(tag) if !is_inline_end(*tag) => {
                self.depth = self.depth.saturating_sub(1);
                if self.depth == 0 {
                    self.end = Some(range.end);
                } else {
                    self.content_end = self.content_end.max(range.end);
                }
            }
            _ if self.depth > 0 => self.content_end = self.content_end.max(range.end),
            _ => {}
        }
    }

    /// Where, after `lines_start`, the block ended, when something that is
    /// not its own follows it: a block, or text it did not take in (a
    /// closing fence, a link reference definition).
    fn closed_at(&self, text: &str, lines_start: usize) -> Option<usize> {
        let end = self.end?;
        let untaken = text
            .get(self.content_end.max(lines_start)..)
            .is_some_and(|rest| !rest.trim().is_empty());
        (self.followed || untaken).then(|| end.saturating_sub(lines_start))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cite::index::IndexBuilder;
    use crate::html::SourceAttributes;
    use crate::options::Options;
    use crate::source::SourceOrder;
    use crate::stream::definitions::Definitions;
    use proptest::prelude::*;
    use std::cell::RefCell;

    /// Whether committing `lines` after `opener` line by line gives what
    /// the parser gives, wherever it gives anything. (As a commit does,
    /// blank lines at the end wait.)
    fn plain_is_parsed(opener: &str, lines: &str) -> Result<(), TestCaseError> {
        let lines = without_blank_lines_at_end(lines);
        let options = Options::default();
        let order = SourceOrder::new(None);
        let attributes = RefCell::new(SourceAttributes::default());
        let index = IndexBuilder::new();
        let context = RenderContext {
            options: &options,
            source_order: &order,
            source_attributes: &attributes,
            definitions: &Definitions::default(),
            committed: 0,
            index: &index,
            reading: Reading::Provisional,
            links_by_reference: false,
        };
        let open = [opener, lines].concat();
        let Some(Entered { frontier, .. }) = Frontier::enter(&context, &open, open.len()) else {
            return Ok(());
        };
        let Frontier::Leaf(frontier) = frontier else {
            return Ok(());
        };
        let LeafKind::Code(code) = frontier.leaf else {
            return Ok(());
        };
        if let Some(plain) = plain_code(code, lines) {
            let parsed = frontier.parsed_lines(&context, lines);
            prop_assert_eq!(
                (plain.closed, &plain.html),
                (parsed.closed, &parsed.html),
                "{:?} then {:?}",
                opener,
                lines
            );
            // (The parser's block may end before its closing fence's
            // newline, a blank line for the blocks after it.)
            let newline_after = lines[parsed.taken..].starts_with('\n');
            prop_assert!(
                plain.taken == parsed.taken || newline_after && plain.taken == parsed.taken + 1,
                "{} taken, the parser took {}: {:?} then {:?}",
                plain.taken,
                parsed.taken,
                opener,
                lines
            );
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(crate::stream::common::cases(2000)))]

        #[test]
        fn lines_committed_by_hand_are_what_the_parser_makes(
            opener in prop_oneof![
                Just("```\n"), Just("```rust\n"), Just("  ~~~~\n"), Just(" ````\n"), Just("    x\n"),
                Just("   ```\n"), Just("    \tx\n"),
            ],
            lines in prop::collection::vec(
                prop_oneof![
                    Just("```"), Just("~~~~"), Just("````"), Just("    "), Just("  "), Just(" "),
                    Just("\t"), Just("\n"), Just("x"), Just("<&>"), Just("`"), Just("\u{a0}"),
                ],
                0..24,
            ),
        ) {
            let mut lines = lines.concat();
            if !lines.is_empty() && !lines.ends_with('\n') {
                lines.push('\n');
            }
            plain_is_parsed(opener, &lines)?;
        }
    }
}
