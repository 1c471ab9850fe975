//! The open container: a list or a block quote whose element is handed to
//! the host open, its children (a list's items, a quote's blocks)
//! committed into it one by one.
//!
//! What makes it exact (docs/streaming.md, "The frontier"): every child
//! but the last is final — a later line can only go on with the last one,
//! or end the container. So the text still to come of a container starts
//! at its last child, and is parsed alone: a quote's lines carry their own
//! `>`; a list's items are parsed after a stand-in item with the same
//! marker (the list's *opener*), followed by a blank line when the list is
//! loose, so that they render as items of a list that loose. A list is
//! tight until a blank line comes between its items or in one: then what
//! was committed of it is rendered again, once (a rewind).

use std::cell::Cell;
use std::ops::Range;

use pulldown_cmark::Event;

use super::boundary::is_blank;
use super::frontier::{without_blank_lines_at_end, Committed, Entered, Frontier};
use super::provisional::StandIns;
use super::{preview, RenderContext};
use crate::cite::index::{IndexBuilder, Offset};
use crate::cite::marker_definitions;
use crate::html::html_capacity;
use crate::parse::{is_inline_end, is_inline_tag};

/// An open list or block quote.
#[derive(Debug, Clone)]
pub(super) struct Container {
    kind: Kind,
    /// The end tags that close its element.
    end_tags: &'static str,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind {
    /// A list: whether it is loose; whether a blank line ends what was
    /// committed of it (the next item makes it loose); whether any item
    /// was committed.
    List {
        loose: bool,
        blank_before: bool,
        committed: bool,
    },
    Quote,
}

/// The list item or block quote that `open` starts with, when its first
/// line is complete: the item's marker with its indentation (`- `,
/// `  1. `), none for a quote.
fn start_at(open: &str, complete: usize) -> Option<Option<String>> {
    start_of(&open[..open[..complete].find('\n')?])
}

/// [`start_at`] of the line `first`, ended or not.
fn start_of(first: &str) -> Option<Option<String>> {
    let indent = first.bytes().take_while(|&b| b == b' ').count();
    if indent > 3 {
        return None;
    }
    let rest = &first[indent..];
    if rest.starts_with('>') {
        return Some(None);
    }
    let (_, after) = preview::item_marker(rest)?;
    let marker_len = rest.len() - after.len();
    Some(Some(format!("{} ", &first[..indent + marker_len])))
}

/// Whether `open` starts with what reads as a list item or a block quote.
pub(super) fn opens_at(open: &str, complete: usize) -> bool {
    start_at(open, complete).is_some()
}

impl Container {
    /// Opens the list or block quote that starts `open`, when its first
    /// line is complete: its element's start tag (`<ul>\n`, `<ol
    /// start="3">\n`, `<blockquote>\n`). Nothing of its content is taken
    /// yet.
    pub(super) fn enter(
        context: &RenderContext<'_>,
        open: &str,
        complete: usize,
    ) -> Option<Entered> {
        let marker = start_at(open, complete)?;
        let first_end = open[..complete].find('\n')? + 1;
        let rendered = render_children(context, "", &open[..first_end]);
        let start_tag = rendered.html.split_inclusive('\n').next()?;
        let ends_at_once = shape(context, "", &open[..first_end])
            .seems_to_end(&open[..first_end])
            .is_some_and(|end| end < first_end);
        let (kind, end_tags, starts) = match marker {
            Some(_) => {
                let kind = Kind::List {
                    loose: false,
                    blank_before: false,
                    committed: false,
                };
                match start_tag.starts_with("<ol") {
                    true => (kind, "</ol>", "<ol"),
                    false => (kind, "</ul>", "<ul>"),
                }
            }
            None => (Kind::Quote, "</blockquote>", "<blockquote"),
        };
        if !start_tag.starts_with(starts) || ends_at_once {
            return None;
        }
        Some(Entered {
            html: start_tag.to_owned(),
            index: context.index.part(context.offset()),
            awaits: false,
            taken: 0,
            frontier: Frontier::Container(Container { kind, end_tags }),
        })
    }

