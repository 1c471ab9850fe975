//! The citation index: every citation occurrence in document order, the
//! sources they cite, and what could not be made into a citation.
//!
//! This is the JSON (camelCase) a JS host hydrates from. Occurrence
//! `ordinal`s equal the `data-citation-ordinal` attributes in the HTML.

use std::collections::{BTreeMap, HashMap};
use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::sort::sort_by;
use crate::source::{Source, SourceTable};

/// Which syntax a citation was written in; `data-citation-kind` in the HTML.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CitationKind {
    /// `<cite id="…">label</cite>`.
    Cite,
    /// A numeric marker `[n]`.
    Index,
    /// A link or bare URL matching a short-link pattern.
    Shortlink,
    /// A legacy `…/-/open-query?query=<JSON>` link.
    Query,
}

impl CitationKind {
    /// The name written in `data-citation-kind`.
    pub fn as_str(self) -> &'static str {
        match self {
            CitationKind::Cite => "cite",
            CitationKind::Index => "index",
            CitationKind::Shortlink => "shortlink",
            CitationKind::Query => "query",
        }
    }
}

/// A byte range in the input markdown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl From<Range<usize>> for Span {
    fn from(r: Range<usize>) -> Self {
        Span {
            start: r.start,
            end: r.end,
        }
    }
}

/// One citation element in the HTML.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Occurrence {
    /// 1-based position among the document's citation elements.
    pub ordinal: u32,
    /// The syntax it was written in.
    pub kind: CitationKind,
    /// The source key: its id (after aliases), or the number for `[n]`.
    pub key: String,
    /// The key as written, when an alias changed it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub original_key: Option<String>,
    /// The visible label as plain text.
    pub label: String,
    /// Whether a supplied source matched.
    pub resolved: bool,
    /// The cited source's display number in [`CitationIndex::sources`]
    /// (1-based), when resolved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub number: Option<u32>,
    /// Where it was written in the input.
    pub range: Span,
    /// The link's URL, for link syntaxes (for a query link with stray
    /// characters after its JSON, the URL with them removed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// The `#…` part of an Open WebUI marker such as `[1#page=3]`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fragment: Option<String>,
    /// For short links: the conversation id, when the pattern captures one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conversation: Option<String>,
    /// For short links: every capture of the pattern.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub captures: BTreeMap<String, String>,
    /// For query links: the decoded JSON query.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub query: Option<serde_json::Value>,
}

/// A supplied source, with how the document used it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SourceUse {
    /// Display number: 1-based order of first citation. `None` when uncited.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub number: Option<u32>,
    /// Position in [`Options::sources`](crate::Options::sources).
    pub position: usize,
    /// How many occurrences cite it.
    pub uses: u32,
    /// The source as supplied.
    pub source: Source,
}

/// Something citation-like that did not become a citation element.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Diagnostic {
    /// What happened.
    pub kind: DiagnosticKind,
    /// Where, in the input.
    pub range: Span,
    /// The key concerned, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
}

/// The kinds of [`Diagnostic`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum DiagnosticKind {
    /// A `[n]` whose number no supplied source has; left as literal text.
    UnresolvedIndex,
    /// An open-query link whose JSON never parsed; rendered as a plain link.
    MalformedQuery,
    /// A `<cite>` with no closing tag in its paragraph; its text was kept.
    UnclosedCite,
    /// A `<cite>` without an `id`; its text was kept.
    CiteWithoutId,
}

/// Everything citemark learned about the document's citations.
///
/// # Examples
/// ```
/// use citemark::{render, Options, Source};
///
/// let opts = Options::default().with_sources(vec![
///     Source::default().with_title("A"),
///     Source::default().with_title("B"),
///     Source::default().with_title("C"),
/// ]);
/// let out = render("x [2] y [2][1] z [9]", &opts);
/// let idx = &out.citations;
/// assert_eq!(idx.occurrences.len(), 3);
/// assert_eq!(idx.sources[0].source.title.as_deref(), Some("B"));
/// assert_eq!(idx.sources[0].uses, 2);
/// assert_eq!(idx.uncited[0].source.title.as_deref(), Some("C"));
/// assert_eq!(idx.diagnostics.len(), 1); // [9] stays text
/// ```
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CitationIndex {
    /// Every citation element, in document order.
    pub occurrences: Vec<Occurrence>,
    /// The cited sources, in order of first use.
    pub sources: Vec<SourceUse>,
    /// The supplied sources never cited, in supplied order.
    pub uncited: Vec<SourceUse>,
    /// Citation-like text that did not become a citation.
    pub diagnostics: Vec<Diagnostic>,
}

