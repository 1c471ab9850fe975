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
//! may apply (never in code, link text, image alt text or raw HTML) and
//! resolves what they find against the host's sources.

pub(crate) mod index;
mod marker;
mod query;
pub(crate) mod shortlink;
mod tag;

use std::collections::{BTreeMap, VecDeque};
use std::ops::Range;

use pulldown_cmark::{CowStr, Event, LinkType, Tag, TagEnd};

use crate::autolink::{find_autolinks, may_contain_autolink};
use crate::options::{Options, Syntaxes};
use crate::parse::is_inline;
use crate::source::SourceTable;
use crate::url;
use index::{CitationIndex, CitationKind, DiagnosticKind, IndexBuilder, Occurrence};
use query::{parse_query_link, QueryLink};
use tag::{parse_cite_tag, CiteTag};

/// A citation-aware event: a markdown event, or a citation element whose
/// content (the label's events) follows until [`Ev::CitationEnd`].
#[derive(Debug)]
pub(crate) enum Ev<'a> {
    Md(Event<'a>),
    Citation(Box<CitationElement>),
    CitationEnd,
}

/// What the HTML writer needs to write one citation element.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct CitationElement {
    pub(crate) ordinal: u32,
    pub(crate) kind: CitationKind,
    pub(crate) key: String,
    pub(crate) label: String,
    pub(crate) resolved: bool,
    /// Already checked against the URL policy.
    pub(crate) href: Option<String>,
    pub(crate) title: String,
}

/// A recognized citation before it is resolved against the sources.
struct Found {
    kind: CitationKind,
    key: String,
    label: String,
    range: Range<usize>,
    url: Option<String>,
    fragment: Option<String>,
    captures: BTreeMap<String, String>,
    query: Option<serde_json::Value>,
}

impl Found {
    fn new(kind: CitationKind, key: String, label: String, range: Range<usize>) -> Self {
        Found {
            kind,
            key,
            label,
            range,
            url: None,
            fragment: None,
            captures: BTreeMap::new(),
            query: None,
        }
    }
}

/// Resolves found citations and records them in the index.
struct Resolver<'o> {
    options: &'o Options,
    table: SourceTable<'o>,
    index: IndexBuilder,
}

impl Resolver<'_> {
    fn resolve(&mut self, found: Found) -> CitationElement {
        let (key, original_key) = match found.kind {
            CitationKind::Cite | CitationKind::Shortlink => {
                let key = self.table.unalias(&found.key).to_owned();
                let original = (key != found.key).then(|| found.key.clone());
                (key, original)
            }
            CitationKind::Index | CitationKind::Query => (found.key.clone(), None),
        };
        let position = match found.kind {
            CitationKind::Index => key.parse().ok().and_then(|n| self.table.by_index(n)),
            _ => self.table.by_id(&key),
        };
        let source = position.and_then(|p| self.table.get(p));
        let number = position.map(|p| self.index.cite_source(p));
        let policy = self.options.urls;
        let href = source
            .and_then(|s| s.href.clone())
            .filter(|h| url::is_allowed(h, policy))
            .or_else(|| found.url.clone().filter(|u| url::is_allowed(u, policy)));
        let label = if found.label.trim().is_empty() {
            source
                .and_then(|s| s.title.clone())
                .unwrap_or_else(|| key.clone())
        } else {
            found.label
        };
        let title = source
            .and_then(|s| s.title.clone())
            .unwrap_or_else(|| label.clone());
        // A query link carries what it cites in its own URL.
        let resolved = source.is_some() || found.kind == CitationKind::Query;
        let ordinal = self.index.next_ordinal();
        self.index.push(Occurrence {
            ordinal,
            kind: found.kind,
            key: key.clone(),
            original_key,
            label: label.clone(),
            resolved,
            number,
            range: found.range.into(),
            url: found.url,
            fragment: found.fragment,
            conversation: found.captures.get("conversation").cloned(),
            captures: found.captures,
            query: found.query,
        });
        CitationElement {
            ordinal,
            kind: found.kind,
            key,
            label,
            resolved,
            href,
            title,
        }
    }

    /// What a link URL cites, if anything (a malformed query link cites
    /// nothing and is reported).
    fn classify_url(&mut self, url: &str, range: &Range<usize>) -> Option<Found> {
        let syntaxes = self.options.syntaxes;
        if syntaxes.short_links {
            for pattern in &self.options.short_link_patterns {
                if let Some(m) = pattern.match_url(url) {
                    let mut found =
                        Found::new(CitationKind::Shortlink, m.key, String::new(), range.clone());
                    found.captures = m.captures;
                    found.url = Some(url.to_owned());
                    return Some(found);
                }
            }
        }
        if syntaxes.query_links {
            match parse_query_link(url)? {
                QueryLink::Query(query) => {
                    let mut found = Found::new(
                        CitationKind::Query,
                        query.to_string(),
                        String::new(),
                        range.clone(),
                    );
                    found.url = Some(url.to_owned());
                    found.query = Some(query);
                    return Some(found);
                }
                QueryLink::Malformed => {
                    self.index
                        .diagnose(DiagnosticKind::MalformedQuery, range.clone(), None);
                }
            }
        }
        None
    }
}