    /// The end tags that close its element.
    pub(super) fn end_tags(&self) -> &'static str {
        self.end_tags
    }

    /// Starts over on an emptied element, as it was when it opened: its
    /// children are committed again from the first.
    pub(super) fn restart(&mut self) {
        if let Kind::List {
            loose,
            blank_before,
            committed,
        } = &mut self.kind
        {
            (*loose, *blank_before, *committed) = (false, false, false);
        }
    }

    /// The stand-in parsed before `open`, the text still to come: a list
    /// item with the marker (and indentation) of the item `open` starts
    /// with, then a blank line when the list is loose or a blank line came
    /// before `open`.
    fn opener(&self, open: &str) -> String {
        match &self.kind {
            Kind::List {
                loose,
                blank_before,
                ..
            } => {
                // (The open text may be one line being typed: the items
                // before it were committed as it began.)
                let first = open.split('\n').next().unwrap_or_default();
                let marker = start_of(first).flatten().unwrap_or_else(|| "- ".to_owned());
                let blank = if *loose || *blank_before { "\n" } else { "" };
                format!("{marker}x\n{blank}")
            }
            Kind::Quote => String::new(),
        }
    }

    /// Commits the children of `open` (its complete lines end at
    /// `complete`; at the message's end, all of it) that are final: all
    /// but the last, or all up to where the container ends.
    pub(super) fn commit(
        &mut self,
        context: &RenderContext<'_>,
        open: &str,
        complete: usize,
        at_end: bool,
    ) -> Committed {
        let opener = self.opener(open);
        if !at_end && self.typing_ends_block(open, complete) {
            let shape = shape(context, &opener, open);
            if let Some((end, part)) = self.end_in(context, &opener, open, &shape) {
                return self.take(&opener, &open[..end], part, true);
            }
        }
        // (One line that is an item of the list, the open text's first:
        // its only child, and the list goes on. Nothing to parse.)
        if !at_end && self.is_one_item_line(&open[..complete]) {
            return Committed::default();
        }
        let decided = if at_end { open.len() } else { complete };
        let text = &open[..decided];
        let shape = shape(context, &opener, text);
        if shape.seems_to_end(text).is_some() {
            if let Some((end, part)) = self.end_in(context, &opener, text, &shape) {
                return self.take(&opener, &open[..end], part, true);
            }
            if at_end {
                // (Where it ends is not clear: all is rendered again.)
                return Committed {
                    redo: true,
                    ..Committed::default()
                };
            }
        }
        if at_end {
            return self.take(&opener, text, render_children(context, &opener, text), true);
        }
        let Some(last) = shape.last_child.filter(|&last| last > 0) else {
            return Committed::default();
        };
        let child_line_end = open[last..].find('\n').map_or(open.len(), |i| last + i + 1);
        let between = &open[shape.before_last_child.min(last)..child_line_end];
        if !self.marks(between) {
            return Committed::default();
        }
        let children = &open[..last];
        self.take(
            &opener,
            children,
            render_children(context, &opener, children),
            false,
        )
    }

    /// Where the container ends in `text` (whose `shape` this is), when it
    /// does: after its last child's line, checked by rendering `text` whole
    /// against the container up to there and the rest after it (the
    /// parser's own end of a list may take in a definition that belongs to
    /// a paragraph after it). With the render of the container's part.
    fn end_in(
        &self,
        context: &RenderContext<'_>,
        opener: &str,
        text: &str,
        shape: &Shape,
    ) -> Option<(usize, Children)> {
        let end = shape.seems_to_end(text)?;
        let whole = render_children(context, opener, text);
        let part = render_children(context, opener, &text[..end]);
        self.children_html(&part.html, opener)?;
        let rest = context.render_open(&text[end..], Some(&part.index), None);
        (whole.html.len() == part.html.len() + rest.html.len()
            && whole.html.starts_with(&part.html)
            && whole.html.ends_with(&rest.html))
        .then_some((end, part))
    }

    /// Commits `children`, all final, `rendered` after `opener`; `closed`
    /// when the container ends with them.
    fn take(
        &mut self,
        opener: &str,
        children: &str,
        rendered: Children,
        closed: bool,
    ) -> Committed {
        let Some((html, loose)) = self.children_html(&rendered.html, opener) else {
            return Committed::default();
        };
        let mut redo = false;
        if let Kind::List {
            loose: was_loose,
            blank_before,
            committed,
            ..
        } = &mut self.kind
        {
            redo = loose && !*was_loose && *committed;
            *was_loose |= loose;
            *committed |= !html.is_empty();
            *blank_before = without_blank_lines_at_end(children).len() < children.len();
        }
        Committed {
            taken: children.len(),
            html: html.to_owned(),
            index: Some(rendered.index),
            awaits: rendered.awaits,
            closed,
            redo,
            definitions: rendered.definitions,
        }
    }

    /// Whether the text from the end of the content before the last
    /// child to that child's line (`between`, then the child) holds only
    /// blank lines and the container's marks, and the child's line carries
    /// the marks: then the last child parses in the container alone. (A
    /// line that the parser reads as no event, a definition or an alert's
    /// `[!NOTE]`, makes the next line go on with it, and a child may start
    /// on a lazy line without `>`.)
    fn marks(&self, between: &str) -> bool {
        let quote = self.kind == Kind::Quote;
        let mut lines = between.split_inclusive('\n').peekable();
        while let Some(line) = lines.next() {
            let indent = line.bytes().take_while(|&b| b == b' ').count();
            let rest = match quote {
                true if indent <= 3 => line[indent..].strip_prefix('>'),
                true => None,
                false => Some(line),
            };
            let Some(rest) = rest else {
                return false;
            };
            // (The child's own line: its mark is enough; nor `> [!NOTE]`,
            // which alone would read as an alert's mark.)
            if lines.peek().is_none() {
                return !rest.trim_start().starts_with("[!");
            }
            if !is_blank(rest) {
                return false;
            }
        }
        true
    }

    /// The children's HTML in `html` (a render of `opener` then children),
    /// and whether a list rendered loose.
    fn children_html<'h>(&self, html: &'h str, opener: &str) -> Option<(&'h str, bool)> {
        let (_start_tag, rest) = html.split_once('\n')?;
        let rest = rest.strip_suffix('\n')?.strip_suffix(self.end_tags)?;
        if opener.is_empty() {
            return Some((rest, false));
        }
        if let Some(rest) = rest.strip_prefix("<li>x</li>\n") {
            return Some((rest, false));
        }
        rest.strip_prefix("<li>\n<p>x</p>\n</li>\n")
            .map(|rest| (rest, true))
    }

    /// Whether the line being typed at the end of `open` ends the container
    /// already: after a blank line, a line at the margin that cannot go on
    /// with it (not `>` for a quote; not a list marker's first character
    /// for a list).
    pub(super) fn typing_ends_block(&self, open: &str, complete: usize) -> bool {
        let typed = &open[complete..];
        let Some(&first) = typed.as_bytes().first() else {
            return false;
        };
        let after_blank = without_blank_lines_at_end(&open[..complete]).len() < complete;
        let goes_on = match self.kind {
            Kind::Quote => first == b'>',
            Kind::List { .. } => matches!(first, b'-' | b'*' | b'+' | b'0'..=b'9'),
        };
        after_blank && !matches!(first, b' ' | b'\t') && !goes_on
    }

    /// Whether `text` is one line, ended, that is a list item as
    /// [`Container::typing_starts_item`] reads one: a marker, one to four
    /// spaces, then a letter or digit.
    fn is_one_item_line(&self, text: &str) -> bool {
        let Some(line) = text.strip_suffix('\n') else {
            return false;
        };
        matches!(self.kind, Kind::List { .. })
            && !super::has_any_byte(line, b"\n\r\t")
            && item_line(line)
    }

    /// Whether the line being typed at the end of `open` (after its
    /// complete lines, up to `complete`) is already the list's next item:
    /// the marker of the item `open` starts with, at its indentation, one
    /// to four spaces, then a letter or digit (no thematic break, no empty
    /// item, no indented code). A line starting with a list marker goes on
    /// with no item before it (it is no lazy line), so those items are
    /// final: committed then, the open text holds the item being typed
    /// alone, not the one before it too.
    pub(super) fn typing_starts_item(&self, open: &str, complete: usize) -> bool {
        if !matches!(self.kind, Kind::List { .. }) || complete == 0 {
            return false;
        }
        let typed = &open[complete..];
        let first = &open[..open.find('\n').unwrap_or(open.len())];
        let indent = |line: &str| line.bytes().take_while(|&b| b == b' ').count();
        let (at, first_at) = (indent(typed), indent(first));
        if at != first_at || at > 3 {
            return false;
        }
        let (Some((mark, _)), Some((first_mark, _))) = (
            preview::item_marker(&typed[at..]),
            preview::item_marker(&first[at..]),
        ) else {
            return false;
        };
        mark == first_mark && item_line(typed)
    }

    /// The HTML of `open`, the container's unfinished end, inside its
    /// element, through the preview, which hides syntax still being typed.
    pub(super) fn tail(&self, context: &RenderContext<'_>, open: &str) -> String {
        self.tail_rendered(context, open).0
    }

    /// [`Container::tail`] and the citations it shows.
    pub(super) fn tail_rendered(
        &self,
        context: &RenderContext<'_>,
        open: &str,
    ) -> (String, IndexBuilder) {
        let opener = self.opener(open);
        let preview = preview::preview(open);
        let shown: &str = &preview.text;
        let shape = shape(context, &opener, shown);
        let rendered = match shape.seems_to_end(shown) {
            Some(end) if shape.followed && end < shown.len() => {
                render_children(context, &opener, &shown[..end])
            }
            _ => render_children(context, &opener, shown),
        };
        let html = self
            .children_html(&rendered.html, &opener)
            .map(|(html, _)| html.to_owned())
            .unwrap_or_default();
        (html, rendered.index)
    }
}

