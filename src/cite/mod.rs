//! Citation recognition: the iterator adaptor that turns pulldown-cmark's
//! events into citation-aware events.
//!
//! It buffers one run of inline events at a time (the content of a
//! paragraph, heading, table cell or tight list item), because pairing a
//! `<cite>` with its `</cite>`, merging the text pieces pulldown-cmark splits
//! around `[`, and mending `([label](url))` all need to see the whole run.
//! Block events pass straight through, so memory stays bounded by the
//! largest paragraph, not the document.
//!
//! Each syntax has its own recognizer module; this one decides where each
//! may apply (never in code, link text, image alt text or raw HTML), and
//! `resolve` matches what they find to the host's sources.

pub(crate) mod index;
pub(crate) mod marker;
mod query;
mod resolve;
pub(crate) mod shortlink;
mod tag;
pub(crate) mod text;

use std::ops::Range;

use pulldown_cmark::{CowStr, Event, LinkType, Tag, TagEnd};

use crate::autolink::{find_autolinks, may_contain_autolink, Autolink};
use crate::options::{Options, Syntaxes};
use crate::parse::{is_escaped, is_inline};
use crate::source::SourceOrder;
use index::{CitationIndex, CitationKind, DiagnosticKind, IndexBuilder};
use resolve::Found;
pub(crate) use resolve::{CitationView, Resolver};
use tag::{parse_cite_tag, CiteTag};
use text::{slice, TextRun};

/// A citation-aware event: a markdown event, or the start of the citation
/// element with this ordinal, whose content (the label's events) follows
/// until [`Ev::CitationEnd`].
#[derive(Debug)]
pub(crate) enum Ev<'a> {
    Md(Event<'a>),
    Citation(u32),
    CitationEnd,
}

/// The events the adaptor reads: pulldown-cmark's, with their ranges.
///
/// Behind a `dyn` reference so that the adaptor, and the HTML writer it
/// feeds, are compiled once: generic over the iterator, they were compiled
/// once per caller's iterator type (a render's, and four of the stream's),
/// 6 KB of wasm or more a copy. A virtual call per event is the price.
pub(crate) type Events<'e, 'a> = &'e mut dyn Iterator<Item = (Event<'a>, Range<usize>)>;

/// The adaptor: pulldown-cmark events with ranges in, [`Ev`]s out.
pub(crate) struct Citations<'a, 'o, 'e> {
    markdown: &'a str,
    events: Events<'e, 'a>,
    resolver: Resolver<'o>,
    /// The inline run being gathered (its buffer is reused).
    run: Vec<(Event<'a>, Range<usize>)>,
    text: TextRun<'a>,
    /// What the current block's source may hold, decided at its start.
    block: BlockContent,
    /// Link reference definitions labelled like markers (`[1]: …`), with
    /// where each starts; see [`Citations::with_marker_definitions`].
    marker_definitions: Vec<(String, usize)>,
    /// The range of the reference link being written back as its text.
    unlinking: Option<Unlinking>,
    tag_actions: TagActions,
    /// What a text held; see [`RunProcessor::flush_text`].
    items: Vec<TextItem>,
}

impl<'a, 'o, 'e> Citations<'a, 'o, 'e> {
    /// An adaptor that records into `index`: a whole message's fresh one,
    /// or a part of a streamed message's, continuing the ordinals of the
    /// parts before it.
    pub(crate) fn resume(
        markdown: &'a str,
        events: Events<'e, 'a>,
        options: &'o Options,
        index: IndexBuilder,
    ) -> Self {
        Citations {
            markdown,
            events,
            resolver: Resolver::new(options, index),
            run: Vec::new(),
            text: TextRun::default(),
            block: BlockContent::Any,
            marker_definitions: Vec::new(),
            unlinking: None,
            tag_actions: TagActions::default(),
            items: Vec::new(),
        }
    }

    /// Marker-shaped references (`[1]`, `[1, 3]`, and so `![1]`) are
    /// citations unless a definition *before* them makes them links (or
    /// images): a definition further on does not reach back. That keeps a streamed message's finished blocks
    /// final (a definition arriving later cannot change them) and matches
    /// how models write their own source lists at the end of an answer.
    /// `definitions` are the document's marker-labelled definitions (see
    /// [`marker_definitions`]).
    pub(crate) fn with_marker_definitions(mut self, definitions: Vec<(String, usize)>) -> Self {
        if self.resolver.options.syntaxes.markers {
            self.marker_definitions = definitions;
        }
        self
    }

    /// Looks sources up in `order`, kept by the caller for the options'
    /// sources (a stream renders many pieces against the same sources).
    pub(crate) fn with_source_order(mut self, order: &'o SourceOrder) -> Self {
        self.resolver = self.resolver.with_source_order(order);
        self
    }

    /// Whether a reference link labelled `label` at `at` refers to a
    /// marker definition further on.
    fn refers_forward(&self, label: &str, at: usize) -> bool {
        !self.marker_definitions.is_empty()
            && self
                .marker_definitions
                .iter()
                .any(|(l, start)| *start > at && *l == normalize_label(label))
    }

    /// A reference link to a later marker definition, written back as the
    /// text it was: its `[` and closing `]` (or `][label]`) become text.
    /// (In place: events are large, and this runs on every one of them.)
    fn unlink_forward_reference(&mut self, event: &mut Event<'a>, range: &mut Range<usize>) {
        let reference = |link_type: &LinkType| {
            matches!(
                link_type,
                LinkType::Shortcut | LinkType::Collapsed | LinkType::Reference
            )
        };
        let image = matches!(event, Event::Start(Tag::Image { .. }));
        match event {
            Event::Start(Tag::Link { link_type, id, .. } | Tag::Image { link_type, id, .. })
                if reference(link_type)
                    && self.unlinking.is_none()
                    && self.refers_forward(id, range.start) =>
            {
                // (`[`, or an image's `![`.)
                let opening = 1 + usize::from(image);
                self.unlinking = Some(Unlinking {
                    link_type: *link_type,
                    image,
                    link: range.clone(),
                    content_end: range.start + opening,
                });
                *range = range.start..range.start + opening;
                *event = self.source_text(range);
            }
            Event::End(end @ (TagEnd::Link | TagEnd::Image))
                if self
                    .unlinking
                    .as_ref()
                    .is_some_and(|u| u.image == (*end == TagEnd::Image)) =>
            {
                let Some(Unlinking {
                    link_type,
                    link,
                    content_end,
                    ..
                }) = self.unlinking.take()
                else {
                    return;
                };
                // (`][label]` follows the text; pulldown-cmark also reads
                // `[1]\[1]` as one, so it is found after the text's end.)
                let closing = match link_type {
                    LinkType::Reference => content_end,
                    _ => link.end.saturating_sub(1),
                };
                // pulldown-cmark leaves the `[]` of `[1][]` out of the range.
                let end = match link_type {
                    LinkType::Collapsed
                        if self
                            .markdown
                            .get(link.end..)
                            .is_some_and(|rest| rest.starts_with("[]")) =>
                    {
                        link.end + 2
                    }
                    _ => link.end,
                };
                *range = closing.min(end)..end;
                *event = self.source_text(range);
            }
            _ => {
                if let Some(unlinking) = &mut self.unlinking {
                    unlinking.content_end = unlinking.content_end.max(range.end);
                }
            }
        }
    }