/// The adaptor: pulldown-cmark events with ranges in, [`Ev`]s out.
pub(crate) struct Citations<'a, 'o, I> {
    markdown: &'a str,
    events: I,
    resolver: Resolver<'o>,
    run: Vec<(Event<'a>, Range<usize>)>,
    out: VecDeque<Ev<'a>>,
    in_code_block: bool,
}

impl<'a, 'o, I> Citations<'a, 'o, I>
where
    I: Iterator<Item = (Event<'a>, Range<usize>)>,
{
    pub(crate) fn new(markdown: &'a str, events: I, options: &'o Options) -> Self {
        Citations {
            markdown,
            events,
            resolver: Resolver {
                options,
                table: SourceTable::new(options.sources.as_deref(), &options.aliases),
                index: IndexBuilder::new(),
            },
            run: Vec::new(),
            out: VecDeque::new(),
            in_code_block: false,
        }
    }

    /// The index of everything recognized so far (all of it, once the
    /// iterator is exhausted).
    pub(crate) fn finish(self) -> CitationIndex {
        self.resolver.index.finish(&self.resolver.table)
    }

    /// Pulls events until some output is ready (or the input ends).
    fn fill(&mut self) {
        while self.out.is_empty() {
            let Some((event, range)) = self.events.next() else {
                self.flush_run();
                return;
            };
            match &event {
                Event::Start(Tag::CodeBlock(_)) => self.in_code_block = true,
                Event::End(TagEnd::CodeBlock) => self.in_code_block = false,
                _ => {}
            }
            if is_inline(&event) && !self.in_code_block {
                self.run.push((event, range));
            } else {
                self.flush_run();
                self.out.push_back(Ev::Md(event));
            }
        }
    }

    fn flush_run(&mut self) {
        if self.run.is_empty() {
            return;
        }
        let run = std::mem::take(&mut self.run);
        let mut processor = RunProcessor {
            markdown: self.markdown,
            resolver: &mut self.resolver,
            out: &mut self.out,
            text: TextRun::default(),
            link_depth: 0,
            suppressed_links: 0,
            citation_end: None,
            paren_opened: false,
            strip_close_paren: false,
        };
        processor.process(run);
    }
}

impl<'a, I> Iterator for Citations<'a, '_, I>
where
    I: Iterator<Item = (Event<'a>, Range<usize>)>,
{
    type Item = Ev<'a>;

    fn next(&mut self) -> Option<Ev<'a>> {
        self.fill();
        self.out.pop_front()
    }
}

/// Consecutive text events, merged, remembering where each piece came from.
#[derive(Default)]
struct TextRun<'a> {
    pieces: Vec<(CowStr<'a>, Range<usize>)>,
}

/// The merged text of a run and a map back to source offsets.
struct MergedText<'a> {
    text: CowStr<'a>,
    /// (offset in `text`, source range, piece copied verbatim from source)
    segments: Vec<(usize, Range<usize>, bool)>,
}

impl<'a> TextRun<'a> {
    fn take(&mut self, markdown: &str) -> Option<MergedText<'a>> {
        if self.pieces.is_empty() {
            return None;
        }
        let mut segments = Vec::with_capacity(self.pieces.len());
        let mut offset = 0;
        for (piece, range) in &self.pieces {
            let verbatim = markdown.get(range.clone()) == Some(piece.as_ref());
            segments.push((offset, range.clone(), verbatim));
            offset += piece.len();
        }
        let text = if self.pieces.len() == 1 {
            self.pieces.pop().map(|(t, _)| t)?
        } else {
            let mut joined = String::with_capacity(offset);
            for (piece, _) in self.pieces.drain(..) {
                joined.push_str(&piece);
            }
            CowStr::from(joined)
        };
        Some(MergedText { text, segments })
    }
}