/// Whether `line` starts as a list item surely does, whatever follows:
/// up to three spaces, a marker, one to four spaces, then a letter or
/// digit (no thematic break, no empty item, no indented code in it).
fn item_line(line: &str) -> bool {
    let indent = line.bytes().take_while(|&b| b == b' ').count();
    if indent > 3 {
        return false;
    }
    let Some((_, rest)) = preview::item_marker(&line[indent..]) else {
        return false;
    };
    let content = rest.trim_start_matches(' ');
    (1..=4).contains(&(rest.len() - content.len()))
        && content
            .as_bytes()
            .first()
            .is_some_and(u8::is_ascii_alphanumeric)
}

/// A render of a container's children after its opener.
struct Children {
    html: String,
    index: IndexBuilder,
    /// The text holds a reference that a later definition may change.
    awaits: bool,
    /// The link reference definitions the text makes, as written.
    definitions: Vec<String>,
}

/// Renders `text` after `opener` (whose own item is in the HTML, to be cut
/// off), continuing the stream's citation state.
fn render_children(context: &RenderContext<'_>, opener: &str, text: &str) -> Children {
    let stand_ins = StandIns::new(text, context.reading);
    let full = [stand_ins.as_str(), context.definitions, opener, text].concat();
    let text_start = full.len() - text.len();
    let awaited = Cell::new(None);
    let events = context.parse(&full, text_start, &awaited);
    let definitions = super::definitions_within(
        events.reference_definitions(),
        &full,
        text_start..full.len(),
    );
    let markers = marker_definitions(events.reference_definitions());
    let index = context.index.part(Offset {
        add: context.committed,
        sub: text_start,
    });
    let events = events.filter(|(event, range)| stand_ins.keep(event, range));
    let capacity = html_capacity(text.len());
    let (written, index) = context.write_part(&full, events, index, markers, capacity, &stand_ins);
    Children {
        html: written.html,
        index,
        awaits: awaited.get().is_some(),
        definitions,
    }
}