    /// The markdown in `range` as a text event.
    fn source_text(&self, range: &Range<usize>) -> Event<'a> {
        let text = self.markdown.get(range.clone()).unwrap_or_default();
        Event::Text(CowStr::Borrowed(text))
    }

    /// The index of everything recognized so far (all of it, once the
    /// iterator is exhausted).
    pub(crate) fn finish(self) -> CitationIndex {
        self.resolver.finish()
    }

    /// What was recorded, to go on with the next part of a message.
    pub(crate) fn into_index(self) -> IndexBuilder {
        self.resolver.index
    }

    /// Runs the adaptor to the end, handing each citation-aware event to
    /// `sink` with the resolver, where the citations it names are described
    /// (see [`Resolver::view`]). Events that need no looking at go straight
    /// through; a leaf block's inline events are gathered into a run first.
    pub(crate) fn write_to<S: FnMut(Ev<'a>, &Resolver<'o>)>(&mut self, sink: &mut S) {
        while let Some((mut event, mut range)) = self.events.next() {
            if !self.marker_definitions.is_empty() {
                self.unlink_forward_reference(&mut event, &mut range);
            }
            if is_inline(&event) {
                if self.block == BlockContent::Plain {
                    sink(Ev::Md(event), &self.resolver);
                } else {
                    self.run.push((event, range));
                }
                continue;
            }
            self.flush_run(sink);
            // A block's source decides whether its inline content needs
            // looking at; the decision holds until the next block event.
            self.block = match &event {
                Event::Start(Tag::CodeBlock(_)) => BlockContent::Plain,
                // Only leaf blocks are scanned: their range is their inline
                // content. (A list item's range holds its nested lists, and
                // scanning those again at every depth would be quadratic.)
                Event::Start(
                    Tag::Paragraph
                    | Tag::Heading { .. }
                    | Tag::TableCell
                    | Tag::DefinitionListTitle,
                ) => self.scan_block(&range),
                _ => BlockContent::Any,
            };
            sink(Ev::Md(event), &self.resolver);
        }
        self.flush_run(sink);
    }

    /// What `markdown[range]` could hold that this adaptor changes: a `[`,
    /// a `<`, or the start of a bare URL. Most prose holds none, and its
    /// events then pass through without buffering; most of the rest holds
    /// no bare URL, and its text is then not searched for one.
    fn scan_block(&self, range: &Range<usize>) -> BlockContent {
        let options = self.resolver.options;
        let source = self.markdown.get(range.clone()).unwrap_or(self.markdown);
        // (Math is found on the run's events: a block that may hold it is run.)
        let math = options.math && crate::math::may_hold_math(source);
        if options.syntaxes == Syntaxes::none() && !options.autolinks {
            return match math {
                true => BlockContent::NoBareUrls,
                false => BlockContent::Plain,
            };
        }
        if may_contain_autolink(source) {
            BlockContent::Any
        } else if math
            || memchr::memchr2(b'[', b'<', source.as_bytes()).is_some()
            || (options.syntaxes.file_search_markers && source.contains(marker::FILE_SEARCH_OPEN))
        {
            BlockContent::NoBareUrls
        } else {
            BlockContent::Plain
        }
    }

    fn flush_run<S: FnMut(Ev<'a>, &Resolver<'o>)>(&mut self, sink: &mut S) {
        if self.run.is_empty() {
            return;
        }
        if self.resolver.options.math {
            // (Before anything reads the text: TeX never holds citations.)
            crate::math::fold_math(self.markdown, &mut self.run);
        }
        let mut processor = RunProcessor {
            markdown: self.markdown,
            resolver: &mut self.resolver,
            sink,
            held_text: None,
            items: &mut self.items,
            bare_urls: self.block == BlockContent::Any,
            text: &mut self.text,
            link_depth: 0,
            suppressed_links: 0,
            citation_end: None,
            paren_opened: false,
            strip_close_paren: false,
            skip_until: None,
        };
        processor.process(&mut self.run, &mut self.tag_actions);
        self.run.clear();
    }
}

/// The link reference definitions in `definitions` whose label is a
/// citation marker, as (normalized label, start of the definition).
pub(crate) fn marker_definitions(
    definitions: &pulldown_cmark::RefDefs<'_>,
) -> Vec<(String, usize)> {
    definitions
        .iter()
        .filter(|(label, _)| is_marker_label(label))
        .map(|(label, definition)| (normalize_label(label), definition.span.start))
        .collect()
}

/// Whether a link label reads as citation markers (`1`, `1, 3`, `2][3`).
pub(crate) fn is_marker_label(label: &str) -> bool {
    // (Every marker holds an ASCII digit: most labels are words, asked of
    // at every rendering that parses the definitions committed before.)
    // (The most common, a number alone, read without building the group.)
    let number = |label: &str| {
        (1..=marker::MAX_DIGITS).contains(&label.len()) && label.bytes().all(|b| b.is_ascii_digit())
    };
    number(label)
        || label.bytes().any(|b| b.is_ascii_digit())
            && !marker::only_markers(&format!("[{label}]")).is_empty()
}