/// Builds a [`CitationIndex`] as occurrences are found.
///
/// A streamed message is rendered in parts; each part gets its own builder
/// from [`IndexBuilder::part`], which continues the message's ordinals and
/// source numbering and moves the part's ranges to message positions.
#[derive(Debug, Clone, Default)]
pub(crate) struct IndexBuilder {
    occurrences: Vec<Occurrence>,
    diagnostics: Vec<Diagnostic>,
    /// (source position, uses) in order of first use.
    cited: Vec<(usize, u32)>,
    /// Source position → 1 + its index into `cited`, 0 when uncited. (A
    /// flat table: every part of a streamed message copies it.)
    cited_slot: Vec<u32>,
    /// Occurrences recorded before this builder's first one.
    earlier: usize,
    /// Maps a range in the parsed text to a range in the message.
    offset: Offset,
    footnotes: Footnotes,
    /// A part of a streamed message wrote links whose definitions are
    /// still to come, as their text (see `stream`).
    pub(crate) awaited_links: bool,
    /// A part of a streamed message, or one before it, read a full
    /// reference as the link it will be: bracketed words after it read as
    /// links awaiting their definitions too (see `stream`).
    pub(crate) reads_by_reference: bool,
}

/// The footnotes of a message as its parts are written. A label's number
/// is the order of its first appearance, as a reference or a definition;
/// a streamed message's parts number on from the parts before them.
#[derive(Debug, Clone, Default)]
pub(crate) struct Footnotes {
    /// Every number given, in the builder that absorbs a message's parts.
    absorbed: HashMap<String, usize>,
    /// The numbers given since (by this part, or by the parts it was
    /// written after): few, but for a whole message's.
    recent: HashMap<String, usize>,
    /// A streamed part's text names a footnote label: the part was read
    /// provisionally (see `stream::provisional`).
    pub(crate) named: bool,
    /// The labels the part referenced and defined, if any. (Boxed: a
    /// builder is moved about a lot, and most parts have none.)
    labels: Option<Box<FootnoteLabels>>,
}

impl Footnotes {
    /// Notes labels a part referenced and defined.
    pub(crate) fn note(&mut self, labels: FootnoteLabels) {
        if labels.referenced.is_empty() && labels.defined.is_empty() && !labels.unplain {
            return;
        }
        match &mut self.labels {
            Some(noted) => noted.extend(labels),
            None => self.labels = Some(Box::new(labels)),
        }
    }

    /// The labels noted, taken out.
    pub(crate) fn take_labels(&mut self) -> Option<Box<FootnoteLabels>> {
        self.labels.take()
    }

    /// The labels noted, if any.
    pub(crate) fn labels(&self) -> Option<&FootnoteLabels> {
        self.labels.as_deref()
    }
}

/// The footnote labels that parts of a message referenced and defined, as
/// the parser gave them: what the end of a stream checks before taking
/// footnotes read provisionally as final (see `stream::provisional`).
#[derive(Debug, Clone, Default)]
pub(crate) struct FootnoteLabels {
    pub(crate) referenced: Vec<String>,
    pub(crate) defined: Vec<String>,
    /// A label was named that the provisional reading gives no stand-in
    /// (`[^a b]`): its references read as the parts alone have them.
    pub(crate) unplain: bool,
}

impl FootnoteLabels {
    /// Adds what `other` met.
    pub(crate) fn extend(&mut self, other: FootnoteLabels) {
        self.referenced.extend(other.referenced);
        self.defined.extend(other.defined);
        self.unplain |= other.unplain;
    }

    /// Whether every label referenced here or in `more` was also defined
    /// in one of them, as written (a label defined in another case, which
    /// the parser matches, counts as not), and every label named had a
    /// stand-in.
    pub(crate) fn all_defined_with(&self, more: Option<&FootnoteLabels>) -> bool {
        let all = || std::iter::once(self).chain(more);
        let mut defined: Vec<&str> = all()
            .flat_map(|labels| &labels.defined)
            .map(String::as_str)
            .collect();
        sort_by(&mut defined, |a, b| a.cmp(b));
        all().all(|labels| {
            !labels.unplain
                && (labels.referenced.iter())
                    .all(|label| defined.binary_search(&label.as_str()).is_ok())
        })
    }
}

/// How a writer numbers footnotes: on from those already numbered.
#[derive(Debug, Default)]
pub(crate) struct FootnoteNumbering<'f> {
    absorbed: Option<&'f HashMap<String, usize>>,
    recent: HashMap<String, usize>,
    /// The highest number given so far.
    last: usize,
}

