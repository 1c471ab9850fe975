//! Resolution: a recognized citation meets the host's sources and becomes
//! an occurrence in the index; the writer later reads it back as a
//! [`CitationView`].

use std::borrow::Cow;
use std::cell::OnceCell;
use std::collections::BTreeMap;
use std::ops::Range;

use memchr::memmem;

use super::index::{CitationIndex, CitationKind, DiagnosticKind, IndexBuilder, Occurrence};
use super::query::{parse_query_link, QueryLink};
use crate::options::Options;
use crate::source::{SourceOrder, SourceTable};
use crate::url;

/// A recognized citation, before it is resolved.
pub(crate) struct Found {
    pub(crate) kind: CitationKind,
    pub(crate) key: String,
    pub(crate) label: String,
    pub(crate) range: Range<usize>,
    pub(crate) url: Option<String>,
    pub(crate) fragment: Option<String>,
    pub(crate) captures: BTreeMap<String, String>,
    pub(crate) query: Option<serde_json::Value>,
}

impl Found {
    pub(crate) fn new(kind: CitationKind, key: String, label: String, range: Range<usize>) -> Self {
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

/// What the HTML writer needs to write one citation element.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct CitationView<'r> {
    pub(crate) ordinal: u32,
    pub(crate) kind: CitationKind,
    pub(crate) key: &'r str,
    pub(crate) label: &'r str,
    pub(crate) resolved: bool,
    /// Already checked against the URL policy.
    pub(crate) href: Option<Cow<'r, str>>,
    pub(crate) title: &'r str,
    /// The position of the source whose `href` and `title` these are,
    /// when every citation of it shows the same ones.
    pub(crate) shared_with_source: Option<usize>,
}

/// Resolves found citations against the sources and records them.
pub(crate) struct Resolver<'o> {
    pub(crate) options: &'o Options,
    pub(crate) index: IndexBuilder,
    /// Built at the first citation: a streamed message renders many short
    /// pieces, most of them without any.
    lookups: OnceCell<Lookups<'o>>,
    /// The sources' order, when the caller keeps it (a stream does).
    source_order: Option<&'o SourceOrder>,
}

/// The tables a resolver looks things up in.
struct Lookups<'o> {
    table: SourceTable<'o>,
    /// Whether each source's `href` passes the URL policy, checked when a
    /// citation first shows it (a streamed piece cites one or two sources).
    source_href_allowed: Vec<OnceCell<bool>>,
}

impl<'o> Lookups<'o> {
    fn new(options: &'o Options, order: Option<&'o SourceOrder>) -> Self {
        let sources = options.sources.as_deref().unwrap_or_default();
        Lookups {
            table: SourceTable::of(options, order),
            source_href_allowed: vec![OnceCell::new(); sources.len()],
        }
    }

    /// Whether the source at `position` has an `href` the URL policy allows.
    fn href_allowed(&self, position: usize, options: &Options) -> bool {
        let Some(allowed) = self.source_href_allowed.get(position) else {
            return false;
        };
        *allowed.get_or_init(|| {
            self.table
                .get(position)
                .and_then(|s| s.href.as_deref())
                .is_some_and(|h| url::is_allowed(h, options.urls))
        })
    }
}

/// The label of a query link written as a bare URL.
const QUERY_LABEL: &str = "query";

/// Every legacy query link's path contains this.
const QUERY_NEEDLE: &str = "/-/open-query";

impl<'o> Resolver<'o> {
    /// A resolver recording into `index`.
    pub(crate) fn new(options: &'o Options, index: IndexBuilder) -> Self {
        Resolver {
            options,
            index,
            lookups: OnceCell::new(),
            source_order: None,
        }
    }

    /// Looks sources up in `order`, built for the options' sources.
    pub(crate) fn with_source_order(mut self, order: &'o SourceOrder) -> Self {
        self.source_order = Some(order);
        self
    }

