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

use std::borrow::Cow;
use std::cell::Cell;
use std::ops::Range;

use pulldown_cmark::{CowStr, Event, Tag, TagEnd};

use super::boundary::{has_blank_line, is_blank};
use super::frontier::{without_blank_lines_at_end, Committed, Entered, Frontier};
use super::inline_subset::LOOSE_STAND_IN;
use super::preview::ItemMark;
use super::provisional::StandIns;
use super::FindLast;
use super::{inline_subset, preview, RenderContext};
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
    /// What [`Container::holds_one_element`] read last: the open text at
    /// this place in the message, up to this line, reads as the element
    /// alone (a list's first item's content indented this far).
    read: Cell<(usize, usize, usize)>,
    /// The same while the open text is one line: it, at this place, up to
    /// here, reads as the element's first line.
    first_line: Cell<(usize, usize)>,
    /// What [`Container::goes_on_with_item`] read last: the open text at
    /// this place, up to here, goes on with the item it starts, whose
    /// content is indented this far, and a blank line came in it.
    item_read: Cell<(usize, usize, usize, bool)>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind {
    /// A list: whether it is loose; whether a blank line ends what was
    /// committed of it (the next item makes it loose); whether any item
    /// was committed; how its first item is marked (its items' mark).
    List {
        loose: bool,
        blank_before: bool,
        committed: bool,
        mark: ItemMark,
    },
    Quote,
}

/// The list item or block quote that `open` starts with, when its first
/// line is complete: the item's marker with its indentation (`-`,
/// `  1.`), none for a quote.
fn start_at(open: &str, complete: usize) -> Option<Option<&str>> {
    start_of(&open[..open[..complete].find('\n')?])
}