impl<'f> FootnoteNumbering<'f> {
    /// The number of the footnote `label` (referenced or defined), given
    /// now if it has none.
    pub(crate) fn number(&mut self, label: &str) -> usize {
        if let Some(&n) = self.absorbed.and_then(|numbers| numbers.get(label)) {
            return n;
        }
        if let Some(&n) = self.recent.get(label) {
            return n;
        }
        self.last += 1;
        self.recent.insert(label.to_owned(), self.last);
        self.last
    }
}

/// A state of an [`IndexBuilder`] to come back to (a streamed message's
/// mark): how much it had recorded, and the sources' uses then.
#[derive(Debug, Clone, Default)]
pub(crate) struct IndexMark {
    occurrences: usize,
    diagnostics: usize,
    cited: Vec<(usize, u32)>,
    cited_slot: Vec<u32>,
    footnotes: usize,
}

impl IndexMark {
    /// How many occurrences were recorded there.
    pub(crate) fn occurrences(&self) -> usize {
        self.occurrences
    }
}

/// Where a parsed text sits in the message: ranges move by `+ add - sub`.
/// (A streamed part is parsed after a prefix of earlier link reference
/// definitions, so it can sit before or after its message position.)
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Offset {
    pub(crate) add: usize,
    pub(crate) sub: usize,
}

impl Offset {
    fn apply(self, r: Range<usize>) -> Span {
        let at = |i: usize| i.saturating_sub(self.sub).saturating_add(self.add);
        Span {
            start: at(r.start),
            end: at(r.end),
        }
    }
}

impl IndexBuilder {
    pub(crate) fn new() -> Self {
        IndexBuilder::default()
    }

    /// This builder as another's Debug form reads it, but for the offset
    /// it was written at (which counts what was parsed before the part,
    /// and matters only while the part is written): debug builds' checks
    /// of one rendering against another.
    #[cfg(debug_assertions)]
    pub(crate) fn debug_at(&self, offset_of: &IndexBuilder) -> String {
        format!(
            "{:?}",
            IndexBuilder {
                offset: offset_of.offset,
                ..self.clone()
            }
        )
    }

    /// A builder for the next part of a message, parsed at `offset`: it
    /// continues this one's ordinals and source numbers, and starts empty.
    pub(crate) fn part(&self, offset: Offset) -> Self {
        IndexBuilder {
            occurrences: Vec::new(),
            diagnostics: Vec::new(),
            cited: self.cited.clone(),
            cited_slot: self.cited_slot.clone(),
            earlier: self.earlier + self.occurrences.len(),
            offset,
            footnotes: Footnotes {
                recent: self.footnotes.recent.clone(),
                ..Footnotes::default()
            },
            awaited_links: false,
            reads_by_reference: self.reads_by_reference,
        }
    }