    fn lookups(&self) -> &Lookups<'o> {
        self.lookups
            .get_or_init(|| Lookups::new(self.options, self.source_order))
    }

    /// The supplied sources' lookup table.
    pub(crate) fn table(&self) -> &SourceTable<'o> {
        &self.lookups().table
    }

    /// The citation index: what was recorded, against the sources.
    pub(crate) fn finish(self) -> CitationIndex {
        let Resolver {
            options,
            index,
            lookups,
            source_order,
        } = self;
        // (Only the table is needed: no URL checks for a resolver that
        // never looked anything up.)
        let table = lookups.into_inner().map_or_else(
            || SourceTable::of(options, source_order),
            |lookups| lookups.table,
        );
        index.finish(&table)
    }

    /// Records `found` in the index; returns its ordinal.
    pub(crate) fn resolve(&mut self, found: Found) -> u32 {
        let (key, original_key) = match found.kind {
            CitationKind::Cite | CitationKind::Shortlink => {
                match self.table().unalias(&found.key) {
                    alias if alias != found.key => (alias.to_owned(), Some(found.key)),
                    _ => (found.key, None),
                }
            }
            CitationKind::Index | CitationKind::Query => (found.key, None),
        };
        let position = match found.kind {
            CitationKind::Index => key.parse().ok().and_then(|n| self.table().by_index(n)),
            _ => self.table().by_id(&key),
        };
        let source = position.and_then(|p| self.table().get(p));
        let title = source.and_then(|s| s.title.as_ref());
        let label = match (found.label.trim().is_empty(), title) {
            (false, _) => found.label,
            (true, Some(title)) => title.clone(),
            // A bare query URL has nothing to show but its JSON.
            (true, None) if found.kind == CitationKind::Query => QUERY_LABEL.to_owned(),
            (true, None) => key.clone(),
        };
        let ordinal = self.index.next_ordinal();
        let occurrence = Occurrence {
            ordinal,
            kind: found.kind,
            key,
            original_key,
            label,
            // A query link carries what it cites in its own URL.
            resolved: source.is_some() || found.kind == CitationKind::Query,
            number: position.map(|p| self.index.cite_source(p)),
            range: found.range.into(),
            url: found.url,
            fragment: found.fragment,
            conversation: found.captures.get("conversation").cloned(),
            captures: found.captures,
            query: found.query,
        };
        self.index.push(occurrence);
        ordinal
    }

    /// What a link URL cites, if anything. A malformed query link cites
    /// nothing and is reported.
    pub(crate) fn classify_url(&mut self, url: &str, range: &Range<usize>) -> Option<Found> {
        let syntaxes = self.options.syntaxes;
        if syntaxes.short_links {
            for pattern in &self.options.short_link_patterns {
                // (A cheap filter: the literal part every match contains.
                // URLs are short, and a streamed message renders many
                // short pieces: no searcher is built ahead.)
                if memmem::find(url.as_bytes(), pattern.longest_literal().as_bytes()).is_none() {
                    continue;
                }
                if let Some(m) = pattern.match_url(url) {
                    let mut found =
                        Found::new(CitationKind::Shortlink, m.key, String::new(), range.clone());
                    found.captures = m.captures;
                    found.url = Some(url.to_owned());
                    return Some(found);
                }
            }
        }
        if syntaxes.query_links && memmem::find(url.as_bytes(), QUERY_NEEDLE.as_bytes()).is_some() {
            match parse_query_link(url)? {
                QueryLink::Query { query, href } => {
                    let mut found = Found::new(
                        CitationKind::Query,
                        serde_json::to_string(&query).unwrap_or_default(),
                        String::new(),
                        range.clone(),
                    );
                    found.url = Some(href);
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

    /// The writer's view of the occurrence with this ordinal.
    pub(crate) fn view(&self, ordinal: u32) -> Option<CitationView<'_>> {
        let occurrence = self.index.occurrence(ordinal)?;
        let position = occurrence
            .number
            .and_then(|n| self.index.source_position(n));
        let source = position.and_then(|p| self.table().get(p));
        let source_href = position
            .filter(|&p| self.lookups().href_allowed(p, self.options))
            .and_then(|_| source?.href.as_deref());
        let written_href = || {
            occurrence
                .url
                .as_deref()
                .filter(|u| url::is_allowed(u, self.options.urls))
        };
        let href = source_href
            .or_else(written_href)
            .map(|href| match &occurrence.fragment {
                // Open WebUI's `[1#page=3]`: the fragment points into the source.
                Some(fragment) if !href.contains('#') => Cow::Owned(format!("{href}#{fragment}")),
                _ => Cow::Borrowed(href),
            });
        // Without a source title the title is this occurrence's label.
        let shared = source.is_some_and(|s| s.title.is_some())
            && occurrence.fragment.is_none()
            && (source_href.is_some() || written_href().is_none());
        Some(CitationView {
            ordinal,
            kind: occurrence.kind,
            key: &occurrence.key,
            label: &occurrence.label,
            resolved: occurrence.resolved,
            href,
            title: source
                .and_then(|s| s.title.as_deref())
                .unwrap_or(&occurrence.label),
            shared_with_source: position.filter(|_| shared),
        })
    }
}