/// A link label as CommonMark matches it: case-folded, whitespace collapsed.
fn normalize_label(label: &str) -> String {
    label
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// What a block's source may hold, as far as this adaptor is concerned.
#[derive(Clone, Copy, PartialEq, Eq)]
enum BlockContent {
    /// Nothing citation-like (or code): inline events pass through.
    Plain,
    /// `[` or `<` but no bare URL.
    NoBareUrls,
    /// Anything (or not scanned: a tight list item's text).
    Any,
}

/// A reference link being written back as its text (see
/// [`Citations::with_marker_definitions`]).
struct Unlinking {
    link_type: LinkType,
    /// An image (`![1]`), not a link.
    image: bool,
    link: Range<usize>,
    /// Where the link's text ends so far.
    content_end: usize,
}

/// Something recognized inside a text run.
enum TextItem {
    Link { range: Range<usize>, href: String },
    Citation { range: Range<usize>, found: Found },
}

impl TextItem {
    fn range(&self) -> &Range<usize> {
        match self {
            TextItem::Link { range, .. } | TextItem::Citation { range, .. } => range,
        }
    }
}

/// What the pre-pass decided for the `InlineHtml` events of a run, by
/// run index (a buffer kept from run to run).
#[derive(Default)]
struct TagActions(Vec<Option<TagAction>>);

impl TagActions {
    /// Empty, with room for a run of `len` events.
    fn reset(&mut self, len: usize) {
        self.0.clear();
        self.0.resize_with(len, || None);
    }

    fn set(&mut self, at: usize, action: TagAction) {
        if let Some(slot) = self.0.get_mut(at) {
            *slot = Some(action);
        }
    }

    fn take(&mut self, at: usize) -> Option<TagAction> {
        self.0.get_mut(at).and_then(Option::take)
    }
}

/// What the pre-pass decided for one `InlineHtml` event.
enum TagAction {
    /// Opens a citation closed by the event at `close`.
    Open { id: String, close: usize },
    /// A tag that is dropped (a cite tag whose content stays as plain text,
    /// or a `<sup>` around markers, which get their own).
    Drop,
}

struct RunProcessor<'r, 'a, 'o, S> {
    markdown: &'a str,
    resolver: &'r mut Resolver<'o>,
    sink: &'r mut S,
    /// The last text written, held back while a citation link right after
    /// it may still take its `(` (see [`RunProcessor::strip_open_paren`]).
    held_text: Option<CowStr<'a>>,
    /// What the last text held (a buffer kept from run to run).
    items: &'r mut Vec<TextItem>,
    /// The block may hold bare URLs (else its text is not searched for them).
    bare_urls: bool,
    text: &'r mut TextRun<'a>,
    /// Inside a link or image: no citations there.
    link_depth: usize,
    /// Links inside a citation label, written as their text.
    suppressed_links: usize,
    /// The run index of the event that ends the open citation.
    citation_end: Option<usize>,
    /// A `(` before the open citation link was removed...
    paren_opened: bool,
    /// ... so the `)` right after the link goes too.
    strip_close_paren: bool,
    /// Content events before this index are not written (a link citation
    /// whose visible text was its URL).
    skip_until: Option<usize>,
}

/// Takes the event at `i` out of the run, leaving a cheap stand-in; later
/// events stay readable for label lookahead.
fn take_event<'a>(run: &mut [(Event<'a>, Range<usize>)], i: usize) -> Event<'a> {
    std::mem::replace(&mut run[i].0, Event::SoftBreak)
}