/// [`start_at`] of the line `first`, ended or not.
fn start_of(first: &str) -> Option<Option<&str>> {
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
    Some(Some(&first[..indent + marker_len]))
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
        let ends_at_once = shape("", &open[..first_end])
            .seems_to_end(&open[..first_end])
            .is_some_and(|end| end < first_end);
        let (kind, end_tags, starts) = match marker {
            Some(marker) => {
                let kind = Kind::List {
                    loose: false,
                    blank_before: false,
                    committed: false,
                    mark: preview::item_marker(marker.trim_start_matches(' '))?.0,
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
            frontier: Frontier::Container(Container {
                kind,
                end_tags,
                read: Cell::new((usize::MAX, 0, 0)),
                first_line: Cell::new((usize::MAX, 0)),
                item_read: Cell::new((usize::MAX, 0, 0, false)),
            }),
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
            ..
        } = &mut self.kind
        {
            (*loose, *blank_before, *committed) = (false, false, false);
        }
        // (What was read while the list was loose need not hold of it
        // tight.)
        self.item_read.set((usize::MAX, 0, 0, false));
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
                mark,
                ..
            } => {
                // (The open text may be one line being typed: the items
                // before it were committed as it began. Its first line
                // may be no item's start the stream reads, `*\t`: then
                // an item marked as the list's first.)
                let first = &open[..memchr::memchr(b'\n', open.as_bytes()).unwrap_or(open.len())];
                let marker = start_of(first).flatten().unwrap_or(mark.marker());
                let blank = if *loose || *blank_before { "\n" } else { "" };
                [marker, " x\n", blank].concat()
            }
            Kind::Quote => String::new(),
        }
    }

    /// What the tail renders before `open`, the last child: nothing, or in
    /// a loose list (or one a blank line made loose), its stand-in item
    /// ([`Container::opener`]), so that the child renders loose as it will
    /// when committed.
    pub(super) fn tail_opener(&self, open: &str) -> Cow<'static, str> {
        match self.next_is_loose() {
            true => Cow::Owned(self.opener(open)),
            false => Cow::Borrowed(""),
        }
    }

    /// How long the HTML of [`Container::tail_opener`]'s stand-in item is
    /// at the start of `inside`, what a render of it and the open text
    /// holds inside the element; `None` when it is not there.
    pub(super) fn stand_in_html(&self, inside: &str) -> Option<usize> {
        match self.next_is_loose() {
            true => inside
                .starts_with(LOOSE_STAND_IN)
                .then_some(LOOSE_STAND_IN.len()),
            false => Some(0),
        }
    }

    /// Whether the list's next item renders loose: the list is loose, or
    /// a blank line ends what was committed of it.
    fn next_is_loose(&self) -> bool {
        matches!(
            self.kind,
            Kind::List {
                loose,
                blank_before,
                ..
            } if loose || blank_before
        )
    }

    /// Commits the children of `open` (at `at` in the message; its
    /// complete lines end at `complete`; at the message's end, all of it)
    /// that are final: all but the last, or all up to where the container
    /// ends.
    pub(super) fn commit(
        &mut self,
        context: &RenderContext<'_>,
        open: &str,
        at: usize,
        complete: usize,
        at_end: bool,
    ) -> Committed {
        if !at_end && self.typing_ends_block(open, complete) {
            let opener = self.opener(open);
            let shape = shape(&opener, open);
            if let Some((end, part)) = self.end_in(context, &opener, open, &shape) {
                return self.take(&opener, &open[..end], part, true);
            }
        }
        // (The open text's lines are its only child, and the container
        // goes on with it. Nothing to parse.)
        if !at_end
            && (self.goes_on_with_item(&open[..complete], at)
                || self.is_one_child(&open[..complete]))
        {
            debug_assert!(
                self.clone()
                    .commit_parsed(context, open, complete, false)
                    .taken
                    == 0,
                "read as one child, parsed as more: {open:?}"
            );
            return Committed::default();
        }
        self.commit_parsed(context, open, complete, at_end)
    }

    /// [`Container::commit`] once the open text is not read as one child:
    /// parsed.
    fn commit_parsed(
        &mut self,
        context: &RenderContext<'_>,
        open: &str,
        complete: usize,
        at_end: bool,
    ) -> Committed {
        // (A list's next item being typed after one child: that child is
        // what is final, parsed alone, with no outline to find.)
        if !at_end && complete == open.len() {
            let typed = open.find_last(b'\n').map_or(0, |i| i + 1);
            if self.typing_starts_item(open, typed) && self.is_one_child(&open[..typed]) {
                let child = &open[..typed];
                let opener = self.opener(open);
                let opener =
                    self.opener_before_last(opener, child, |opener| shape(opener, open).loose);
                let rendered = render_children(context, &opener, child);
                return self.take(&opener, child, rendered, false);
            }
        }
        let opener = self.opener(open);
        let decided = if at_end { open.len() } else { complete };
        let text = &open[..decided];
        // (One parse gives the shape and the children before the last
        // child, when that parse renders them as they render alone.)
        if !at_end && self.parses_once(&opener, text) {
            if let Some((end, children)) = self.quote_paragraph_in_subset(context, open, text) {
                return self.take(&opener, &open[..end], children, false);
            }
            let (shape, children) = shape_and_children(context, &opener, text, |shape| {
                self.children_end(open, text, shape)
            });
            return match children {
                Some((end, rendered)) => self.take(&opener, &open[..end], rendered, false),
                None => self.commit_shaped(context, &opener, open, text, &shape, false),
            };
        }
        let shape = shape(&opener, text);
        self.commit_shaped(context, &opener, open, text, &shape, at_end)
    }

    /// [`Container::commit`] of `text`, the decided part of `open`, whose
    /// `shape` this is.
    fn commit_shaped(
        &mut self,
        context: &RenderContext<'_>,
        opener: &str,
        open: &str,
        text: &str,
        shape: &Shape,
        at_end: bool,
    ) -> Committed {
        if shape.seems_to_end(text).is_some() {
            if let Some((end, part)) = self.end_in(context, opener, text, shape) {
                return self.take(opener, &open[..end], part, true);
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
            return self.take(opener, text, render_children(context, opener, text), true);
        }
        let Some(last) = self.children_end(open, text, shape) else {
            return Committed::default();
        };
        let children = &open[..last];
        let opener = self.opener_before_last(opener.to_owned(), children, |_| shape.loose);
        self.take(
            &opener,
            children,
            render_children(context, &opener, children),
            false,
        )
    }

    /// The opener to render `children`, a list's items before its last,
    /// after: loose when a blank line ends them and comes between them and
    /// the last item, which makes the list loose though they render tight
    /// alone; `loose` says whether the list parsed after the opener with
    /// its last item is (a blank line may also be a code block's, which
    /// the item's line closes). Blank lines inside them their render reads.
    fn opener_before_last(
        &self,
        opener: String,
        children: &str,
        loose: impl FnOnce(&str) -> bool,
    ) -> String {
        let tight = matches!(self.kind, Kind::List { .. }) && !opener.ends_with("\n\n");
        match tight && without_blank_lines_at_end(children).len() < children.len() && loose(&opener)
        {
            true => opener + "\n",
            false => opener,
        }
    }

    /// Where the children of `open` that are final end, by the `shape` of
    /// `text`, its decided part: at the start of the last child's line,
    /// when the container goes on (no block follows it) and that child
    /// parses in the container alone (see [`Container::marks`]).
    fn children_end(&self, open: &str, text: &str, shape: &Shape) -> Option<usize> {
        if shape.seems_to_end(text).is_some() {
            return None;
        }
        let last = shape.last_child.filter(|&last| last > 0)?;
        let child_line_end = open[last..].find('\n').map_or(open.len(), |i| last + i + 1);
        let between = &open[shape.before_last_child.min(last)..child_line_end];
        self.marks(between).then_some(last)
    }

    /// A quote's first child, final, without the parser, when it is a
    /// paragraph of lines `> ` then text within [`inline_subset`], and
    /// blank lines of the quote, then the next child's line, come after it
    /// in `text`, the decided part of `open` (nothing after a blank line
    /// changes the paragraph but a definition, which the caller's
    /// [`Container::parses_once`] rules out): where the children taken end
    /// (at the next child's line), and their render. (Debug builds check
    /// it against the parser's.)
    fn quote_paragraph_in_subset(
        &self,
        context: &RenderContext<'_>,
        open: &str,
        text: &str,
    ) -> Option<(usize, Children)> {
        if self.kind != Kind::Quote {
            return None;
        }
        let mut lines = Vec::new();
        let mut at = 0;
        // (The paragraph's lines, each with where its content starts.)
        while let Some(line) = text[at..].split_inclusive('\n').next() {
            let Some(content) = line
                .strip_prefix("> ")
                .filter(|_| quote_paragraph_line(line))
            else {
                break;
            };
            lines.push((content.strip_suffix('\n')?, at + 2));
            at += line.len();
        }
        let paragraph_end = at;
        while let Some(line) = text[at..].split_inclusive('\n').next() {
            if !line.strip_prefix('>').is_some_and(is_blank) {
                break;
            }
            at += line.len();
        }
        if lines.is_empty() || at == paragraph_end || at == text.len() {
            return None;
        }
        let child_line_end = open[at..].find('\n').map_or(open.len(), |i| at + i + 1);
        if !self.marks(&open[paragraph_end..child_line_end]) {
            return None;
        }
        let children = &open[..at];
        if context.may_use_definitions("", children) {
            return None;
        }
        let index = || {
            context.index.part(Offset {
                add: context.committed,
                sub: 0,
            })
        };
        let (html, index) = match super::has_byte(&children[..paragraph_end], b'[') {
            false => {
                let mut html = String::with_capacity(paragraph_end + 40);
                html.push_str("<blockquote>\n<p>");
                inline_subset::write_lines(&mut html, lines.iter().map(|&(content, _)| content))?;
                html.push_str("</p>\n</blockquote>\n");
                (html, index())
            }
            true => {
                // (A quote that holds a reference awaiting its definition
                // is held open: the parser's way.)
                let brackets = inline_subset::Brackets {
                    references: false,
                    ..context.brackets()
                };
                let (whole, paragraph) = (0..children.len(), 2..paragraph_end);
                let quote = Tag::BlockQuote(None);
                let mut events = Vec::with_capacity(16 + 8 * lines.len());
                events.push((Event::Start(quote.clone()), whole.clone()));
                events.push((Event::Start(Tag::Paragraph), paragraph.clone()));
                inline_subset::push_lines_events(&mut events, &lines, brackets)?;
                events.push((Event::End(TagEnd::Paragraph), paragraph));
                events.push((Event::End(quote.to_end()), whole));
                context.write_events(children, events, children, index())
            }
        };
        Some((at, subset_children(context, "", children, html, index)))
    }

    /// Whether the events of `text` parsed after `opener`, up to its last
    /// child, are those of the children before it parsed alone (then one
    /// parse gives both the shape and their render: see
    /// [`shape_and_children`]). A later line changes nothing before it in
    /// CommonMark's block structure (a setext underline, a table's
    /// delimiter row or a definition's title would be part of the block
    /// before, no child of its own), but for what reaches back: a link
    /// reference definition (`]:`, which defines labels used before it), a
    /// footnote (`[^`, whose stand-ins are made from the text), and a
    /// list's looseness, decided over all its items: it is the same with
    /// and without the last child when the opener makes the list loose
    /// already, or when no line of the text is blank.
    fn parses_once(&self, opener: &str, text: &str) -> bool {
        let tight = match &self.kind {
            Kind::List { .. } => !opener.ends_with("\n\n"),
            Kind::Quote => false,
        };
        !(memchr::memmem::find(text.as_bytes(), b"]:").is_some()
            || memchr::memmem::find(text.as_bytes(), b"[^").is_some()
            || tight && has_blank_line(text))
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
        // (Children that leave a raw element open wait for the child that
        // closes it, or for the container's end: later children go inside
        // the element, which the render of these alone closed.)
        if rendered.open_raw_html && !closed {
            return Committed::default();
        }
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
        if let Some(rest) = rest.strip_prefix(inline_subset::stand_in_item(false).0) {
            return Some((rest, false));
        }
        rest.strip_prefix(LOOSE_STAND_IN).map(|rest| (rest, true))
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

    /// Whether `text`, complete lines, is one child of the container,
    /// which goes on with it, by reading it: for a list, an item's line
    /// (see [`item_line`]) then lines indented to its content, none blank
    /// (an item goes on with every line indented that far), maybe then
    /// blank lines; for a quote,
    /// a paragraph's lines, each `>`, spaces, then a letter (no such line
    /// starts a block, ends the paragraph or makes it a heading or a
    /// table), maybe then lines of `>` alone. Then it is the container's
    /// only child: nothing is final yet.
    fn is_one_child(&self, text: &str) -> bool {
        let Some(body) = text.strip_suffix('\n') else {
            return false;
        };
        if super::has_any_byte(body, b"\r\t") {
            return false;
        }
        let mut lines = body.split('\n');
        match self.kind {
            Kind::Quote => {
                // (Blank lines of the quote after it start no child.)
                lines.next().is_some_and(quote_paragraph_line)
                    && lines
                        .skip_while(|&line| quote_paragraph_line(line))
                        .all(|line| line.strip_prefix('>').is_some_and(is_blank))
            }
            Kind::List { .. } => {
                let Some(width) = lines.next().and_then(item_content_indent) else {
                    return false;
                };
                // (Blank lines after it start no child either.)
                lines
                    .skip_while(|&line| {
                        line.len() > width
                            && line.as_bytes()[..width].iter().all(|&b| b == b' ')
                            && !is_blank(line)
                    })
                    .all(is_blank)
            }
        }
    }

    /// Whether `text`, complete lines of a list, is its item going on:
    /// the item's first line (one of the list's, with content), then lines
    /// that are blank or indented to that content. Every such line is the
    /// item's, whatever block it is in (a code block's lines, a nested
    /// list, a paragraph after a blank line), so nothing of it is final
    /// yet. While the list is tight and items of it were committed, a blank
    /// line before content may make it loose, which the parse decides (the
    /// items are committed again); before, the item is the list's first,
    /// and nothing of the list is final either way. (A list's item holding
    /// a long code block was parsed again at every line.)
    fn goes_on_with_item(&self, text: &str, at: usize) -> bool {
        let Kind::List { mark, .. } = self.kind else {
            return false;
        };
        let after_blank_goes_on = self.blank_decides_nothing();
        // (What was read before, when the text is still at `at`: its lines
        // up to `read_to` went on with the item; the open text only grows
        // while nothing is taken.)
        let (read_at, read_to, width, mut after_blank) = self.item_read.get();
        let (from, width) = if read_at == at && 0 < read_to && read_to <= text.len() {
            (read_to, width)
        } else {
            let Some(first_end) = memchr::memchr(b'\n', text.as_bytes()) else {
                return false;
            };
            let first = &text[..first_end];
            let Some(width) =
                item_width(first, mark).filter(|_| !super::has_any_byte(first, b"\r\t"))
            else {
                return false;
            };
            after_blank = false;
            (first_end + 1, width)
        };
        let Some(lines) = text[from..].strip_suffix('\n') else {
            if from == text.len() {
                self.item_read.set((at, from, width, after_blank));
            }
            return from == text.len();
        };
        if super::has_any_byte(lines, b"\r\t") {
            return false;
        }
        let goes_on = lines.split('\n').all(|line| {
            if is_blank(line) {
                after_blank = true;
                return true;
            }
            let indented =
                line.len() > width && line.as_bytes()[..width].iter().all(|&b| b == b' ');
            indented && (after_blank_goes_on || !after_blank)
        });
        if goes_on {
            self.item_read.set((at, text.len(), width, after_blank));
        }
        goes_on
    }

    /// The content column of the list item that `text`, complete lines of
    /// the list (at `at` in the message), goes on with, when a next line
    /// indented to it, not blank, goes on with it too (see
    /// [`Container::goes_on_with_item`]): then such a line commits nothing.
    pub(super) fn item_going_on(&self, text: &str, at: usize) -> Option<usize> {
        if !self.goes_on_with_item(text, at) {
            return None;
        }
        let (_, _, width, after_blank) = self.item_read.get();
        (self.blank_decides_nothing() || !after_blank).then_some(width)
    }

    /// Whether a blank line before an item's content decides nothing of a
    /// list: it is loose already, or none of its items was committed (the
    /// item is its first, and nothing of the list is final either way).
    /// Otherwise it may make the list loose, which the parse decides.
    fn blank_decides_nothing(&self) -> bool {
        match self.kind {
            Kind::List {
                loose, committed, ..
            } => loose || !committed,
            Kind::Quote => false,
        }
    }

    /// Whether `open`, the open text (at `at` in the message), renders as
    /// the element alone, whatever its inline content and the preview's
    /// edits at its end: for a quote, lines that all start with `>`; for a
    /// list, an item's line (see [`item_line`]), then lines indented to
    /// its content, none blank but the one being typed; and no `<` (raw
    /// HTML could close the element). What was read is kept: the open
    /// text only grows at its end while it starts at the same place, so
    /// only the lines since the last call are read (a push reads its new
    /// piece, not the open text).
    pub(super) fn holds_one_element(&self, open: &str, at: usize) -> bool {
        let (read_at, read_to, read_width) = self.read.get();
        // (Read before: the lines up to `read_to`, the first one's included,
        // and the width of a list's first item.)
        let (from, width) = if read_at == at && 0 < read_to && read_to <= open.len() {
            (read_to, read_width)
        } else {
            // (The first line's end or a `<`, in one search: a tight
            // list's open text is mostly one line being typed, of which
            // only what was not read before is read.)
            let (line_at, line_read) = self.first_line.get();
            let skip = match line_at == at && line_read <= open.len() {
                true => line_read,
                false => 0,
            };
            let first_end = match memchr::memchr2(b'\n', b'<', &open.as_bytes()[skip..]) {
                Some(i) if open.as_bytes()[skip + i] == b'<' => return false,
                Some(i) => skip + i,
                // (One line, being typed: read as an item's or a quote's
                // first line, for good once its first letter is in; a
                // marker alone is an empty item, until what follows it.)
                None => {
                    let first = skip > 0
                        || match self.kind {
                            Kind::List { .. } => item_line(open),
                            Kind::Quote => open.starts_with('>'),
                        };
                    if first {
                        self.first_line.set((at, open.len()));
                    }
                    return first || self.kind != Kind::Quote && marker_alone(open);
                }
            };
            let first = &open[..first_end];
            let width = match self.kind {
                Kind::List { .. } => item_content_indent(first),
                Kind::Quote => first.starts_with('>').then_some(0),
            };
            match width {
                Some(width) => (first_end + 1, width),
                None => return false,
            }
        };
        if super::has_byte(&open[from..], b'<') {
            return false;
        }
        // (Every line after the first, and the one being typed, which may
        // be blank.)
        let goes_on = |line: &str, typed: bool| match self.kind {
            Kind::Quote => line.starts_with('>') || typed && line.is_empty(),
            Kind::List { .. } => match is_blank(line) {
                true => typed,
                false => line.len() > width && line.as_bytes()[..width].iter().all(|&b| b == b' '),
            },
        };
        let last_line = open[from..].find_last(b'\n').map_or(from, |i| from + i + 1);
        let holds = open[from..last_line]
            .split_terminator('\n')
            .all(|line| goes_on(line, false))
            && goes_on(&open[last_line..], true);
        if holds {
            self.read.set((at, last_line, width));
        }
        holds
    }

    /// Whether `open` is one line, a list item surely (see [`item_line`]):
    /// the list's item being typed alone, the items before it committed.
    pub(super) fn types_item_alone(&self, open: &str) -> bool {
        matches!(self.kind, Kind::List { .. }) && !open.contains('\n') && item_line(open)
    }

    /// Whether the line being typed at the end of `open` (after its
    /// complete lines, up to `complete`) already starts the container's
    /// next child, so that every child before it is final: a list's next
    /// item ([`Container::typing_starts_item`]), or a quote's paragraph
    /// after a blank line of the quote: after the quote's `>`, a letter.
    /// (After a blank line no lazy line goes on with a block, and a letter
    /// starts no other block. A block left open over blank lines, a fence,
    /// takes the line in as its own: it is the last child then, not final.)
    pub(super) fn typing_starts_child(&self, open: &str, complete: usize) -> bool {
        match self.kind {
            Kind::List { .. } => self.typing_starts_item(open, complete),
            Kind::Quote => {
                let Some(blank_end) = complete.checked_sub(1) else {
                    return false;
                };
                let blank_start = open[..blank_end].find_last(b'\n').map_or(0, |i| i + 1);
                after_quote_marker(&open[blank_start..blank_end]).is_some_and(is_blank)
                    && after_quote_marker(&open[complete..])
                        .is_some_and(|text| text.starts_with(|c: char| c.is_ascii_alphabetic()))
            }
        }
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
        let first = &open[..memchr::memchr(b'\n', open.as_bytes()).unwrap_or(open.len())];
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
        let shape = shape(&opener, shown);
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

/// What follows the `>` (and the space after it, if any) of the quote
/// marker that `line` starts with, up to three spaces before it.
fn after_quote_marker(line: &str) -> Option<&str> {
    let indent = line.bytes().take_while(|&b| b == b' ').count();
    let quoted = line[indent..].strip_prefix('>').filter(|_| indent <= 3)?;
    Some(quoted.strip_prefix(' ').unwrap_or(quoted))
}

/// Whether `line` starts as a list item surely does, whatever follows:
/// up to three spaces, a marker, one to four spaces, then a letter or
/// digit (no thematic break, no empty item, no indented code in it).
fn item_line(line: &str) -> bool {
    item_content_indent(line).is_some()
}

/// Whether `line` is a list item's marker alone (up to three spaces
/// before it, spaces after it): an empty item.
fn marker_alone(line: &str) -> bool {
    let indent = line.bytes().take_while(|&b| b == b' ').count();
    indent <= 3
        && preview::item_marker(&line[indent..])
            .is_some_and(|(_, after)| after.bytes().all(|b| b == b' '))
}

/// Where the content of the list item that `line` starts begins (the
/// indentation a line needs to go on with it), when `line` is an
/// [`item_line`].
fn item_content_indent(line: &str) -> Option<usize> {
    let indent = line.bytes().take_while(|&b| b == b' ').count();
    if indent > 3 {
        return None;
    }
    let (_, rest) = preview::item_marker(&line[indent..])?;
    let content = rest.trim_start_matches(' ');
    ((1..=4).contains(&(rest.len() - content.len()))
        && content
            .as_bytes()
            .first()
            .is_some_and(u8::is_ascii_alphanumeric))
    .then_some(line.len() - content.len())
}

/// Where the content of the item that `line` starts begins, when it is
/// an item of a list marked `mark` with content on its line (not a
/// thematic break, `- - -`; not indented code, five spaces after the
/// marker): the indentation a line needs to go on with it.
fn item_width(line: &str, mark: ItemMark) -> Option<usize> {
    let indent = line.bytes().take_while(|&b| b == b' ').count();
    let item = &line[indent..];
    let (item_mark, rest) = preview::item_marker(item)?;
    let content = rest.trim_start_matches(' ');
    let spaces = rest.len() - content.len();
    let rule = matches!(item_mark, ItemMark::Bullet(b'-' | b'*'))
        && item.bytes().all(|b| b == item.as_bytes()[0] || b == b' ');
    (indent <= 3 && item_mark == mark && (1..=4).contains(&spaces) && !content.is_empty() && !rule)
        .then_some(line.len() - content.len())
}

/// Whether `line` is `>`, up to four spaces (no indented code), then a
/// letter: a paragraph's line in a quote, whatever comes before or after.
fn quote_paragraph_line(line: &str) -> bool {
    let Some(content) = line.strip_prefix('>') else {
        return false;
    };
    let letter = content.trim_start_matches(' ');
    content.len() - letter.len() <= 4 && letter.starts_with(|c: char| c.is_ascii_alphabetic())
}

/// A render of a container's children after its opener.
struct Children {
    html: String,
    /// The HTML leaves a raw element open, or closed one at the end of
    /// these children (the container's end, in their render), where later
    /// children would go inside it.
    open_raw_html: bool,
    index: IndexBuilder,
    /// The text holds a reference that a later definition may change.
    awaits: bool,
    /// The link reference definitions the text makes, as written.
    definitions: Vec<String>,
}

/// Renders `text` after `opener` (whose own item is in the HTML, to be cut
/// off), continuing the stream's citation state.
fn render_children(context: &RenderContext<'_>, opener: &str, text: &str) -> Children {
    if let Some(children) = list_item_in_subset(context, opener, text) {
        return children;
    }
    parse_children(context, opener, text)
}

/// [`render_children`] without the parser, for a list's next item when
/// `opener` is the list's item before (`- x`, `2. x`, a blank line after
/// it when the list is loose) and the item is one line within
/// [`inline_subset`], or in a tight list, such a line and an outline under
/// it ([`write_outline`]): it holds no citation, reference or footnote, so
/// its index is the part's as it began. One line with citation markers or
/// footnote references goes to the citation pipeline as the events
/// [`inline_subset`] reads. (Debug builds check it against the parser's
/// rendering.)
fn list_item_in_subset(context: &RenderContext<'_>, opener: &str, text: &str) -> Option<Children> {
    // (A reference in it may use the committed definitions, which only
    // the parser reads.)
    if context.may_use_definitions(opener, text) {
        return None;
    }
    let (marker, loose) = match opener.strip_suffix(" x\n\n") {
        Some(marker) => (marker, true),
        None => (opener.strip_suffix(" x\n")?, false),
    };
    // (Items of one list repeat its mark: `preview::item_marker`.)
    let (mark, _) = preview::item_marker(marker)?;
    let (text_mark, rest) = preview::item_marker(text)?;
    let body = rest.strip_prefix(' ')?.strip_suffix('\n')?;
    let (line, sublines) = match body.split_once('\n') {
        // (A blank line after a line.)
        Some((line, "")) => (line, None),
        Some((line, sublines)) => (line, Some(sublines)),
        None => (body, None),
    };
    if text_mark != mark || (sublines.is_some() && loose) {
        return None;
    }
    // (`item_marker` took 1 to 9 digits.)
    let start = match mark {
        ItemMark::Ordered(_) => Some(marker[..marker.len() - 1].parse().ok()?),
        ItemMark::Bullet(_) => None,
    };
    let item = NextItem {
        start,
        loose,
        line,
        line_at: text.len() - body.len() - 1,
    };
    // (Made once the subset takes the item: much that is tried is not.)
    let index = || {
        context.index.part(Offset {
            add: context.committed,
            sub: opener.len(),
        })
    };
    let (html, index) = match (super::has_byte(line, b'['), sublines) {
        (false, _) => (item.html(sublines)?, index()),
        (true, None) => item.through_events(context, opener, text, index)?,
        (true, Some(_)) => return None,
    };
    Some(subset_children(context, opener, text, html, index))
}

/// Children of `text` after `opener` as [`inline_subset`] rendered them
/// (`html`, and the citation state after them, `index`): no raw HTML, no
/// reference awaiting its definition, no definition. (Debug builds check
/// them against the parser's rendering.)
fn subset_children(
    context: &RenderContext<'_>,
    opener: &str,
    text: &str,
    html: String,
    index: IndexBuilder,
) -> Children {
    let children = Children {
        html,
        open_raw_html: false,
        index,
        awaits: false,
        definitions: Vec::new(),
    };
    #[cfg(debug_assertions)]
    {
        let parsed = parse_children(context, opener, text);
        inline_subset::assert_as_parsed(
            (&children.html, &children.index),
            (&parsed.html, &parsed.index),
            text,
        );
        assert!(!parsed.open_raw_html && !parsed.awaits && parsed.definitions.is_empty());
    }
    #[cfg(not(debug_assertions))]
    let _ = (context, opener, text);
    children
}

/// A list's next item as [`list_item_in_subset`] renders it, after the
/// item `- x` (or `N. x`) before it.
struct NextItem<'t> {
    /// The list's number, when numbered.
    start: Option<u64>,
    loose: bool,
    /// Its first line (its only one, unless an outline follows).
    line: &'t str,
    /// Where the line starts in the item's text.
    line_at: usize,
}

impl NextItem<'_> {
    /// The list's HTML with the item before and this one, `sublines`
    /// under it, written here.
    fn html(&self, sublines: Option<&str>) -> Option<String> {
        // (The opener's item is there, as the parser gives it.)
        let mut html = String::with_capacity(64 + self.line.len());
        inline_subset::write_list_start(&mut html, self.start);
        let (first, item_start, item_end) = inline_subset::stand_in_item(self.loose);
        html.push_str(first);
        html.push_str(item_start);
        inline_subset::write_line(&mut html, self.line)?;
        if let Some(sublines) = sublines {
            write_outline(&mut html, sublines)?;
        }
        html.push_str(item_end);
        html.push_str(inline_subset::list_end(self.start));
        Some(html)
    }

    /// The same through the citation pipeline, fed the events the parser
    /// would give for `opener` then `text` (with `index()`, the citation
    /// state before them).
    fn through_events(
        &self,
        context: &RenderContext<'_>,
        opener: &str,
        text: &str,
        index: impl FnOnce() -> IndexBuilder,
    ) -> Option<(String, IndexBuilder)> {
        let full = [opener, text].concat();
        let whole = 0..full.len();
        let (first, second) = (0..opener.len(), opener.len()..full.len());
        // (The opener's stand-in content, `x`, after its marker and space.)
        let x = opener.len() - if self.loose { 3 } else { 2 };
        let line_at = opener.len() + self.line_at;
        // (A list item that holds a reference awaiting its definition
        // is held open: the parser's way.)
        let brackets = inline_subset::Brackets {
            references: false,
            ..context.brackets()
        };
        let mut events = Vec::with_capacity(24);
        events.push((Event::Start(Tag::List(self.start)), whole.clone()));
        events.push((Event::Start(Tag::Item), first.clone()));
        let x_text = (Event::Text(CowStr::Borrowed("x")), x..x + 1);
        if self.loose {
            let x_paragraph = x..x + 2;
            events.push((Event::Start(Tag::Paragraph), x_paragraph.clone()));
            events.push(x_text);
            events.push((Event::End(TagEnd::Paragraph), x_paragraph));
        } else {
            events.push(x_text);
        }
        events.push((Event::End(TagEnd::Item), first));
        events.push((Event::Start(Tag::Item), second.clone()));
        let paragraph = line_at..line_at + self.line.len() + 1;
        if self.loose {
            events.push((Event::Start(Tag::Paragraph), paragraph.clone()));
        }
        let line = &full[line_at..line_at + self.line.len()];
        inline_subset::push_line_events(&mut events, line, line_at, brackets)?;
        if self.loose {
            events.push((Event::End(TagEnd::Paragraph), paragraph));
        }
        events.push((Event::End(TagEnd::Item), second));
        events.push((Event::End(TagEnd::List(self.start.is_some())), whole));
        Some(context.write_events(&full, events, text, index()))
    }
}

/// Writes the lines of a tight item after its first when they are an
/// outline as models write one: items of `-`, each two spaces deeper than
/// the item above it at most, each line within [`inline_subset`]; the
/// sublists they open, and their ends, as the parser nests them. `None`
/// otherwise (what was written is then dropped).
fn write_outline(html: &mut String, sublines: &str) -> Option<()> {
    let mut depth = 0;
    for line in sublines.split('\n') {
        let indent = line.len() - line.trim_start_matches(' ').len();
        let item = line[indent..].strip_prefix("- ")?;
        let level = indent / 2;
        if indent % 2 != 0 || level == 0 || level > depth + 1 {
            return None;
        }
        if level > depth {
            html.push_str("\n<ul>\n");
        } else {
            html.push_str("</li>\n");
            for _ in level..depth {
                html.push_str("</ul>\n</li>\n");
            }
        }
        html.push_str("<li>");
        inline_subset::write_line(html, item)?;
        depth = level;
    }
    for _ in 0..depth {
        html.push_str("</li>\n</ul>\n");
    }
    Some(())
}

/// [`render_children`] through the parser.
fn parse_children(context: &RenderContext<'_>, opener: &str, text: &str) -> Children {
    let stand_ins = StandIns::new(text, context.reading);
    context.parse_after(
        stand_ins.as_str(),
        opener,
        text,
        context.links_by_reference,
        |full, text_start, events, notes| {
            let definitions = super::definitions_within(
                events.reference_definitions(),
                full,
                text_start..full.len(),
            );
            let markers = marker_definitions(events.reference_definitions());
            let index = context.index.part(Offset {
                add: context.committed,
                sub: text_start,
            });
            let events = events.filter(|(event, range)| stand_ins.keep(event, range));
            let capacity = html_capacity(text.len());
            let (written, index) =
                context.write_part(full, events, index, markers, capacity, &stand_ins);
            Children {
                html: written.html,
                open_raw_html: written.open_raw_html || written.closed_open_html_block,
                index,
                awaits: notes.awaits(),
                definitions,
            }
        },
    )
}

/// The [`shape`] of `text` after `opener` and, when `children_end`, given
/// that shape, says where the children that are final end, their render,
/// from one parse: its events up to the last child's start, then the
/// container's end. The caller checks that those are the events of the
/// children parsed alone ([`Container::parses_once`]).
fn shape_and_children(
    context: &RenderContext<'_>,
    opener: &str,
    text: &str,
    children_end: impl FnOnce(&Shape) -> Option<usize>,
) -> (Shape, Option<(usize, Children)>) {
    let stand_ins = StandIns::new(text, context.reading);
    context.parse_after(
        stand_ins.as_str(),
        opener,
        text,
        context.links_by_reference,
        |full, text_start, events, notes| {
            let markers = marker_definitions(events.reference_definitions());
            let mut shape = Shape::default();
            let mut container_end = None;
            // (About an event per dozen bytes of prose.)
            let mut seen = Vec::with_capacity(16 + text.len() / 12);
            for (event, range) in events {
                // (A stand-in's events are no part of the text.)
                if range.start < stand_ins.as_str().len() {
                    continue;
                }
                if let (None, Event::Start(tag)) = (&container_end, &event) {
                    if !is_inline_tag(tag) {
                        container_end = Some(tag.to_end());
                    }
                }
                shape.see(&event, &range, text_start);
                seen.push((event, range));
            }
            shape.last_child = shape
                .last_child
                .map(|start| text[..start].rfind('\n').map_or(0, |i| i + 1));
            let (Some(end), Some(container_end), Some(cut)) =
                (children_end(&shape), container_end, shape.last_child_event)
            else {
                return (shape, None);
            };
            let index = context.index.part(Offset {
                add: context.committed,
                sub: text_start,
            });
            let at_end = text_start + end;
            let events = seen
                .into_iter()
                .take(cut)
                .filter(|(event, range)| stand_ins.keep(event, range))
                .chain(std::iter::once((Event::End(container_end), at_end..at_end)));
            let capacity = html_capacity(end);
            let (written, index) =
                context.write_part(full, events, index, markers, capacity, &stand_ins);
            let children = Children {
                html: written.html,
                open_raw_html: written.open_raw_html || written.closed_open_html_block,
                index,
                awaits: notes.awaited().is_some_and(|at| at < at_end),
                definitions: Vec::new(),
            };
            (shape, Some((end, children)))
        },
    )
}

/// The outline of a container in a parse: where its children start and
/// where its content ends.
#[derive(Default)]
struct Shape {
    depth: usize,
    /// The start of its last child that starts in the text, in the text.
    last_child: Option<usize>,
    /// How many events came before that child's first.
    last_child_event: Option<usize>,
    /// How many events it has seen.
    events: usize,
    /// Where the content before that child ends, in the text.
    before_last_child: usize,
    /// The end of the last event inside it, in the parsed text.
    content_end: usize,
    /// It ended before the end of the text.
    ended: bool,
    followed: bool,
    /// The last child is a paragraph.
    last_child_paragraph: bool,
    /// A paragraph is an item's child: the list is loose (a tight list's
    /// items hold their text without one).
    loose: bool,
}

impl Shape {
    fn see(&mut self, event: &Event<'_>, range: &Range<usize>, text_start: usize) {
        self.events += 1;
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
            self.last_child_event = Some(self.events - 1);
            self.before_last_child = self.content_end;
            self.last_child_paragraph = matches!(event, Event::Start(Tag::Paragraph));
        }
        self.loose |= self.depth == 2 && matches!(event, Event::Start(Tag::Paragraph));
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
fn shape(opener: &str, text: &str) -> Shape {
    // (The committed definitions are no part of it: they decide no
    // block's bounds.)
    let full = [opener, text].concat();
    let text_start = opener.len();
    let mut shape = Shape::default();
    for (event, range) in crate::parse::parse(&full) {
        shape.see(&event, &range, text_start);
    }
    // A child starts on its line, after the container's marks; and on the
    // first of the link reference definitions right before it, which its
    // paragraph began with (`> [a]: /u` then `>     x`: one paragraph,
    // whose rest is `x`, no code block). (The parser's range of a list
    // before them may take them in.)
    let paragraph = shape.last_child_paragraph;
    shape.last_child = shape.last_child.map(|start| {
        let mut line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
        while let Some(before) = line_start.checked_sub(1).filter(|_| paragraph) {
            let previous = text[..before].rfind('\n').map_or(0, |i| i + 1);
            let content = text[previous..before].trim_start_matches([' ', '>']);
            if !(content.starts_with('[') && content.contains("]:")) {
                break;
            }
            line_start = previous;
        }
        line_start
    });
    shape
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::{Options, RawHtml, Stream};

    /// Lines of lists and quotes, with what can reach back (definitions,
    /// footnotes, blank lines, lazy lines, raw HTML) among them.
    fn container_text() -> impl Strategy<Value = String> {
        let first = prop_oneof![
            Just("- a [1]"),
            Just("* b **c**"),
            Just("1. d"),
            Just("3) e"),
            Just("> f"),
            Just("> - g"),
            Just("> [!NOTE]"),
            Just(">"),
            Just("- [g][h]"),
            Just(">     code"),
            Just(">    f"),
            Just("- g </ul> <ul>"),
            Just("> g </blockquote> <blockquote>"),
        ];
        let line = prop_oneof![
            Just("- a [2]"),
            Just("* b"),
            Just("1. c"),
            Just("  - d"),
            Just("    e `f`"),
            Just("  g"),
            Just("lazy"),
            Just(""),
            Just("  "),
            Just("> h"),
            Just(">"),
            Just("> - i"),
            Just("> > j"),
            Just(">     code"),
            Just("> ```"),
            Just("```"),
            Just("  ---"),
            Just("> ==="),
            Just("[k]: /k"),
            Just("  [l]: /l"),
            Just("> [m]: /m"),
            Just("- [k] [l] [m]"),
            Just("> [g][h] [n]"),
            Just("- [^1]"),
            Just("> [^1]: note"),
            Just("- <b>o</b>"),
            Just("> | p | q |"),
            Just("> |---|---|"),
            Just("# r"),
            Just("> The s"),
            Just(">    t"),
            Just("  u [3]"),
            Just("   - v"),
            Just("\tw"),
            Just("  - x </ul>"),
            Just("> y </blockquote>"),
            Just("  ```"),
            Just("   ```"),
            Just("  ~~~ z"),
            Just("   - - -"),
        ];
        (first, prop::collection::vec(line, 0..10)).prop_map(|(first, lines)| {
            let mut text = format!("{first}\n");
            for line in lines {
                text.push_str(line);
                text.push('\n');
            }
            text
        })
    }

    /// What the two parses ([`shape`], then [`render_children`]) give at
    /// every line of `text` that [`Container::parses_once`] admits, one
    /// parse gives too.
    fn assert_one_parse_is_two(text: &str, loose: bool) {
        let stream = Stream::new(Options::default());
        let context = stream.context();
        let container = container_for(text, loose);
        let ends = text.match_indices('\n').map(|(at, _)| at + 1);
        for part in ends.map(|end| &text[..end]) {
            let opener = container.opener(part);
            if !container.parses_once(&opener, part) {
                continue;
            }
            let (one, children) = shape_and_children(&context, &opener, part, |shape| {
                container.children_end(part, part, shape)
            });
            let two = shape(&opener, part);
            let outline = |s: &Shape| {
                (
                    s.last_child,
                    s.before_last_child,
                    s.content_end,
                    s.ended,
                    s.followed,
                )
            };
            assert_eq!(outline(&one), outline(&two), "{part:?}");
            let two_children = container.children_end(part, part, &two);
            assert_eq!(children.as_ref().map(|(end, _)| *end), two_children);
            if let Some((end, one)) = children {
                let two = render_children(&context, &opener, &part[..end]);
                assert_eq!(one.html, two.html, "{part:?}");
                assert_eq!(one.awaits, two.awaits, "{part:?}");
                assert_eq!(one.definitions, two.definitions, "{part:?}");
                assert_eq!(format!("{:?}", one.index), format!("{:?}", two.index));
            }
        }
    }

    /// A container as the stream opens one for `text`.
    fn container_for(text: &str, loose: bool) -> Container {
        let (kind, end_tags) = match text.as_bytes().first() {
            Some(b'>') => (Kind::Quote, "</blockquote>"),
            Some(b'0'..=b'9') => (
                Kind::List {
                    loose,
                    blank_before: false,
                    committed: false,
                    mark: ItemMark::Ordered(b'.'),
                },
                "</ol>",
            ),
            bullet => (
                Kind::List {
                    loose,
                    blank_before: false,
                    committed: false,
                    mark: ItemMark::Bullet(bullet.copied().unwrap_or(b'-')),
                },
                "</ul>",
            ),
        };
        Container {
            kind,
            end_tags,
            read: Cell::new((usize::MAX, 0, 0)),
            first_line: Cell::new((usize::MAX, 0)),
            item_read: Cell::new((usize::MAX, 0, 0, false)),
        }
    }

    /// Where [`Container::is_one_child`] or
    /// [`Container::goes_on_with_item`] (kept from prefix to prefix, tight
    /// and loose) reads `text`'s lines as one child, the parse finds no
    /// child after the first and no end; where
    /// [`Container::holds_one_element`] reads a prefix of it as the element
    /// alone (kept from prefix to prefix, as a stream grows its open
    /// text), the tail cut out of its render is what the check of the
    /// render cuts out (raw HTML passed through may close the element).
    fn assert_read_as_parsed(text: &str, raw_html: RawHtml) {
        let stream = Stream::new(Options {
            raw_html,
            ..Options::default()
        });
        let context = stream.context();
        let container = container_for(text, false);
        let loose = container_for(text, true);
        let ends = text.match_indices('\n').map(|(at, _)| at + 1);
        for part in ends.map(|end| &text[..end]) {
            for container in [&container, &loose] {
                if container.is_one_child(part) || container.goes_on_with_item(part, 0) {
                    let shape = shape(&container.opener(part), part);
                    assert!(shape.last_child.unwrap_or(0) == 0, "{part:?}");
                    assert_eq!(shape.seems_to_end(part), None, "{part:?}");
                }
            }
        }
        let frontier = Frontier::Container(container.clone());
        let prefixes = (1..=text.len()).filter(|&end| text.is_char_boundary(end));
        for part in prefixes.map(|end| &text[..end]) {
            if container.holds_one_element(part, 0) {
                let shown = preview::preview(part);
                let html = context.render_open(&shown.text, None, None).html;
                let checked = frontier.inside_range(&html);
                assert_eq!(
                    frontier.tail_range(&html, part, 0, false),
                    checked,
                    "{part:?}"
                );
            }
        }
    }

    #[test]
    fn lines_read_as_one_child_or_element_parse_as_one() {
        let passed = RawHtml::DangerouslyPassThrough;
        assert_read_as_parsed("> The a\n> b [1]\n>\n>\n", RawHtml::Sanitize);
        assert_read_as_parsed("- a\n  - b\n    c\n  d\n", RawHtml::Sanitize);
        assert_read_as_parsed("> a\n\n> b\n", RawHtml::Sanitize);
        assert_read_as_parsed("- a\n+ b\n", RawHtml::Sanitize);
        assert_read_as_parsed("- a </ul> <ul>\n  - b </ul>\n", passed);
    }

    /// An item's lines that are blank or indented to its content, a code
    /// block's included, go on with it: no parse. Not a line indented
    /// less, nor after a blank line while the list is tight and items of
    /// it were committed (it may turn loose), nor a tab, nor a thematic
    /// break that looks like an item.
    #[test]
    fn an_items_indented_lines_go_on_with_it() {
        let steps = "1. Step.\n\n   ```rust\n   let a = 1;\n\n       b();\n   ```\n\n";
        assert!(container_for(steps, true).goes_on_with_item(steps, 0));
        assert!(
            container_for(steps, false).goes_on_with_item(steps, 0),
            "the first item"
        );
        let mut tight = container_for(steps, false);
        if let Kind::List { committed, .. } = &mut tight.kind {
            *committed = true;
        }
        assert!(
            !tight.goes_on_with_item(steps, 0),
            "it may make the list loose"
        );
        assert!(container_for("- a\n  b\n    c\n", false).goes_on_with_item("- a\n  b\n    c\n", 0));
        for (text, loose) in [
            ("1. a\n\n   ```\n  b\n", true),
            ("- a\n  ```\n\tb\n", true),
            ("- - -\n  a\n", true),
            ("-\ta\n  b\n", true),
            ("1) a\n   b\n", true),
        ] {
            assert!(
                !container_for(text, loose).goes_on_with_item(text, 0),
                "{text:?}"
            );
        }
        for text in [steps, "- a\n  ```\n  b\n\n  ```\n- c\n"] {
            assert_read_as_parsed(text, RawHtml::Sanitize);
        }
    }

    #[test]
    fn one_parse_commits_an_items_children_as_two_do() {
        assert_one_parse_is_two("- a [1]\n- b **c**\n  - d\n- e\n", false);
        assert_one_parse_is_two("- a\n\n- b [2]\n", true);
        assert_one_parse_is_two("> a [1]\n>\n> b\n> - c\n> d\n", false);
        assert_one_parse_is_two("- [g][h]\n- a\n", false);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(crate::stream::common::cases(500)))]
        #[test]
        fn one_parse_commits_children_as_two_do(text in container_text(), loose: bool) {
            assert_one_parse_is_two(&text, loose);
        }

        #[test]
        fn lines_read_as_one_parse_as_one(text in container_text(), passed: bool) {
            let raw_html = match passed {
                true => RawHtml::DangerouslyPassThrough,
                false => RawHtml::Sanitize,
            };
            assert_read_as_parsed(&text, raw_html);
        }
    }
}