    /// How a part written with this builder numbers its footnotes, `base`
    /// being the builder that absorbs the message's parts. (Its numbers
    /// are put back by [`IndexBuilder::numbered_footnotes`].)
    pub(crate) fn footnote_numbering<'f>(
        &mut self,
        base: &'f IndexBuilder,
    ) -> FootnoteNumbering<'f> {
        let recent = std::mem::take(&mut self.footnotes.recent);
        // (Numbers run from 1 in what was absorbed, then on in the recent
        // ones, which may repeat some of those.)
        let last = recent.values().copied().max().unwrap_or(0);
        FootnoteNumbering {
            absorbed: Some(&base.footnotes.absorbed),
            last: last.max(base.footnotes.absorbed.len()),
            recent,
        }
    }

    /// Records what a part's writer numbered.
    pub(crate) fn numbered_footnotes(&mut self, numbering: FootnoteNumbering<'_>) {
        self.footnotes.recent = numbering.recent;
    }

    /// The footnotes a part recorded.
    pub(crate) fn footnotes(&self) -> &Footnotes {
        &self.footnotes
    }

    /// The same, to record in.
    pub(crate) fn footnotes_mut(&mut self) -> &mut Footnotes {
        &mut self.footnotes
    }

    /// Whether nothing was recorded in it.
    pub(crate) fn is_empty(&self) -> bool {
        self.occurrences.is_empty() && self.diagnostics.is_empty()
    }

    /// Where this builder is now, to come back to with
    /// [`IndexBuilder::rewind`]: what was recorded is counted, not copied.
    pub(crate) fn mark(&self) -> IndexMark {
        IndexMark {
            occurrences: self.occurrences.len(),
            diagnostics: self.diagnostics.len(),
            cited: self.cited.clone(),
            cited_slot: self.cited_slot.clone(),
            footnotes: self.footnotes.absorbed.len(),
        }
    }

    /// Forgets what was recorded since `mark`.
    pub(crate) fn rewind(&mut self, mark: &IndexMark) {
        self.occurrences.truncate(mark.occurrences);
        self.diagnostics.truncate(mark.diagnostics);
        self.cited.clone_from(&mark.cited);
        self.cited_slot.clone_from(&mark.cited_slot);
        if self.footnotes.absorbed.len() > mark.footnotes {
            self.footnotes.absorbed.retain(|_, n| *n <= mark.footnotes);
        }
    }

    /// Takes in a finished part made by [`IndexBuilder::part`]; returns its
    /// occurrences.
    pub(crate) fn absorb(&mut self, part: IndexBuilder) -> &[Occurrence] {
        let first = self.occurrences.len();
        self.occurrences.extend(part.occurrences);
        self.diagnostics.extend(part.diagnostics);
        self.cited = part.cited;
        self.cited_slot = part.cited_slot;
        self.footnotes.absorbed.extend(part.footnotes.recent);
        &self.occurrences[first..]
    }

    /// Takes in a part written after this one, which is itself a part
    /// (the state after a streamed tail's settled text): the part's
    /// footnote numbers stay recent, so that a part made from this one
    /// numbers on from them.
    pub(crate) fn absorb_following(&mut self, part: IndexBuilder) {
        let recent = part.footnotes.recent.clone();
        self.reads_by_reference |= part.reads_by_reference;
        self.absorb(part);
        self.footnotes.recent = recent;
    }

    /// The ordinal the next occurrence will get.
    pub(crate) fn next_ordinal(&self) -> u32 {
        u32::try_from(self.earlier + self.occurrences.len() + 1).unwrap_or(u32::MAX)
    }

    /// Records a use of the source at `position`; returns its display number.
    pub(crate) fn cite_source(&mut self, position: usize) -> u32 {
        if self.cited_slot.len() <= position {
            self.cited_slot.resize(position + 1, 0);
        }
        if self.cited_slot[position] == 0 {
            self.cited.push((position, 0));
            self.cited_slot[position] = u32::try_from(self.cited.len()).unwrap_or(u32::MAX);
        }
        let number = self.cited_slot[position];
        if let Some((_, uses)) = self.cited.get_mut(number as usize - 1) {
            *uses += 1;
        }
        number
    }

    /// The occurrence with this ordinal.
    pub(crate) fn occurrence(&self, ordinal: u32) -> Option<&Occurrence> {
        let slot = usize::try_from(ordinal)
            .ok()?
            .checked_sub(1 + self.earlier)?;
        self.occurrences.get(slot)
    }

    /// The supplied-source position of the cited source with this number.
    pub(crate) fn source_position(&self, number: u32) -> Option<usize> {
        let slot = usize::try_from(number).ok()?.checked_sub(1)?;
        self.cited.get(slot).map(|&(position, _)| position)
    }

    /// Records `occurrence`, whose range is in the parsed text.
    pub(crate) fn push(&mut self, mut occurrence: Occurrence) {
        let local = occurrence.range.start..occurrence.range.end;
        occurrence.range = self.offset.apply(local);
        self.occurrences.push(occurrence);
    }

    pub(crate) fn diagnose(
        &mut self,
        kind: DiagnosticKind,
        range: Range<usize>,
        key: Option<String>,
    ) {
        self.diagnostics.push(Diagnostic {
            kind,
            range: self.offset.apply(range),
            key,
        });
    }

    pub(crate) fn finish(self, table: &SourceTable<'_>) -> CitationIndex {
        let to_use = |(position, uses): (usize, u32), number: Option<u32>| {
            table.get(position).map(|source| SourceUse {
                number,
                position,
                uses,
                source: source.clone(),
            })
        };
        let sources = self
            .cited
            .iter()
            .enumerate()
            .filter_map(|(slot, &entry)| to_use(entry, u32::try_from(slot + 1).ok()))
            .collect();
        let supplied = table.sources.map_or(0, <[Source]>::len);
        let uncited = (0..supplied)
            .filter(|&p| self.cited_slot.get(p).is_none_or(|&slot| slot == 0))
            .filter_map(|p| to_use((p, 0), None))
            .collect();
        CitationIndex {
            occurrences: self.occurrences,
            sources,
            uncited,
            diagnostics: self.diagnostics,
        }
    }
}