impl MergedText<'_> {
    /// The source range of `text[range]`, and whether all of it was written
    /// verbatim (no escapes or entities in it).
    fn source_range(&self, range: &Range<usize>) -> (Range<usize>, bool) {
        // Segments are sorted by offset: start at the one holding range.start
        // (a binary search keeps marker-dense paragraphs linear).
        let first = self
            .segments
            .partition_point(|s| s.0 <= range.start)
            .saturating_sub(1);
        let mut verbatim = true;
        let mut start = None;
        let mut end = 0;
        for (i, (offset, src, is_verbatim)) in self.segments.iter().enumerate().skip(first) {
            if *offset >= range.end && start.is_some() {
                break;
            }
            let piece_end = self.segments.get(i + 1).map_or(self.text.len(), |s| s.0);
            if piece_end <= range.start {
                continue;
            }
            verbatim &= *is_verbatim;
            let map = |at: usize| {
                if *is_verbatim {
                    src.start + (at - offset)
                } else {
                    src.start
                }
            };
            start.get_or_insert_with(|| map(range.start.max(*offset)));
            end = if *is_verbatim {
                map(range.end.min(piece_end))
            } else {
                src.end
            };
        }
        (start.unwrap_or(0)..end, verbatim)
    }
}

/// Something recognized inside a text run.
enum TextItem {
    Link {
        range: Range<usize>,
        href: String,
    },
    Citation {
        range: Range<usize>,
        found: Box<Found>,
    },
}

impl TextItem {
    fn range(&self) -> &Range<usize> {
        match self {
            TextItem::Link { range, .. } | TextItem::Citation { range, .. } => range,
        }
    }
}

/// What the cite-tag pass decided for one `InlineHtml` event.
enum TagAction {
    /// Opens a citation closed by the event at `close`.
    Open { id: String, close: usize },
    /// A cite tag that is dropped (its content stays as plain text).
    Drop,
}

struct RunProcessor<'r, 'a, 'o> {
    markdown: &'a str,
    resolver: &'r mut Resolver<'o>,
    out: &'r mut VecDeque<Ev<'a>>,
    text: TextRun<'a>,
    /// Inside a link or image: no citations there.
    link_depth: usize,
    /// Links inside a citation label, written as their text.
    suppressed_links: usize,
    /// The run index of the event that ends the open citation.
    citation_end: Option<usize>,
    /// A `(` before the open citation link was removed.
    paren_opened: bool,
    /// ... so the `)` right after the link goes too.
    strip_close_paren: bool,
}

impl<'a> RunProcessor<'_, 'a, '_> {
    fn syntaxes(&self) -> Syntaxes {
        self.resolver.options.syntaxes
    }