impl<'a, 'o, S: FnMut(Ev<'a>, &Resolver<'o>)> RunProcessor<'_, 'a, 'o, S> {
    fn syntaxes(&self) -> Syntaxes {
        self.resolver.options.syntaxes
    }

    fn process(&mut self, run: &mut [(Event<'a>, Range<usize>)], tag_actions: &mut TagActions) {
        self.pre_pass(run, tag_actions);
        for i in 0..run.len() {
            let range = run[i].1.clone();
            if self.citation_end == Some(i) {
                self.flush_text();
                self.citation_end = None;
                self.emit(Ev::CitationEnd);
                self.strip_close_paren = std::mem::take(&mut self.paren_opened);
                continue;
            }
            if self.skip_until.is_some_and(|end| i < end) {
                continue;
            }
            let event = match take_event(run, i) {
                // A footnote reference inside a citation's label would nest
                // anchors: it stays as written.
                Event::FootnoteReference(_) if self.citation_end.is_some() => Event::Text(
                    CowStr::Borrowed(self.markdown.get(range.clone()).unwrap_or("")),
                ),
                event => event,
            };
            if let Event::Text(text) = event {
                self.text.push(text, range);
                continue;
            }
            self.flush_text();
            if !matches!(event, Event::SoftBreak | Event::HardBreak) {
                self.strip_close_paren = false;
            }
            match (event, tag_actions.take(i)) {
                (Event::InlineHtml(_), Some(TagAction::Drop)) => {}
                (Event::InlineHtml(_), Some(TagAction::Open { id, close })) => {
                    let end = run.get(close).map_or(range.end, |(_, r)| r.end);
                    let label = plain_text(&run[i + 1..close.max(i + 1)]);
                    let found = Found::new(CitationKind::Cite, id, label, range.start..end);
                    let ordinal = self.resolver.resolve(found);
                    self.emit(Ev::Citation(ordinal));
                    if close == i {
                        self.emit(Ev::CitationEnd);
                    } else {
                        self.citation_end = Some(close);
                    }
                }
                (Event::Start(link @ Tag::Link { .. }), _) => {
                    if self.citation_end.is_some() {
                        // A link inside a citation label would nest anchors.
                        self.suppressed_links += 1;
                        continue;
                    }
                    if let (
                        0,
                        Tag::Link {
                            link_type,
                            dest_url,
                            ..
                        },
                    ) = (self.link_depth, &link)
                    {
                        if let Some(mut found) = self.resolver.classify_url(dest_url, &range) {
                            let close = matching_end(run, i);
                            let label = plain_text(&run[i + 1..close]);
                            // `<url>` and `[url](url)` show the URL: show the
                            // source's title instead (the writer's fallback
                            // for a citation with no content).
                            if *link_type == LinkType::Autolink || label == **dest_url {
                                run[i + 1..close]
                                    .iter_mut()
                                    .for_each(|(e, _)| *e = Event::SoftBreak);
                                self.skip_until = Some(close);
                            } else {
                                found.label = label;
                            }
                            self.open_link_citation(found, close);
                            continue;
                        }
                        if let Some((found, close)) = self.marker_link(&link, &run[i..], &range) {
                            // The writer shows the number, as for `[1]`.
                            run[i + 1..i + close]
                                .iter_mut()
                                .for_each(|(e, _)| *e = Event::SoftBreak);
                            self.skip_until = Some(i + close);
                            self.open_link_citation(found, i + close);
                            continue;
                        }
                    }
                    self.link_depth += 1;
                    self.push(Event::Start(link));
                }
                (Event::End(TagEnd::Link), _) if self.suppressed_links > 0 => {
                    self.suppressed_links -= 1;
                }
                (Event::Start(tag @ Tag::Image { .. }), _) => {
                    self.link_depth += 1;
                    self.push(Event::Start(tag));
                }
                (Event::End(tag @ (TagEnd::Link | TagEnd::Image)), _) => {
                    self.link_depth = self.link_depth.saturating_sub(1);
                    self.push(Event::End(tag));
                }
                (event, _) => self.push(event),
            }
        }
        self.flush_text();
        if self.citation_end.take().is_some() {
            self.emit(Ev::CitationEnd);
        }
        self.release_text();
    }

    fn push(&mut self, event: Event<'a>) {
        match event {
            Event::Text(text) => {
                self.release_text();
                self.held_text = Some(text);
            }
            event => self.emit(Ev::Md(event)),
        }
    }

    /// Hands `event` to the sink, after the held text.
    fn emit(&mut self, event: Ev<'a>) {
        self.release_text();
        (self.sink)(event, &*self.resolver);
    }

    fn release_text(&mut self) {
        if let Some(text) = self.held_text.take() {
            (self.sink)(Ev::Md(Event::Text(text)), &*self.resolver);
        }
    }

    /// `[1](https://…)` and `[[1]](https://…)`, the form web-search answers
    /// use: an inline link whose whole text is one marker number cites that
    /// number, and its URL is the `href` when no source has the number.
    /// `link` starts `run`; returns the citation and where the link ends in
    /// `run`.
    fn marker_link(
        &self,
        link: &Tag<'_>,
        run: &[(Event<'a>, Range<usize>)],
        range: &Range<usize>,
    ) -> Option<(Found, usize)> {
        let Tag::Link {
            link_type: LinkType::Inline,
            dest_url,
            ..
        } = link
        else {
            return None;
        };
        if !self.syntaxes().markers {
            return None;
        }
        let texts = run[1..]
            .iter()
            .take_while(|(e, _)| matches!(e, Event::Text(_)))
            .count();
        let close = 1 + texts;
        if texts == 0 || !matches!(run.get(close), Some((Event::End(TagEnd::Link), _))) {
            return None;
        }
        let label = plain_text(&run[1..close]);
        let number = label
            .strip_prefix('[')
            .and_then(|l| l.strip_suffix(']'))
            .unwrap_or(&label);
        let digits = number.len();
        let numeric = (1..=marker::MAX_DIGITS).contains(&digits)
            && number.bytes().all(|b| b.is_ascii_digit())
            && number.bytes().any(|b| b != b'0');
        if !numeric {
            return None;
        }
        let key = number.trim_start_matches('0').to_owned();
        let mut found = Found::new(CitationKind::Index, key.clone(), key, range.clone());
        // (The index never hands the host a URL the policy would not link.)
        found.url = crate::url::is_allowed(dest_url, self.resolver.options.urls)
            .then(|| dest_url.to_string());
        Some((found, close))
    }

    /// Starts a citation made from a markdown link whose end is at `close`.
    fn open_link_citation(&mut self, found: Found, close: usize) {
        self.paren_opened = self.syntaxes().recovery && self.strip_open_paren();
        let ordinal = self.resolver.resolve(found);
        self.emit(Ev::Citation(ordinal));
        self.citation_end = Some(close);
    }

    /// Removes a `(` ending the text just written; whether there was one.
    fn strip_open_paren(&mut self) -> bool {
        let Some(text) = &mut self.held_text else {
            return false;
        };
        if !text.ends_with('(') {
            return false;
        }
        if text.len() == 1 {
            self.held_text = None;
        } else {
            *text = slice(text, 0..text.len() - 1);
        }
        true
    }

    /// Decides what happens to raw inline tags: cite tags are paired within
    /// the run (same inline nesting level only, so a citation element never
    /// straddles `<strong>`), and `<sup>` around a marker group is dropped.
    fn pre_pass(&mut self, run: &[(Event<'a>, Range<usize>)], actions: &mut TagActions) {
        if !run.iter().any(|(e, _)| matches!(e, Event::InlineHtml(_))) {
            actions.reset(0);
            return;
        }
        actions.reset(run.len());
        if self.syntaxes().markers {
            self.unwrap_superscript_markers(run, actions);
        }
        if self.syntaxes().cite_tags {
            self.pair_cite_tags(run, actions);
        }
    }

    /// LLMs write `<sup>[1]</sup>`; the marker becomes a citation in its own
    /// `<sup>`, so the raw one would double it.
    fn unwrap_superscript_markers(
        &self,
        run: &[(Event<'a>, Range<usize>)],
        actions: &mut TagActions,
    ) {
        let is_tag = |i: usize, tag: &str| matches!(run.get(i), Some((Event::InlineHtml(html), _)) if html.trim().eq_ignore_ascii_case(tag));
        for i in 0..run.len() {
            if !is_tag(i, "<sup>") {
                continue;
            }
            let texts = run[i + 1..]
                .iter()
                .take_while(|(e, _)| matches!(e, Event::Text(_)))
                .count();
            let close = i + 1 + texts;
            if texts == 0 || !is_tag(close, "</sup>") {
                continue;
            }
            let inner: String = run[i + 1..close]
                .iter()
                .filter_map(|(e, _)| {
                    if let Event::Text(t) = e {
                        Some(&**t)
                    } else {
                        None
                    }
                })
                .collect();
            let table = self.resolver.table();
            let becomes_citation = |n: u32| !table.known() && n != 0 || table.by_index(n).is_some();
            let markers = marker::only_markers(&inner);
            if markers
                .iter()
                .flat_map(|m| m.numbers())
                .any(becomes_citation)
            {
                actions.set(i, TagAction::Drop);
                actions.set(close, TagAction::Drop);
            }
        }
    }

    fn pair_cite_tags(&mut self, run: &[(Event<'a>, Range<usize>)], actions: &mut TagActions) {
        // (run index, id, nesting depth at the open tag)
        let mut open: Option<(usize, Option<String>, usize)> = None;
        let mut depth = 0usize;
        let mut link_depth = 0usize;
        for (i, (event, range)) in run.iter().enumerate() {
            match event {
                Event::Start(tag) => {
                    depth += 1;
                    if matches!(tag, Tag::Link { .. } | Tag::Image { .. }) {
                        link_depth += 1;
                    }
                }
                Event::End(tag) => {
                    if let Some((at, id, open_depth)) = open.take() {
                        if depth == open_depth {
                            self.unclosed_cite(actions, at, id, &run[at].1);
                        } else {
                            open = Some((at, id, open_depth));
                        }
                    }
                    depth = depth.saturating_sub(1);
                    if matches!(tag, TagEnd::Link | TagEnd::Image) {
                        link_depth = link_depth.saturating_sub(1);
                    }
                }
                Event::InlineHtml(html) => match parse_cite_tag(html) {
                    // Inside link text a cite tag would nest links: keep its text only.
                    Some(_) if link_depth > 0 => {
                        actions.set(i, TagAction::Drop);
                    }
                    Some(CiteTag::Open {
                        id,
                        self_closing: true,
                    }) => {
                        let action = match id {
                            Some(id) if open.is_none() => TagAction::Open { id, close: i },
                            _ => TagAction::Drop,
                        };
                        actions.set(i, action);
                    }
                    Some(CiteTag::Open { id, .. }) => {
                        if open.is_none() {
                            open = Some((i, id, depth));
                        } else {
                            actions.set(i, TagAction::Drop);
                        }
                    }
                    Some(CiteTag::Close) => {
                        actions.set(i, TagAction::Drop);
                        match open.take() {
                            Some((at, Some(id), open_depth)) if open_depth == depth => {
                                actions.set(at, TagAction::Open { id, close: i });
                            }
                            Some((at, None, open_depth)) if open_depth == depth => {
                                actions.set(at, TagAction::Drop);
                                let span = run[at].1.start..range.end;
                                self.resolver.index.diagnose(
                                    DiagnosticKind::CiteWithoutId,
                                    span,
                                    None,
                                );
                            }
                            still_open => open = still_open,
                        }
                    }
                    None => {}
                },
                _ => {}
            }
        }
        if let Some((at, id, _)) = open {
            self.unclosed_cite(actions, at, id, &run[at].1);
        }
    }

    fn unclosed_cite(
        &mut self,
        actions: &mut TagActions,
        at: usize,
        id: Option<String>,
        range: &Range<usize>,
    ) {
        actions.set(at, TagAction::Drop);
        let kind = if id.is_some() {
            DiagnosticKind::UnclosedCite
        } else {
            DiagnosticKind::CiteWithoutId
        };
        self.resolver.index.diagnose(kind, range.clone(), id);
    }

    /// Writes the pending text, recognizing markers and bare URLs in it.
    fn flush_text(&mut self) {
        if self.text.is_empty() {
            return;
        }
        if std::mem::take(&mut self.strip_close_paren) {
            self.text.strip_leading_paren();
        }
        let merged = self.text.merge(self.markdown);
        if !merged.is_empty() {
            if self.link_depth > 0 || self.citation_end.is_some() {
                self.push(Event::Text(merged));
            } else {
                // (The list is kept from text to text: most texts find nothing.)
                let mut items = std::mem::take(self.items);
                self.recognize(&merged, &mut items);
                if items.is_empty() {
                    self.push(Event::Text(merged));
                } else {
                    self.write_with_items(&merged, items.drain(..));
                }
                *self.items = items;
            }
        }
        self.text.clear();
    }

    /// Bare URLs first (a marker inside a URL is part of the URL), then
    /// markers in the gaps; into `items`, in order.
    fn recognize(&mut self, text: &str, items: &mut Vec<TextItem>) {
        let options = self.resolver.options;
        let syntaxes = options.syntaxes;
        let wants_urls = options.autolinks || syntaxes.short_links || syntaxes.query_links;
        if wants_urls && self.bare_urls && may_contain_autolink(text) {
            for mut link in find_autolinks(text) {
                if syntaxes.markers {
                    trim_trailing_markers(text, &mut link);
                }
                let (source_range, _) = self.text.source_range(self.markdown, &link.range);
                match self.resolver.classify_url(&link.href, &source_range) {
                    Some(found) => items.push(TextItem::Citation {
                        range: link.range,
                        found,
                    }),
                    None if options.autolinks => items.push(TextItem::Link {
                        range: link.range,
                        href: link.href,
                    }),
                    None => {}
                }
            }
        }
        let spellings = marker::Spellings::of(syntaxes);
        if !spellings.any() {
            return;
        }
        if items.is_empty() {
            for marker in marker::find_markers(text, spellings) {
                self.marker_items(text, marker, items);
            }
            return;
        }
        let mut url_items = std::mem::take(items).into_iter().peekable();
        for marker in marker::find_markers(text, spellings) {
            while url_items
                .peek()
                .is_some_and(|u| u.range().end <= marker.range.start)
            {
                items.extend(url_items.next());
            }
            if url_items
                .peek()
                .is_some_and(|u| u.range().start < marker.range.end)
            {
                continue; // inside a URL
            }
            self.marker_items(text, marker, items);
        }
        items.extend(url_items);
    }

    /// The citations of one marker group; numbers no source has stay text.
    /// A single marker right after a bracketed label (`[the docs][1]`,
    /// which CommonMark leaves as text when no `[1]:` is defined) is one
    /// citation labelled with it.
    fn marker_items(&mut self, text: &str, marker: marker::Marker, items: &mut Vec<TextItem>) {
        let escaped = |at: usize| is_escaped(self.markdown, at);
        // `\[1\]` is the writer asking for literal brackets.
        let literal = |(range, verbatim): &(Range<usize>, bool)| {
            !verbatim || escaped(range.start) || escaped(range.end.saturating_sub(1))
        };
        let after = items.last().map_or(0, |item| item.range().end);
        let labelled = labelled_by(text, &marker, after)
            .map(|label| {
                let group = label.start - 1..marker.range.end;
                (label, self.text.source_range(self.markdown, &group), group)
            })
            .filter(|(_, source, _)| !literal(source));
        let (label, (source_range, _), group) = match labelled {
            Some((label, source, group)) => (Some(label), source, group),
            None => {
                let source = self.text.source_range(self.markdown, &marker.range);
                if literal(&source) {
                    return;
                }
                (None, source, marker.range.clone())
            }
        };
        // The group's text goes to its first citation; the rest are zero-width.
        let mut range = group;
        for number in marker.numbers() {
            let table = self.resolver.table();
            let has_source = table.by_index(number).is_some();
            // No source is numbered 0 by default: `results[0]` is prose.
            if !has_source && (table.known() || number == 0) {
                if number != 0 {
                    let key = Some(number.to_string());
                    self.resolver.index.diagnose(
                        DiagnosticKind::UnresolvedIndex,
                        source_range.clone(),
                        key,
                    );
                }
                continue;
            }
            let key = number.to_string();
            let shown = label
                .as_ref()
                .map_or_else(|| key.clone(), |l| text[l.clone()].to_owned());
            let mut found = Found::new(CitationKind::Index, key, shown, source_range.clone());
            found.fragment = marker.fragment.clone();
            items.push(TextItem::Citation {
                range: range.clone(),
                found,
            });
            range = range.end..range.end;
        }
    }

    fn write_with_items(&mut self, text: &CowStr<'a>, items: impl Iterator<Item = TextItem>) {
        let recovery = self.syntaxes().recovery;
        let mut written = 0;
        for item in items {
            let mut range = item.range().clone();
            if range.start < written {
                continue;
            }
            let is_link_citation = matches!(&item, TextItem::Citation { found, .. } if found.kind != CitationKind::Index);
            if recovery
                && is_link_citation
                && text[..range.start].ends_with('(')
                && text[range.end..].starts_with(')')
            {
                range = range.start - 1..range.end + 1;
            }
            if written < range.start {
                self.push(Event::Text(slice(text, written..range.start)));
            }
            match item {
                TextItem::Link {
                    range: url_range,
                    href,
                } => {
                    self.push(Event::Start(Tag::Link {
                        link_type: LinkType::Autolink,
                        dest_url: CowStr::from(href),
                        title: CowStr::Borrowed(""),
                        id: CowStr::Borrowed(""),
                    }));
                    self.push(Event::Text(slice(text, url_range)));
                    self.push(Event::End(TagEnd::Link));
                }
                TextItem::Citation { found, .. } => {
                    let ordinal = self.resolver.resolve(found);
                    self.emit(Ev::Citation(ordinal));
                    self.emit(Ev::CitationEnd);
                }
            }
            written = written.max(range.end);
        }
        if written < text.len() {
            self.push(Event::Text(slice(text, written..text.len())));
        }
    }
}

/// The label of `[label][1]`: the text inside the brackets that end right
/// before a single-number `marker`, at or after `after` (where the text
/// before is still free). Not when the label is empty, holds brackets, is
/// itself a marker (`[2][3]` is two) or is an image's (`![alt][1]`).
fn labelled_by(text: &str, marker: &marker::Marker, after: usize) -> Option<Range<usize>> {
    let mut numbers = marker.numbers();
    if numbers.next().is_none() || numbers.next().is_some() || marker.fragment.is_some() {
        return None;
    }
    let before = text.get(after..marker.range.start)?.strip_suffix(']')?;
    let open = before
        .rfind(['[', ']'])
        .filter(|&o| before.as_bytes()[o] == b'[')?;
    let label = &before[open + 1..];
    let image = before[..open].ends_with('!');
    if label.trim().is_empty() || image || is_marker_label(label) {
        return None;
    }
    Some(after + open + 1..after + before.len())
}

/// LLMs glue markers to URLs (`https://x.example/report[1]`); GFM would
/// make them part of the link. Cut them off so they cite.
fn trim_trailing_markers(text: &str, link: &mut Autolink) {
    let link_text = &text[link.range.clone()];
    let mut cut = link_text.len();
    let markers: Vec<_> = marker::find_markers(link_text, marker::Spellings::PLAIN).collect();
    for m in markers.iter().rev() {
        if m.range.end != cut || m.range.start == 0 {
            break;
        }
        cut = m.range.start;
    }
    let trimmed = link_text.len() - cut;
    if trimmed > 0 && trimmed < link.href.len() {
        link.range.end -= trimmed;
        link.href.truncate(link.href.len() - trimmed);
    }
}

/// The plain text of a slice of a run (a citation label), trimmed.
fn plain_text(events: &[(Event<'_>, Range<usize>)]) -> String {
    let piece = |event: &Event<'_>| match event {
        Event::Text(t) | Event::Code(t) => t.len(),
        Event::SoftBreak | Event::HardBreak => 1,
        _ => 0,
    };
    let mut label = String::with_capacity(events.iter().map(|(e, _)| piece(e)).sum());
    for (event, _) in events {
        match event {
            Event::Text(t) | Event::Code(t) => label.push_str(t),
            Event::SoftBreak | Event::HardBreak => label.push(' '),
            _ => {}
        }
    }
    let trimmed = label.trim();
    if trimmed.len() == label.len() {
        label
    } else {
        trimmed.to_owned()
    }
}

/// The index of the `End` matching the `Start` at `start`.
fn matching_end(events: &[(Event<'_>, Range<usize>)], start: usize) -> usize {
    let mut depth = 0usize;
    for (i, (event, _)) in events.iter().enumerate().skip(start + 1) {
        match event {
            Event::Start(_) => depth += 1,
            Event::End(_) if depth == 0 => return i,
            Event::End(_) => depth -= 1,
            _ => {}
        }
    }
    events.len()
}

#[cfg(test)]
mod tests {
    use crate::{
        render, CitationKind, DiagnosticKind, Mode, Options, RawHtml, ShortLinkPattern, Source,
        Syntaxes,
    };

    fn html(md: &str) -> String {
        render(md, &Options::default()).html
    }

    /// `is_marker_label`'s shortcut for a number alone says what reading
    /// the marker group says, up to the longest number and past it.
    #[test]
    fn a_number_alone_is_a_marker_label_as_the_group_reads() {
        let group = |label: &str| !super::marker::only_markers(&format!("[{label}]")).is_empty();
        let mut labels: Vec<String> = (0..1200).map(|n| n.to_string()).collect();
        labels.extend((1..=super::marker::MAX_DIGITS + 2).map(|len| "9".repeat(len)));
        labels.extend(["007", "", " 1", "1 ", "1a", "٣"].map(str::to_owned));
        for label in &labels {
            assert_eq!(super::is_marker_label(label), group(label), "{label:?}");
        }
    }

    fn keys(md: &str, options: &Options) -> Vec<(CitationKind, String)> {
        render(md, options)
            .citations
            .occurrences
            .into_iter()
            .map(|o| (o.kind, o.key))
            .collect()
    }

    fn three_sources() -> Options {
        Options::default().with_sources(vec![
            Source::with_id("a")
                .with_title("A")
                .with_href("https://a.example/"),
            Source::with_id("b").with_title("B"),
            Source::with_id("c").with_title("C"),
        ])
    }

    #[test]
    fn markers_in_code_stay_code() {
        assert_eq!(html("`[1]`"), "<p><code>[1]</code></p>\n");
        assert_eq!(
            html("```\n[1] <cite id=\"a\">x</cite>\n```"),
            "<pre><code>[1] &lt;cite id=\"a\"&gt;x&lt;/cite&gt;\n</code></pre>\n"
        );
        assert_eq!(html("    [1]\n"), "<pre><code>[1]\n</code></pre>\n");
    }

    #[test]
    fn escaped_brackets_footnotes_and_reference_links_are_not_markers() {
        assert_eq!(html(r"\[1\]"), "<p>[1]</p>\n");
        let footnote = html("x[^1]\n\n[^1]: note");
        assert!(
            footnote.contains("footnote-reference") && !footnote.contains("citation"),
            "{footnote}"
        );
        assert_eq!(
            html("[1]: https://x.example/\n\nsee [1]"),
            "<p>see <a href=\"https://x.example/\" rel=\"noopener noreferrer nofollow\">1</a></p>\n"
        );
        assert!(!html("[see [1] here](https://x.example/)").contains("citation"));
        assert!(!html("![alt [1]](https://x.example/i.png)").contains("citation"));
    }

    #[test]
    fn unknown_numbers_are_text_only_when_sources_are_known() {
        let unknown = render("x [7]", &three_sources());
        assert_eq!(unknown.html, "<p>x [7]</p>\n");
        assert_eq!(
            unknown.citations.diagnostics[0].kind,
            DiagnosticKind::UnresolvedIndex
        );
        let empty = render("x [1]", &Options::default().with_sources(vec![]));
        assert_eq!(empty.html, "<p>x [1]</p>\n");
        let not_yet = render("x [7]", &Options::default());
        assert!(
            not_yet.html.contains("citation citation-unresolved"),
            "{}",
            not_yet.html
        );
        let partial = render("x [1, 7]", &three_sources());
        assert_eq!(partial.citations.occurrences.len(), 1);
        assert!(partial.html.contains(">1</a></sup>"), "{}", partial.html);
    }

    #[test]
    fn only_earlier_definitions_make_markers_links() {
        let md = "Before [1], [2][3] and [1][].\n\n[1]: https://one.example\n[3]: https://three.example\n\nAfter [1] and [2][3].\n";
        let out = render(md, &Options::default());
        let keys: Vec<_> = out
            .citations
            .occurrences
            .iter()
            .map(|o| o.key.as_str())
            .collect();
        assert_eq!(keys, ["1", "2", "3", "1"]);
        assert!(out.html.contains("</sup>[]."), "{}", out.html);
        assert!(out.html.contains(
            r#"<p>After <a href="https://one.example" rel="noopener noreferrer nofollow">1</a> and <a href="https://three.example" rel="noopener noreferrer nofollow">2</a>.</p>"#
        ), "{}", out.html);
        // Without markers it is plain CommonMark: the definition reaches back.
        let plain = render(md, &Options::default().with_syntaxes(Syntaxes::none()));
        assert!(
            plain
                .html
                .starts_with(r#"<p>Before <a href="https://one.example""#),
            "{}",
            plain.html
        );
    }

    #[test]
    fn an_image_of_a_marker_defined_later_stays_text() {
        // (As a stream shows it: the definition comes after the block.)
        let out = render("![1] x\n\n[1]: https://x/\n", &Options::default());
        assert!(out.html.starts_with("<p>!<sup><a class="), "{}", out.html);
        assert!(!out.html.contains("<img"), "{}", out.html);
        let defined = render("[1]: https://x/\n\n![1] x\n", &Options::default());
        assert!(
            defined.html.contains(r#"<img src="https://x/" alt="1" />"#),
            "{}",
            defined.html
        );
    }

    #[test]
    fn a_reference_to_a_later_definition_keeps_its_text() {
        // pulldown-cmark reads `[1]\[1]` as one full reference link.
        let md = "[1]\\[1]: x and [2][3] y\n\n[1]: https://x/\n[3]: https://y/\n";
        let out = render(md, &Options::default());
        assert!(
            out.html.contains(r"</sup>\[1]: x and <sup>"),
            "{}",
            out.html
        );
        let keys: Vec<_> = out.citations.occurrences.iter().map(|o| &o.key).collect();
        assert_eq!(keys, ["1", "2", "3"]);
    }

    #[test]
    fn marker_forms_and_fragment() {
        let out = render("a [1#page=3] b [2][3] c [1-3]", &three_sources());
        let numbers: Vec<&str> = out
            .citations
            .occurrences
            .iter()
            .map(|o| o.key.as_str())
            .collect();
        assert_eq!(numbers, ["1", "2", "3", "1", "2", "3"]);
        assert_eq!(
            out.citations.occurrences[0].fragment.as_deref(),
            Some("page=3")
        );
        assert_eq!(out.citations.occurrences[0].range.start, 2);
        assert_eq!(out.citations.occurrences[0].range.end, 12);
        assert_eq!(out.citations.sources.len(), 3);
        assert_eq!(out.citations.sources[0].uses, 2);
    }

    #[test]
    fn cite_tags_pair_within_their_paragraph() {
        let out = render(
            r#"<cite id="a">**Q3** revenue</cite> and <CITE ID='b'>x</CITE>"#,
            &three_sources(),
        );
        assert!(
            out.html.contains("><strong>Q3</strong> revenue</a>"),
            "{}",
            out.html
        );
        assert_eq!(out.citations.occurrences[0].label, "Q3 revenue");
        assert_eq!(out.citations.occurrences[1].key, "b");

        let unclosed = render("a <cite id=\"a\">open\n\nnext</cite>", &Options::default());
        assert_eq!(unclosed.html, "<p>a open</p>\n<p>next</p>\n");
        assert_eq!(
            unclosed.citations.diagnostics[0].kind,
            DiagnosticKind::UnclosedCite
        );

        let no_id = render("a <cite>plain</cite> b", &Options::default());
        assert_eq!(no_id.html, "<p>a plain b</p>\n");
        assert_eq!(
            no_id.citations.diagnostics[0].kind,
            DiagnosticKind::CiteWithoutId
        );

        // A cite element never straddles <strong>.
        let straddle = html("**<cite id=\"a\">x** y</cite>");
        assert!(!straddle.contains("citation"), "{straddle}");
    }

    #[test]
    fn self_closing_and_empty_cite_tags_show_the_source_title() {
        let out = render(r#"a <cite id="b"/> <cite id="c"></cite>"#, &three_sources());
        assert!(
            out.html.contains(">B</a>") && out.html.contains(">C</a>"),
            "{}",
            out.html
        );
    }

    #[test]
    fn short_links_query_links_and_recovery() {
        let opts = three_sources().with_alias("old", "b");
        // At the path's start, under an app's `/{organization}/{project}/`
        // prefix, with a trailing slash and a query string.
        let urls = [
            "https://app.example/-/ai/conversations/conv1/call/b",
            "https://app.example/org/proj/-/ai/conversations/conv1/call/b",
            "https://app.example/org/proj/-/ai/conversations/conv1/call/b/?tab=sql",
        ];
        for md in urls.iter().flat_map(|url| {
            [
                format!("x ([label]({url})) y"),
                format!("x ([label]({url}) y"),
                format!("x [label]({url}) y"),
            ]
        }) {
            let out = render(&md, &opts);
            assert!(
                out.html.starts_with("<p>x <a class=\"citation\""),
                "{md} -> {}",
                out.html
            );
            assert!(
                out.html.ends_with(">label</a> y</p>\n"),
                "{md} -> {}",
                out.html
            );
            let occ = &out.citations.occurrences[0];
            assert_eq!((occ.kind, occ.key.as_str()), (CitationKind::Shortlink, "b"));
            assert_eq!(occ.conversation.as_deref(), Some("conv1"));
        }
        let aliased = render("[l](https://h/o/p/-/ai/conversations/c/call/old)", &opts);
        assert_eq!(aliased.citations.occurrences[0].key, "b");
        assert_eq!(
            aliased.citations.occurrences[0].original_key.as_deref(),
            Some("old")
        );

        let query = render(
            "[q](https://h/-/open-query?query=%7B%22a%22%3A1%7D%5D.)",
            &opts,
        );
        assert_eq!(
            query.citations.occurrences[0].query,
            Some(serde_json::json!({"a": 1}))
        );
        let broken = render("[q](https://h/-/open-query?query=%7B%22a)", &opts);
        assert_eq!(
            broken.citations.diagnostics[0].kind,
            DiagnosticKind::MalformedQuery
        );
        assert!(
            broken.html.contains("<a href=\"https://h/-/open-query"),
            "{}",
            broken.html
        );
    }

    #[test]
    fn links_inside_cite_labels_are_written_as_text() {
        let out = html(r#"<cite id="a">see [docs](https://d.example/)</cite>"#);
        assert_eq!(out.matches("<a ").count(), 1, "{out}");
        assert!(out.contains(">see docs</a>"), "{out}");
        // A footnote reference, too (found by tests/properties.rs).
        let out = html("x[^1]\n\n<cite id=\"a\">see [^1]</cite>\n\n[^1]: note");
        assert!(out.contains(">see [^1]</a>"), "{out}");
    }

    #[test]
    fn modes() {
        let md = r#"x <cite id="a">lbl</cite> [2]"#;
        let button = render(md, &three_sources().with_mode(Mode::Button)).html;
        assert!(
            button.contains(
                r#"<button type="button" class="citation" title="A" data-citation-key="a""#
            ),
            "{button}"
        );
        assert!(button.contains("<sup><button"), "{button}");
        let icon = render(md, &three_sources().with_mode(Mode::Icon)).html;
        assert!(
            icon.contains(
                r#"aria-label="lbl"><span class="citation-icon" aria-hidden="true"></span></a>"#
            ),
            "{icon}"
        );
        assert!(!icon.contains("<sup>"), "{icon}");
        let embedded = render(
            md,
            &three_sources().with_mode(Mode::Icon).with_embedded(true),
        )
        .html;
        assert!(
            embedded.contains("<button") && !embedded.contains("<a "),
            "{embedded}"
        );
    }

    #[test]
    fn raw_html_policies() {
        let md = "a <b onclick=\"x\">b</b> <script>alert(1)</script>";
        // The script element goes; its text was markdown text and stays, inert.
        assert_eq!(
            render(md, &Options::default()).html,
            "<p>a <b>b</b> alert(1)</p>\n"
        );
        let escaped = render(md, &Options::default().with_raw_html(RawHtml::Escape)).html;
        assert_eq!(
            escaped,
            "<p>a &lt;b onclick=\"x\"&gt;b&lt;/b&gt; &lt;script&gt;alert(1)&lt;/script&gt;</p>\n"
        );
        assert_eq!(
            render(md, &Options::default().with_raw_html(RawHtml::Strip)).html,
            "<p>a b alert(1)</p>\n"
        );
    }

    #[test]
    fn unsafe_urls_render_as_text() {
        assert_eq!(
            html("[x](javascript:alert(1)) ![y](data:text/html,z)"),
            "<p>x y</p>\n"
        );
        assert_eq!(
            html("<javascript:alert(1)>"),
            "<p>javascript:alert(1)</p>\n"
        );
    }

    #[test]
    fn markers_glued_to_bare_urls_still_cite() {
        let out = html("see https://x.example/report[1][2] and www.y.example[3].");
        assert!(out.contains(r#"<a href="https://x.example/report" rel="noopener noreferrer nofollow">https://x.example/report</a><sup>"#), "{out}");
        assert_eq!(
            out.matches("data-citation-kind=\"index\"").count(),
            3,
            "{out}"
        );
    }

    #[test]
    fn superscripted_markers_are_not_double_superscripts() {
        let out = html("a<sup>[1]</sup> b<sup>x</sup>");
        assert!(out.starts_with("<p>a<sup><a class="), "{out}");
        assert!(!out.contains("<sup><sup>"), "{out}");
        assert!(out.ends_with(" b<sup>x</sup></p>\n"), "{out}");
        // A marker that stays text keeps the writer's superscript.
        let literal = render("a<sup>[9]</sup>", &three_sources()).html;
        assert_eq!(literal, "<p>a<sup>[9]</sup></p>\n");
    }

    #[test]
    fn url_shaped_link_citations_show_the_source_title() {
        let urls = [
            "https://h/-/ai/conversations/c/call/b",
            "https://h/org/proj/-/ai/conversations/c/call/b",
        ];
        for md in urls.iter().flat_map(|url| {
            [
                format!("<{url}>"),
                format!("[{url}]({url})"),
                url.to_string(),
            ]
        }) {
            let out = render(&md, &three_sources()).html;
            assert!(
                out.ends_with(" data-citation-ordinal=\"1\">B</a></p>\n"),
                "{md} -> {out}"
            );
        }
        let query = html("https://h/-/open-query?query=%7B%22a%22%3A1%7D");
        assert!(query.ends_with(">query</a></p>\n"), "{query}");
    }

    #[test]
    fn zero_is_not_a_marker_and_fragments_reach_the_href() {
        let opts = Options::default().with_sources(vec![
            Source::default().with_href("https://s.example/doc.pdf")
        ]);
        let out = render("results[0] and [1#page=3]", &opts);
        assert_eq!(out.citations.occurrences.len(), 1);
        assert!(
            out.html
                .contains("href=\"https://s.example/doc.pdf#page=3\""),
            "{}",
            out.html
        );
        assert!(out.html.starts_with("<p>results[0] and "), "{}", out.html);
    }

    #[test]
    fn an_anchored_short_link_template_needs_the_path_to_start_with_it() {
        let anchored = ShortLinkPattern::new("/-/ai/conversations/{c}/call/{call}", "call")
            .expect("valid template");
        let opts = three_sources().with_short_link_patterns(vec![anchored]);
        let at_root = render("[l](https://h/-/ai/conversations/c/call/b)", &opts);
        assert_eq!(at_root.citations.occurrences.len(), 1);
        let under_prefix = render("[l](https://h/o/p/-/ai/conversations/c/call/b)", &opts);
        assert_eq!(under_prefix.citations.occurrences.len(), 0);
        assert_eq!(
            under_prefix.html,
            "<p><a href=\"https://h/o/p/-/ai/conversations/c/call/b\" rel=\"noopener noreferrer nofollow\">l</a></p>\n"
        );
    }

    #[test]
    fn ordinals_follow_document_order_across_kinds() {
        let k = keys(
            "<cite id=\"a\">x</cite> [2] [l](https://h/-/ai/conversations/c/call/c)",
            &three_sources(),
        );
        assert_eq!(
            k,
            vec![
                (CitationKind::Cite, "a".to_owned()),
                (CitationKind::Index, "2".to_owned()),
                (CitationKind::Shortlink, "c".to_owned())
            ]
        );
    }
}