/// The outline of a container in a parse: where its children start and
/// where its content ends.
#[derive(Default)]
struct Shape {
    depth: usize,
    /// The start of its last child that starts in the text, in the text.
    last_child: Option<usize>,
    /// Where the content before that child ends, in the text.
    before_last_child: usize,
    /// The end of the last event inside it, in the parsed text.
    content_end: usize,
    /// It ended before the end of the text.
    ended: bool,
    followed: bool,
}

impl Shape {
    fn see(&mut self, event: &Event<'_>, range: &Range<usize>, text_start: usize) {
        if self.ended {
            self.followed = true;
            return;
        }
        let opens = match event {
            Event::Start(tag) => !is_inline_tag(tag),
            _ => false,
        };
        let child_starts =
            self.depth == 1 && (opens || matches!(event, Event::Rule | Event::Html(_)));
        if child_starts && range.start >= text_start {
            self.last_child = Some(range.start - text_start);
            self.before_last_child = self.content_end;
        }
        // (Inside: not the container's own start or end.)
        let inside = self.depth > 0;
        match event {
            Event::Start(tag) if !is_inline_tag(tag) => self.depth += 1,
            Event::End(tag) if !is_inline_end(*tag) => {
                self.depth = self.depth.saturating_sub(1);
                if self.depth == 0 {
                    self.ended = true;
                    return;
                }
            }
            _ => {}
        }
        if inside {
            self.content_end = self.content_end.max(range.end.saturating_sub(text_start));
        }
    }

    /// Where the container seems to end in `text` (the end of its last
    /// child's line), when a block that is not its own follows.
    fn seems_to_end(&self, text: &str) -> Option<usize> {
        let content_end = self.content_end.min(text.len());
        let line_end = match text[..content_end].ends_with('\n') {
            true => content_end,
            false => text[content_end..]
                .find('\n')
                .map_or(text.len(), |i| content_end + i + 1),
        };
        // (Text that makes no event, a definition, may yet go on with it;
        // and after an alert's `[!NOTE]`, even a blank line may.)
        self.followed.then_some(line_end)
    }
}

/// The shape of `text` parsed after `opener`: its container's last child
/// (from the start of its line) and where its content ends.
fn shape(context: &RenderContext<'_>, opener: &str, text: &str) -> Shape {
    let full = [context.definitions, opener, text].concat();
    let text_start = context.definitions.len() + opener.len();
    let mut shape = Shape::default();
    for (event, range) in crate::parse::parse(&full) {
        shape.see(&event, &range, text_start);
    }
    // A child starts on its line, after the container's marks.
    shape.last_child = shape
        .last_child
        .map(|start| text[..start].rfind('\n').map_or(0, |i| i + 1));
    shape
}