    fn process(&mut self, run: Vec<(Event<'a>, Range<usize>)>) {
        let tag_actions = if self.syntaxes().cite_tags {
            self.pair_cite_tags(&run)
        } else {
            BTreeMap::new()
        };
        // Taken one by one, so a label can still read the events after it.
        let mut run: Vec<Option<(Event<'a>, Range<usize>)>> = run.into_iter().map(Some).collect();
        for i in 0..run.len() {
            let Some((event, range)) = run[i].take() else {
                continue;
            };
            if self.citation_end == Some(i) {
                self.flush_text();
                self.citation_end = None;
                self.out.push_back(Ev::CitationEnd);
                self.strip_close_paren = std::mem::take(&mut self.paren_opened);
                continue;
            }
            if let Event::Text(text) = event {
                self.text.pieces.push((text, range));
                continue;
            }
            self.flush_text();
            if !matches!(event, Event::SoftBreak | Event::HardBreak) {
                self.strip_close_paren = false;
            }
            match (event, tag_actions.get(&i)) {
                (Event::InlineHtml(_), Some(TagAction::Drop)) => {}
                (Event::InlineHtml(_), Some(TagAction::Open { id, close })) => {
                    let close = *close;
                    let end = run
                        .get(close)
                        .and_then(|e| e.as_ref())
                        .map_or(range.end, |(_, r)| r.end);
                    let label = plain_text(&run[i + 1..close.max(i + 1)]);
                    let found = Found::new(CitationKind::Cite, id.clone(), label, range.start..end);
                    let element = self.resolver.resolve(found);
                    self.out.push_back(Ev::Citation(Box::new(element)));
                    if close == i {
                        self.out.push_back(Ev::CitationEnd);
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
                    if let (0, Tag::Link { dest_url, .. }) = (self.link_depth, &link) {
                        if let Some(mut found) = self.resolver.classify_url(dest_url, &range) {
                            let close = matching_end(&run, i);
                            found.label = plain_text(&run[i + 1..close]);
                            self.open_link_citation(found, close);
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
            self.out.push_back(Ev::CitationEnd);
        }
    }

    fn push(&mut self, event: Event<'a>) {
        self.out.push_back(Ev::Md(event));
    }

    /// Starts a citation made from a markdown link whose end is at `close`.
    fn open_link_citation(&mut self, found: Found, close: usize) {
        self.paren_opened = self.syntaxes().recovery && self.strip_open_paren();
        let element = self.resolver.resolve(found);
        self.out.push_back(Ev::Citation(Box::new(element)));
        self.citation_end = Some(close);
    }

    /// Removes a `(` ending the text just written; whether there was one.
    fn strip_open_paren(&mut self) -> bool {
        let Some(Ev::Md(Event::Text(text))) = self.out.back_mut() else {
            return false;
        };
        let Some(kept) = text.strip_suffix('(') else {
            return false;
        };
        if kept.is_empty() {
            self.out.pop_back();
        } else {
            *text = CowStr::from(kept.to_owned());
        }
        true
    }

    /// Pairs cite tags within the run (same inline nesting level only, so
    /// the citation element never straddles `<strong>` boundaries).
    fn pair_cite_tags(&mut self, run: &[(Event<'a>, Range<usize>)]) -> BTreeMap<usize, TagAction> {
        let mut actions = BTreeMap::new();
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
                            self.unclosed_cite(&mut actions, at, id, &run[at].1);
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
                        actions.insert(i, TagAction::Drop);
                    }
                    Some(CiteTag::Open { id, self_closing }) => {
                        if self_closing {
                            match id {
                                Some(id) if open.is_none() => {
                                    actions.insert(i, TagAction::Open { id, close: i });
                                }
                                _ => {
                                    actions.insert(i, TagAction::Drop);
                                }
                            }
                        } else if open.is_none() {
                            open = Some((i, id, depth));
                        } else {
                            actions.insert(i, TagAction::Drop);
                        }
                    }
                    Some(CiteTag::Close) => {
                        actions.insert(i, TagAction::Drop);
                        match open.take() {
                            Some((at, Some(id), open_depth)) if open_depth == depth => {
                                actions.insert(at, TagAction::Open { id, close: i });
                            }
                            Some((at, None, open_depth)) if open_depth == depth => {
                                actions.insert(at, TagAction::Drop);
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
            self.unclosed_cite(&mut actions, at, id, &run[at].1);
        }
        actions
    }

    fn unclosed_cite(
        &mut self,
        actions: &mut BTreeMap<usize, TagAction>,
        at: usize,
        id: Option<String>,
        range: &Range<usize>,
    ) {
        actions.insert(at, TagAction::Drop);
        let kind = if id.is_some() {
            DiagnosticKind::UnclosedCite
        } else {
            DiagnosticKind::CiteWithoutId
        };
        self.resolver.index.diagnose(kind, range.clone(), id);
    }

    /// Writes the pending text, recognizing markers and bare URLs in it.
    fn flush_text(&mut self) {
        let Some(mut merged) = self.text.take(self.markdown) else {
            return;
        };
        if std::mem::take(&mut self.strip_close_paren) && merged.text.starts_with(')') {
            merged = drop_first_byte(merged);
            if merged.text.is_empty() {
                return;
            }
        }
        if self.link_depth > 0 || self.citation_end.is_some() {
            self.push(Event::Text(merged.text));
            return;
        }
        let items = self.recognize(&merged);
        if items.is_empty() {
            self.push(Event::Text(merged.text));
            return;
        }
        self.write_with_items(&merged, items);
    }

    /// Bare URLs first (a marker inside a URL is part of the URL), then
    /// markers in the gaps.
    fn recognize(&mut self, merged: &MergedText<'a>) -> Vec<TextItem> {
        let text: &str = &merged.text;
        let options = self.resolver.options;
        let syntaxes = options.syntaxes;
        let mut items = Vec::new();
        let wants_urls = options.autolinks || syntaxes.short_links || syntaxes.query_links;
        if wants_urls && may_contain_autolink(text) {
            for mut link in find_autolinks(text) {
                if syntaxes.markers {
                    trim_trailing_markers(text, &mut link);
                }
                let (source_range, _) = merged.source_range(&link.range);
                match self.resolver.classify_url(&link.href, &source_range) {
                    Some(found) => items.push(TextItem::Citation {
                        range: link.range,
                        found: Box::new(found),
                    }),
                    None if options.autolinks => items.push(TextItem::Link {
                        range: link.range,
                        href: link.href,
                    }),
                    None => {}
                }
            }
        }
        if syntaxes.markers && text.contains('[') {
            let mut url_items = items.into_iter().peekable();
            let mut merged_items = Vec::new();
            for marker in marker::find_markers(text) {
                while url_items
                    .peek()
                    .is_some_and(|u| u.range().end <= marker.range.start)
                {
                    merged_items.extend(url_items.next());
                }
                if url_items
                    .peek()
                    .is_some_and(|u| u.range().start < marker.range.end)
                {
                    continue; // inside a URL
                }
                merged_items.extend(self.marker_items(merged, marker));
            }
            merged_items.extend(url_items);
            items = merged_items;
        }
        items
    }

    /// The citations of one marker group; numbers no source has stay text.
    fn marker_items(&mut self, merged: &MergedText<'a>, marker: marker::Marker) -> Vec<TextItem> {
        let (source_range, verbatim) = merged.source_range(&marker.range);
        let escaped = |at: usize| {
            let before = &self.markdown.as_bytes()[..at.min(self.markdown.len())];
            before.iter().rev().take_while(|b| **b == b'\\').count() % 2 == 1
        };
        // `\[1\]` is the writer asking for literal brackets.
        if !verbatim || escaped(source_range.start) || escaped(source_range.end.saturating_sub(1)) {
            return Vec::new();
        }
        let group_range = marker.range.clone();
        let mut items = Vec::new();
        for number in marker.numbers {
            let key = number.to_string();
            if self.resolver.table.known() && self.resolver.table.by_index(number).is_none() {
                self.resolver.index.diagnose(
                    DiagnosticKind::UnresolvedIndex,
                    source_range.clone(),
                    Some(key),
                );
                continue;
            }
            let mut found = Found::new(CitationKind::Index, key.clone(), key, source_range.clone());
            found.fragment = marker.fragment.clone();
            items.push(found);
        }
        if items.is_empty() {
            return Vec::new();
        }
        // The whole group becomes the citations that resolved; the first
        // carries the group's text range so the rest are zero-width.
        let mut range = group_range;
        items
            .into_iter()
            .map(|found| {
                let item = TextItem::Citation {
                    range: range.clone(),
                    found: Box::new(found),
                };
                range = range.end..range.end;
                item
            })
            .collect()
    }

    fn write_with_items(&mut self, merged: &MergedText<'a>, items: Vec<TextItem>) {
        let text: &str = &merged.text;
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
                self.push(Event::Text(CowStr::from(
                    text[written..range.start].to_owned(),
                )));
            }
            match item {
                TextItem::Link {
                    range: url_range,
                    href,
                } => {
                    let link_text = text[url_range].to_owned();
                    self.push(Event::Start(Tag::Link {
                        link_type: LinkType::Autolink,
                        dest_url: CowStr::from(href),
                        title: CowStr::Borrowed(""),
                        id: CowStr::Borrowed(""),
                    }));
                    self.push(Event::Text(CowStr::from(link_text)));
                    self.push(Event::End(TagEnd::Link));
                }
                TextItem::Citation { found, .. } => {
                    let element = self.resolver.resolve(*found);
                    self.out.push_back(Ev::Citation(Box::new(element)));
                    self.out.push_back(Ev::CitationEnd);
                }
            }
            written = written.max(range.end);
        }
        if written < text.len() {
            self.push(Event::Text(CowStr::from(text[written..].to_owned())));
        }
    }
}

/// LLMs glue markers to URLs (`https://x.example/report[1]`); GFM would
/// make them part of the link. Cut them off so they cite.
fn trim_trailing_markers(text: &str, link: &mut crate::autolink::Autolink) {
    let link_text = &text[link.range.clone()];
    let mut cut = link_text.len();
    for m in marker::find_markers(link_text).iter().rev() {
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

fn drop_first_byte(merged: MergedText<'_>) -> MergedText<'_> {
    let text = CowStr::from(merged.text[1..].to_owned());
    let segments = merged
        .segments
        .into_iter()
        .map(|(offset, src, verbatim)| {
            let src = if offset == 0 && verbatim {
                src.start + 1..src.end
            } else {
                src
            };
            (offset.saturating_sub(1), src, verbatim)
        })
        .collect();
    MergedText { text, segments }
}

/// The plain text of a slice of a run (a citation label), trimmed.
fn plain_text(events: &[Option<(Event<'_>, Range<usize>)>]) -> String {
    let mut label = String::new();
    for (event, _) in events.iter().flatten() {
        match event {
            Event::Text(t) | Event::Code(t) => label.push_str(t),
            Event::SoftBreak | Event::HardBreak => label.push(' '),
            _ => {}
        }
    }
    label.trim().to_owned()
}

/// The index of the `End` matching the `Start` at `start`.
fn matching_end(events: &[Option<(Event<'_>, Range<usize>)>], start: usize) -> usize {
    let mut depth = 0usize;
    for (i, entry) in events.iter().enumerate().skip(start + 1) {
        match entry {
            Some((Event::Start(_), _)) => depth += 1,
            Some((Event::End(_), _)) if depth == 0 => return i,
            Some((Event::End(_), _)) => depth -= 1,
            _ => {}
        }
    }
    events.len()
}

#[cfg(test)]
mod tests {
    use crate::{render, CitationKind, DiagnosticKind, Mode, Options, RawHtml, Source};

    fn html(md: &str) -> String {
        render(md, &Options::default()).html
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
            html("see [1]\n\n[1]: https://x.example/"),
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
        let url = "https://app.example/-/ai/conversations/conv1/call/b";
        let opts = three_sources().with_alias("old", "b");
        for md in [
            format!("x ([label]({url})) y"),
            format!("x ([label]({url}) y"),
            format!("x [label]({url}) y"),
        ] {
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
        let aliased = render("[l](https://h/-/ai/conversations/c/call/old)", &opts);
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
