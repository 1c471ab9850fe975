//! Streaming: rendering a message as it arrives, chunk by chunk.
//!
//! A [`Stream`] keeps the message's unfinished end (the *open* text) and
//! what it needs to go on from the finished part: the citation state, the
//! link reference definitions seen so far, and the element left open at
//! the *frontier* (docs/streaming.md). Every child of a block but its last
//! is final, and a finished line of a code block or table renders alone
//! after the block's opener: so top-level blocks are committed at cuts
//! (`boundary`), a code block or table line by line inside its open
//! element (`frontier`), a list or quote child by child inside its own
//! (`container`). Committed HTML goes out as [`Patch::append`] and is never
//! parsed again; the open text is rendered as the [`Patch::tail`], through
//! `preview`, which hides syntax still being typed, and `tail`, which keeps
//! what it can between pushes; `change` hands a host only what changed in
//! it ([`Stream::tail_change`]).
//!
//! # Late decisions
//! A block holding a reference that nothing defines yet, or a footnote,
//! is committed as it reads now, and the *mark* stays before it
//! ([`SinceMark`]): a later definition makes the stream rewind to the mark
//! and render what followed it again, once. So the appends, with rewinds
//! applied ([`StreamedHtml`]), equal [`render`](crate::render) of the
//! whole message byte for byte, however it was cut into chunks.

mod boundary;
mod budget;
mod change;
mod container;
mod definitions;
mod frontier;
mod inline_subset;
mod preview;
mod provisional;
mod raw_element;
mod tail;
mod typing;

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::ops::Range;

use pulldown_cmark::{BrokenLink, Event, LinkType, OffsetIter, Tag};
use serde::{Deserialize, Serialize};

use crate::cite::index::{FootnoteLabels, IndexBuilder, IndexMark, Offset};
use crate::cite::{marker_definitions, Citations};
use crate::html::{html_capacity, write_html, SourceAttributes, WrittenPart};
use crate::options::Options;
use crate::parse::{
    is_escaped, parse_with_broken_links, unix_line_endings, without_byte_order_mark, OnBrokenLink,
    AWAITED_DESTINATION,
};
use crate::source::{Source, SourceOrder, SourceTable};
use crate::{CitationIndex, Occurrence};
use boundary::{early_cut, is_blank, last_cut, line_is_decided, Reached, UpTo, DECIDED_BY};
pub use change::TailChange;
use definitions::Definitions;
pub use frontier::Step;
use frontier::{fence_after_text, Frontier};
use provisional::{Reading, StandIns};
use raw_element::RawElement;
use tail::Typed;
pub use typing::{CodeLine, HeldKind, ItemCode, ItemLine, Typing};

/// What changed after a [`Stream::push`]: HTML to append for what is now
/// final, the HTML of the unfinished end to show after it, and the
/// citations that became final.
///
/// `append` may open an element that a later patch closes (a long code
/// block is handed over line by line inside its `<pre><code>`); `steps`
/// say where, for a host that builds a DOM. What was appended is final
/// but after the *mark*: a late definition may change what came after it,
/// and then a patch withdraws it (`rewind`) and appends it anew.
/// [`StreamedHtml`] applies patches for a host that keeps a string;
/// docs/streaming.md has the protocol.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Patch {
    /// First of all: withdraw the HTML appended since the mark, and the
    /// citations that came with it (the mark stays where it is).
    #[serde(default, skip_serializing_if = "is_false")]
    pub rewind: bool,
    /// Then: what was appended so far is final; the mark moves to its end.
    /// No element is open there but, maybe, a raw element (`<details>`): a
    /// rewind leaves the elements open at the mark open.
    #[serde(default, skip_serializing_if = "is_false")]
    pub mark: bool,
    /// Then, when set: the innermost open element loses what was appended
    /// inside it after its open step, and only the first `empty` citations
    /// stay: a list that turned loose is appended again, its items now
    /// paragraphs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub empty: Option<usize>,
    /// HTML to append. Without a rewind, the appends of every patch of a
    /// message, concatenated, are its [`render`](crate::render).
    pub append: String,
    /// `append` cut where it opens and closes elements, in order; empty
    /// when `append` is.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<Step>,
    /// HTML of what is still being written: replace the previous tail with
    /// it. It goes inside the innermost element left open (see
    /// [`Stream::open_end_tags`]), after what was appended. `None` when the
    /// push deferred it (see [`Stream::push_deferred`]); after
    /// [`Stream::finish`] it is empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tail: Option<String>,
    /// The citation occurrences in `append`, in document order.
    pub citations: Vec<Occurrence>,
}

impl Patch {
    /// Whether the host drops the tail it shows on applying the patch: it
    /// appends, rewinds, marks or empties, so that the tail, which goes
    /// after what was appended, is no longer where it was. (The patch's
    /// own `tail`, or the next [`Stream::tail_change`], is the new one.)
    pub fn ends_tail(&self) -> bool {
        self.rewind || self.mark || self.empty.is_some() || !self.append.is_empty()
    }
}

/// What a push typing on the last line commits (see [`Stream::line_commit`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LineCommit {
    Nothing,
    /// Blocks before the line, or the open element the line ends.
    Blocks,
    /// The open element's children before the line, which starts the next.
    Children,
}

/// For serde: leave out a flag that is not set.
fn is_false(flag: &bool) -> bool {
    !flag
}

/// A streamed message's HTML and citations as a host that keeps a string
/// assembles them: every [`Patch`] applied in order. After
/// [`Stream::finish`]'s patch, it holds [`render`](crate::render)'s HTML
/// and index occurrences.
///
/// # Examples
/// ```
/// use citemark::{render, Options, Stream, StreamedHtml};
///
/// let message = "Revenue grew [1].\n\n```sql\nselect 1;\n```\n";
/// let mut stream = Stream::new(Options::default());
/// let mut html = StreamedHtml::default();
/// for chunk in ["Revenue grew [1].\n\n```s", "ql\nselect 1;\n", "```\n"] {
///     let patch = stream.push(chunk);
///     html.apply(&patch);
///     // What a reader sees now: balanced HTML.
///     let _shown = html.view(patch.tail.as_deref().unwrap_or(""), &stream);
/// }
/// html.apply(&stream.finish());
/// assert_eq!(html.html(), render(message, &Options::default()).html);
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StreamedHtml {
    html: String,
    citations: Vec<Occurrence>,
    /// The lengths of `html` and `citations` at the mark.
    mark: (usize, usize),
    /// Where the content of each open element starts in `html`, innermost
    /// last; and those open at the mark.
    open: Vec<usize>,
    open_at_mark: Vec<usize>,
}

impl StreamedHtml {
    /// Applies `patch`: a rewind, a mark, an emptying, then its HTML and
    /// citations.
    pub fn apply(&mut self, patch: &Patch) {
        if patch.rewind {
            self.html.truncate(self.mark.0);
            self.citations.truncate(self.mark.1);
            self.open.clone_from(&self.open_at_mark);
        }
        if patch.mark {
            self.mark = (self.html.len(), self.citations.len());
            self.open_at_mark.clone_from(&self.open);
        }
        if let Some(keep) = patch.empty {
            if let Some(&content) = self.open.last() {
                self.html.truncate(content);
            }
            self.citations.truncate(keep);
        }
        let mut at = self.html.len();
        for step in &patch.steps {
            match *step {
                Step::Open(len) => {
                    at += len;
                    self.open.push(at);
                }
                Step::Close(len) => {
                    at += len;
                    self.open.pop();
                }
                Step::Html(len) => at += len,
            }
        }
        self.html.push_str(&patch.append);
        self.citations.extend_from_slice(&patch.citations);
    }

    /// The HTML appended so far (elements may be left open).
    pub fn html(&self) -> &str {
        &self.html
    }

    /// The citation occurrences in it, in order.
    pub fn citations(&self) -> &[Occurrence] {
        &self.citations
    }

    /// What a reader sees: the HTML so far, then `tail` (the last patch's,
    /// or [`Stream::tail`]), then the end tags of what is left open.
    pub fn view(&self, tail: &str, stream: &Stream) -> String {
        [self.html.as_str(), tail, &stream.open_end_tags()].concat()
    }
}

impl Patch {
    /// Appends `html`, balanced, inside the innermost open element.
    fn push_html(&mut self, html: &str) {
        if html.is_empty() {
            return;
        }
        self.append.push_str(html);
        match self.steps.last_mut() {
            Some(Step::Html(len)) => *len += html.len(),
            _ => self.steps.push(Step::Html(html.len())),
        }
    }

    /// Appends `html`, which opens an element.
    fn push_open(&mut self, html: &str) {
        self.append.push_str(html);
        self.steps.push(Step::Open(html.len()));
    }

    /// Appends `end_tags`, which close the innermost open element.
    fn push_close(&mut self, end_tags: &str) {
        self.append.push_str(end_tags);
        self.steps.push(Step::Close(end_tags.len()));
    }
}

/// An incremental renderer for a message that arrives in chunks.
///
/// Its [`Patch`]es, applied in order (as [`StreamedHtml`] does: rewinds
/// withdraw what followed the mark), give [`render`](crate::render) of the
/// whole message with the same options, and their citations its index's
/// occurrences, however the message was cut into chunks.
///
/// # Examples
/// ```
/// use citemark::{render, Options, Stream, StreamedHtml};
///
/// let message = "Revenue grew [1].\n\n- EMEA **led**\n- APAC <cite id=\"call_1\">lagged</cite>\n";
/// let options = Options::default();
/// let mut stream = Stream::new(options.clone());
/// let mut html = StreamedHtml::default();
/// for chunk in message.as_bytes().chunks(5) {
///     let patch = stream.push_bytes(chunk);
///     html.apply(&patch);
///     // A host shows `html` followed by `patch.tail`: never `[1` or `**led`.
///     assert!(!patch.tail.unwrap_or_default().contains("**"));
/// }
/// html.apply(&stream.finish());
/// assert_eq!(html.html(), render(message, &options).html);
/// ```
#[derive(Debug, Clone)]
pub struct Stream {
    options: Options,
    /// The order the options' sources are looked up in, built once for
    /// every piece rendered against them.
    source_order: SourceOrder,
    /// Their citations' attributes, written once for every piece (taken
    /// out and put back by each render).
    source_attributes: RefCell<SourceAttributes>,
    /// The start of a UTF-8 character split across chunks.
    split_char: Vec<u8>,
    /// A CR ended the last chunk: the next byte tells whether it is a lone
    /// one (read as a line feed) or part of a CRLF.
    held_cr: bool,
    /// The message from the end of the committed part on.
    open: String,
    /// Where the last line of `open` starts.
    line_start: usize,
    /// Bytes of the message before `open`.
    committed: usize,
    /// The committed part's link reference definitions: the open text's
    /// references resolve to them as in the whole message.
    definitions: Definitions,
    /// The message writes its links by reference: it has defined one, or
    /// read a full reference as the link it will be. Its bracketed words
    /// (`[ChaCha]`) then read as links awaiting their definitions too.
    links_by_reference: bool,
    /// Everything recorded about the committed part's citations (and its
    /// footnotes' numbers).
    index: IndexBuilder,
    /// A cut in `open` that was tried and refused (the blocks before it go
    /// on); the next try waits for a later cut.
    refused_cut: Option<usize>,
    /// No candidate cut starts before this line of `open` (its lines were
    /// looked at): a long block is not walked again at every newline.
    no_cut_before: usize,
    /// What the tail keeps between pushes.
    tail: tail::Tail,
    /// What the tail may spend rendering (`budget.rs`).
    budget: budget::TailBudget,
    /// The last tail rendered inside the frontier's element stayed inside
    /// it (see [`Stream::framed_tail`]).
    tail_stayed_inside: bool,
    /// The buffer the frontier's opener and the open text are joined in
    /// for the tail (see [`Stream::cached_tail`]).
    framed: String,
    /// `committed` and the open text's length when the tail last rendered:
    /// while the budget shows that tail again, its citations are that
    /// text's (the open text only grows until something commits).
    tail_rendered_at: (usize, usize),
    /// What was committed since the mark, while a later definition may
    /// still change it.
    since_mark: SinceMark,
    /// A commit that may change later waits for the next patch, which can
    /// mark the place before it (see [`SinceMark::text`]).
    deferred: bool,
    /// Where the text last put back to be committed again ends (in the
    /// message): its definitions were in it when it was committed again,
    /// so they call for no rewind a second time (else text whose
    /// reference they do not define would be put back for ever).
    reopened_to: usize,
    /// The code block whose element is open, when one is: the open text
    /// is what is still to come of it.
    frontier: Option<Frontier>,
    /// No fence that interrupts a paragraph starts before this line of
    /// `open` (its lines were looked at).
    no_fence_before: usize,
    /// The raw element (`<details>`) that an HTML block left open, when
    /// one is: the blocks after it go inside until one closes it. A
    /// frontier may be open inside it.
    raw_element: Option<RawElement>,
    /// What the stream was when the frontier's element opened: what
    /// emptying it goes back to.
    opened: Option<Opened>,
    /// How many patches the stream has made (which one is being made).
    patches: u64,
    /// The tail the host shows, as [`Stream::tail_change`] last handed it
    /// over (empty after a patch that ends the tail).
    shown_tail: String,
    /// The buffer the next tail is written into, for `tail_change`.
    next_tail: String,
    /// What the host shows is not known (see [`Stream::push_shown`]): the
    /// next change replaces it.
    shown_unknown: bool,
    /// What text typed next does to `shown_tail`, as of the last change
    /// handed over; [`Typing::Pushed`] once anything else happened.
    typing: Typing,
}

/// The stream's state right after a frontier's element opened (see
/// [`Patch::empty`]).
#[derive(Debug, Clone)]
struct Opened {
    /// The length of the text since the mark then (what came after is the
    /// element's).
    since_len: usize,
    index: IndexMark,
    definitions: usize,
    committed: usize,
    /// The patch that opened it, and the lengths of its `append`, `steps`
    /// and `citations` after the open step.
    patch: (u64, usize, usize, usize),
}

/// What was committed since the mark (see [`Patch::mark`]).
///
/// A block holding a reference that nothing defines yet (`[guide][g]`,
/// `[citation needed]`), or a footnote reference whose definition has not
/// come, is committed as it reads now (the footnote as a footnote): the
/// mark stays before it, and the text since the mark is kept. When a link
/// definition comes later, or at the end when a footnote's never came, the
/// stream rewinds to the mark and renders that text again, once, with
/// everything the message defines.
#[derive(Debug, Clone, Default)]
struct SinceMark {
    /// The message since the mark, while `recording`: what a rewind
    /// renders again.
    text: String,
    /// Whether `text` holds all that was committed since the mark. (Inside
    /// a code block with nothing awaiting a definition, it is let go.)
    recording: bool,
    /// The citation state at the mark.
    index: IndexMark,
    /// How much of the committed definitions came before the mark (a
    /// definition before a marker-shaped reference makes it a link).
    definitions: usize,
    /// Something committed since the mark reads differently once a later
    /// definition defines its label.
    awaiting: bool,
    /// Of that, a full reference `[text][label]` was written as its text,
    /// as the link it will be: the end renders it again if its definition
    /// never came.
    awaited_links: bool,
    /// Footnotes were committed since the mark, read provisionally (see
    /// the `provisional` module): the end renders them again, unless
    /// `footnote_labels` shows the reading to hold.
    footnotes: bool,
    /// The footnote labels the parts committed since the mark referenced
    /// and defined.
    footnote_labels: FootnoteLabels,
    /// A definition came after something awaiting one: rewind before the
    /// next block that is not a definition (so that definitions written
    /// one after the other cost one rewind).
    rewind: bool,
    /// The raw element open at the mark (a mark may be inside one, never
    /// inside a frontier): the text since the mark is rendered inside it.
    raw_element: Option<RawElement>,
}

impl Stream {
    /// A stream rendering with `options`.
    pub fn new(options: Options) -> Self {
        Stream {
            source_order: SourceOrder::new(options.sources.as_deref()),
            source_attributes: RefCell::default(),
            options,
            split_char: Vec::new(),
            held_cr: false,
            open: String::new(),
            line_start: 0,
            committed: 0,
            definitions: Definitions::default(),
            links_by_reference: false,
            index: IndexBuilder::new(),
            refused_cut: None,
            no_cut_before: 0,
            tail: tail::Tail::default(),
            budget: budget::TailBudget::default(),
            tail_rendered_at: (0, 0),
            tail_stayed_inside: false,
            framed: String::new(),
            since_mark: SinceMark::default(),
            deferred: false,
            reopened_to: 0,
            frontier: None,
            no_fence_before: 0,
            raw_element: None,
            opened: None,
            patches: 0,
            shown_tail: String::new(),
            next_tail: String::new(),
            shown_unknown: false,
            typing: Typing::Pushed,
        }
    }

    /// The options this stream renders with.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Replaces the sources (`None`: not known yet). HTML already appended
    /// stays as it was; its unresolved citations keep their
    /// `data-citation-key`, so a host resolves them in place.
    pub fn set_sources(&mut self, sources: Option<Vec<Source>>) {
        self.options.sources = sources;
        self.source_order = SourceOrder::new(self.options.sources.as_deref());
        self.source_attributes = RefCell::default();
        self.tail.reset();
        self.budget.end_tail();
        self.typing = Typing::Pushed;
    }

    /// Adds `chunk` to the message; returns what became final and the new tail.
    pub fn push(&mut self, chunk: &str) -> Patch {
        let mut patch = self.push_deferred(chunk);
        patch.tail = Some(self.tail());
        patch
    }

    /// Adds raw bytes, which may end inside a UTF-8 character (the rest is
    /// expected in the next chunk). Bytes that are not UTF-8 become U+FFFD.
    pub fn push_bytes(&mut self, chunk: &[u8]) -> Patch {
        let text = self.decode(chunk);
        self.push(&text)
    }

    /// [`Stream::push_bytes`] without the tail, as [`Stream::push_deferred`].
    pub fn push_bytes_deferred(&mut self, chunk: &[u8]) -> Patch {
        let text = self.decode(chunk);
        self.push_deferred(&text)
    }

    /// Like [`Stream::push`] but leaves `tail` out (`None`): a host that
    /// paints once per animation frame calls [`Stream::tail`] then, not
    /// after every chunk.
    pub fn push_deferred(&mut self, chunk: &str) -> Patch {
        self.patches += 1;
        self.typing = Typing::Pushed;
        let chunk = self.without_byte_order_mark(chunk);
        let chunk = &*self.with_line_feeds(chunk);
        let line_was = self.open.len() - self.line_start;
        let newline = chunk.find_last(b'\n');
        if let Some(newline) = newline {
            self.line_start = self.open.len() + newline + 1;
        }
        self.open.push_str(chunk);
        self.budget.earn(chunk.len());
        let mut patch = Patch::default();
        // (A line break commits what the lines before it decided.)
        let commits = match newline {
            Some(_) => LineCommit::Blocks,
            None => self.line_commit(line_was),
        };
        match commits {
            _ if self.deferred => self.commit(&mut patch),
            LineCommit::Blocks => {
                self.commit(&mut patch);
                // (The line begun after the line break may already start
                // the open element's next child: a list's `- ` makes the
                // item before it final now, not a push later.)
                if newline.is_some() && self.line_commit(0) == LineCommit::Children {
                    self.commit_children(&mut patch);
                }
            }
            LineCommit::Children => self.commit_children(&mut patch),
            LineCommit::Nothing => {}
        }
        self.handing(patch)
    }

    /// Commits the open element's children before the one being typed
    /// ([`LineCommit::Children`]), and what follows if that closed it.
    fn commit_children(&mut self, patch: &mut Patch) {
        let end = self.open.len();
        self.commit_inside(patch, end, false);
        if self.frontier.is_none() {
            self.commit(patch);
        }
    }

    /// What text typed on the last line (no line break) commits, the line
    /// being `line_was` bytes long before it.
    fn line_commit(&self, line_was: usize) -> LineCommit {
        let frontier = self.frontier.as_ref();
        // A line's first few characters decide whether it starts a block.
        // (Inside an open element, what ends it is its own to say.)
        let early = || {
            frontier.is_none()
                && line_was < DECIDED_BY
                && early_cut(&self.open, self.line_start)
                    .is_some_and(|cut| self.refused_cut != Some(cut))
        };
        // (A line being typed may end the open element at once: a line at
        // the margin after an indented code block, a list or a quote.)
        let ends_open_element =
            || frontier.is_some_and(|open| open.typing_ends_block(&self.open, self.line_start));
        // (A list's next item, or a quote's paragraph after a blank line,
        // being typed makes the children before it final: the open text
        // then holds the child being typed alone.)
        let starts_child = || {
            line_was < DECIDED_BY
                && frontier
                    .is_some_and(|open| open.typing_starts_child(&self.open, self.line_start))
        };
        if early() || ends_open_element() {
            LineCommit::Blocks
        } else if starts_child() {
            LineCommit::Children
        } else {
            LineCommit::Nothing
        }
    }

    /// `patch`, as it is handed over: if it ends the tail, the host shows
    /// none now (see [`Stream::tail_change`]).
    fn handing(&mut self, patch: Patch) -> Patch {
        if patch.ends_tail() {
            self.shown_tail.clear();
            self.budget.end_tail();
        }
        patch
    }

    /// The HTML of the unfinished end of the message, with syntax still
    /// being typed (`**bol`, `[1`, `<cite id="…`, a half-written link or
    /// URL) shown as what it will become or held back.
    ///
    /// Its cost is bounded by what changed since the last call, mostly:
    /// plain words are added to the HTML kept from the last call. Over a
    /// message, tails render at most 64 KiB plus 32 bytes per byte pushed
    /// (and one rendering more), the unsettled text they read again past a
    /// few words counted as rendered: past that, the tail is the last one
    /// again until the text pushed since pays for the next
    /// (docs/streaming.md, "The tail's budget"). Real answers stay far
    /// below it.
    pub fn tail(&mut self) -> String {
        let mut tail = String::new();
        self.tail_into(&mut tail);
        tail
    }

    /// [`Stream::tail`] into `out`: rendered, or the last one again while
    /// the tail's budget waits for the text to pay for it (`budget.rs`).
    fn write_tail(&mut self, out: &mut String) {
        if let Some(kept) = self.budget.waiting() {
            out.clear();
            out.push_str(kept);
            return;
        }
        let rendered = Cell::new(0);
        self.render_tail(out, &rendered);
        self.budget.spend(rendered.get(), out);
        self.tail_rendered_at = (self.committed, self.open.len());
    }

    /// [`Stream::tail`], rendered through the caches: a code block's into
    /// `out` itself, the others' into the caches' buffer; the bytes of text
    /// rendered added to `rendered`.
    fn render_tail(&mut self, out: &mut String, rendered: &Cell<usize>) {
        let Some(frontier) = &self.frontier else {
            self.tail.give_back(std::mem::take(out));
            *out = self.cached_tail(None, rendered);
            return;
        };
        // Inside a table, list or quote, the open text is rendered as the
        // top-level tail is (its caches keep what was settled), as the
        // element alone holding it, and the element's own tags are cut
        // off; code shows as typed.
        let Some(opener) = frontier.tail_opener(&self.open) else {
            // (Taken out and put back: it keeps what it showed.)
            if let Some(mut frontier) = self.frontier.take() {
                out.clear();
                frontier.typed_tail(&self.context(), &self.open, out);
                self.frontier = Some(frontier);
            }
            return;
        };
        self.tail.give_back(std::mem::take(out));
        *out = self.framed_tail(opener.into_owned(), rendered);
    }

    /// The tail inside a table, list or quote: rendered after `opener`
    /// through the caches, the element's own tags cut off.
    fn framed_tail(&mut self, opener: String, rendered: &Cell<usize>) -> String {
        let mut whole = self.cached_tail(Some(&opener), rendered);
        // (A code block's tail with lines added stays inside as the one it
        // extends did: code is escaped text.)
        let stayed = self.tail.extends_code() && self.tail_stayed_inside;
        // (Cut out in its own buffer: a push allocates no tail.)
        let inside = self.frontier.as_ref();
        let range = inside.and_then(|f| f.tail_range(&whole, &self.open, self.committed, stayed));
        self.tail_stayed_inside = range.is_some();
        match range {
            Some(inside) => {
                whole.truncate(inside.end);
                whole.drain(..inside.start);
                whole
            }
            None => {
                // (What the caches rendered is not what shows: it vouches
                // for no typing.)
                self.tail.forget_typing();
                rendered.set(rendered.get() + self.open.len());
                self.frontier
                    .as_ref()
                    .map_or_else(String::new, |f| f.tail(&self.context(), &self.open))
            }
        }
    }

    /// The tail of the open text, after `opener` when one is given,
    /// rendered through the tail's caches (`tail.rs`); the bytes of text
    /// rendered added to `rendered`.
    fn cached_tail(&mut self, opener: Option<&str>, rendered: &Cell<usize>) -> String {
        // (Field by field: the tail renders while it is being updated.)
        let context = RenderContext {
            options: &self.options,
            source_order: &self.source_order,
            source_attributes: &self.source_attributes,
            definitions: &self.definitions,
            committed: self.committed,
            index: &self.index,
            reading: Reading::Provisional,
            links_by_reference: self.links_by_reference,
        };
        // (The opener and the open text joined in the buffer of the last
        // push's: a push allocates no text for its tail.)
        let mut framed = std::mem::take(&mut self.framed);
        let (text, line_start) = match opener.filter(|opener| !opener.is_empty()) {
            Some(opener) => {
                framed.clear();
                framed.push_str(opener);
                framed.push_str(&self.open);
                (framed.as_str(), opener.len() + self.line_start)
            }
            None => (self.open.as_str(), self.line_start),
        };
        let tail = self.tail.render(text, line_start, &|text, after| {
            rendered.set(rendered.get() + text.len());
            if let Some(html) = known_rendering(text) {
                let index = after.unwrap_or(context.index);
                return (html.to_owned(), index.part(context.offset()));
            }
            let written = context.render_open(text, after, None);
            (written.html, written.index)
        });
        rendered.set(rendered.get() + budget::reread_cost(self.tail.reread()));
        self.framed = framed;
        tail
    }

    /// [`Stream::tail`] written into `out`, replacing what it held: the
    /// buffer of the last tail is used again for the next, where `push`
    /// and `tail` allocate a new one each time. For a host that paints the
    /// tail after every push, with [`Stream::push_deferred`].
    ///
    /// # Examples
    /// ```
    /// use citemark::{Options, Stream};
    ///
    /// let mut stream = Stream::new(Options::default());
    /// let mut tail = String::new();
    /// for chunk in ["Revenue **gr", "ew** [1", "].\n"] {
    ///     let patch = stream.push_deferred(chunk);
    ///     stream.tail_into(&mut tail);
    ///     // The host appends `patch.append` and shows `tail` after it.
    ///     assert!(!tail.contains("**") && !tail.contains("[1"));
    /// }
    /// ```
    pub fn tail_into(&mut self, out: &mut String) {
        self.write_tail(out);
    }

    /// How the tail changed since the last call: what a host that shows
    /// the tail must do to it, work and bytes in proportion to the change
    /// rather than to the tail. For a host that paints after every push,
    /// with [`Stream::push_deferred`]: a push mostly adds a few characters
    /// where the reader is typing, and the change says where they go in
    /// what is shown ([`TailChange::Insert`]), or else the new tail
    /// ([`TailChange::Replace`]).
    ///
    /// The change is to the tail handed over by the last call, or to no
    /// tail after a patch that [ends the tail](Patch::ends_tail) (the host
    /// drops the tail it shows then). Calls to [`Stream::tail`] and
    /// [`Stream::push`] in between do not count. Its cost is the tail's,
    /// in one comparison; the host's is the change's.
    ///
    /// # Examples
    /// ```
    /// use citemark::{Options, Stream, TailChange};
    ///
    /// let mut stream = Stream::new(Options::default());
    /// stream.push_deferred("```rust\nlet x");
    /// assert_eq!(stream.tail_change(), TailChange::Insert { html: "let x", depth: 0, before: 0 });
    /// stream.push_deferred(" = 1;");
    /// assert_eq!(stream.tail_change(), TailChange::Insert { html: " = 1;", depth: 0, before: 0 });
    /// // (In a paragraph: inside the `<p>`, 1 deep, before its `</p>\n`.)
    /// let mut stream = Stream::new(Options::default());
    /// stream.push_deferred("Revenue grew");
    /// stream.tail_change();
    /// stream.push_deferred(" by a third");
    /// assert_eq!(
    ///     stream.tail_change(),
    ///     TailChange::Insert { html: " by a third", depth: 1, before: 5 }
    /// );
    /// ```
    pub fn tail_change(&mut self) -> TailChange<'_> {
        let mut next = std::mem::take(&mut self.next_tail);
        self.write_tail(&mut next);
        let found = match std::mem::take(&mut self.shown_unknown) {
            true => change::Found::Replace,
            false => change::between(&self.shown_tail, &next),
        };
        self.next_tail = std::mem::replace(&mut self.shown_tail, next);
        self.typing = self.typing_after_tail();
        found.in_tail(&self.shown_tail)
    }

    /// What text typed next does to the tail last handed over by
    /// [`Stream::tail_change`]: when the stream vouches that text it
    /// [admits](Typing::admits) commits nothing and only adds what
    /// [`Typing::shown`] keeps of it at the typing point, a host may show
    /// such text itself, without the stream, and push it later with
    /// [`Stream::push_shown`] (docs/streaming.md, "Typing shown by the
    /// host"). Said by the change: [`Typing::Pushed`] after anything else.
    ///
    /// - [`Typing::Verbatim`] on a code block's line past where it could
    ///   close the block: text without a line break, tab, CR or NUL shows
    ///   as itself, HTML-escaped, at the end of the tail; in a fenced block
    ///   at the margin line breaks and tabs too, but for a line that may
    ///   still close the block (spaces, then the fence's character only),
    ///   held back until it cannot.
    /// - [`Typing::Words`] on a paragraph's or a heading's line (in a list
    ///   or quote too) in the middle of a plain word: ASCII letters,
    ///   digits, spaces, `,` `;` `:` `?` `'` `"` `-` `%`, characters beyond
    ///   ASCII but whitespace, controls and a few others, and `.` after an
    ///   ASCII letter or digit but `w`, show as themselves, but for spaces
    ///   ending them and words begun in them that may start a URL.
    /// - [`Typing::CodeSpan`] in a code span being typed: the same, and the
    ///   ASCII punctuation a code span shows as typed (`page_size::get()`
    ///   but for its `(`, which the preview may read as a link's).
    /// - [`Typing::HeldLine`] on a table's row or a link reference
    ///   definition's line: text without a line break or CR changes
    ///   nothing (the row shows once its line ends; the definition, never).
    /// - [`Typing::Held`] on a link's destination, a bare URL, a badge or a
    ///   tag being typed: text of its [`HeldKind`] changes nothing.
    /// - [`Typing::CodeIn`] on a code line of a block in a list item: as a
    ///   fenced block's, at a typing point inside the item, each line
    ///   shown less the block's indentation ([`Typing::display`]), and a
    ///   line indented less than the block, or blank, pushed.
    ///
    /// # Examples
    /// ```
    /// use citemark::{CodeLine, Options, Stream, TailChange, Typing};
    ///
    /// let mut stream = Stream::new(Options::default());
    /// stream.push_deferred("Intro\n\n```rust\nlet x = 1;\nlet y");
    /// stream.tail_change();
    /// let typing = stream.typing();
    /// assert_eq!(typing, Typing::Verbatim { fence: Some('`'), line: CodeLine::Settled });
    /// // The host shows " = a < b;" itself, then pushes it with what follows.
    /// stream.push_shown(" = a < b;", 9);
    /// assert_eq!(stream.tail_change(), TailChange::Same, "the host shows it already");
    /// // Typed next: "\nz();\n``" shows but for "``", which may close the block.
    /// let typed = "\nz();\n``";
    /// assert_eq!(typing.after(typed).shown(typed), "\nz();\n");
    /// let patch = stream.push_shown(typed, 7);
    /// // The lines it ended are committed, as the host showed them.
    /// assert!(patch.append.ends_with("let y = a &lt; b;\nz();\n"));
    /// assert_eq!(stream.tail(), "");
    /// stream.tail_change();
    /// assert_eq!(stream.typing(), Typing::Pushed, "a backtick may start the closing fence");
    ///
    /// let mut stream = Stream::new(Options::default());
    /// stream.push_deferred("Revenue grew by a thi");
    /// stream.tail_change();
    /// let typing = stream.typing();
    /// assert_eq!(typing, Typing::Words { depth: 1, before: 5 });
    /// // Typed next: "rd, then h" shows as "rd, then" (`h` may start a URL).
    /// assert!(typing.admits("rd, then h"));
    /// assert_eq!(typing.shown("rd, then h"), "rd, then");
    /// stream.push_shown("rd, then h", 8);
    /// assert_eq!(stream.tail_change(), TailChange::Same);
    /// assert_eq!(stream.tail(), "<p>Revenue grew by a third, then</p>\n");
    /// ```
    pub fn typing(&self) -> Typing {
        self.typing
    }

    /// [`Stream::typing`] for the tail just handed over.
    fn typing_after_tail(&self) -> Typing {
        // (A tail shown again while the budget waits is not where typing
        // would go.)
        if self.deferred
            || !self.split_char.is_empty()
            || self.held_cr
            || self.budget.waiting().is_some()
        {
            return Typing::Pushed;
        }
        let code = self
            .frontier
            .as_ref()
            .and_then(|f| f.code_typing(&self.open));
        if let Some(typing) = code {
            return typing;
        }
        // (A line's first bytes may still decide a block, or that the
        // items before it are final: a push there may commit. Not in a
        // code block or a table, whose lines commit nothing before they
        // end.)
        let decided = line_is_decided(&self.open[self.line_start..])
            || self
                .frontier
                .as_ref()
                .is_some_and(|f| f.types_item_alone(&self.open));
        match (&self.frontier, self.tail.typing()) {
            // (Code shows as typed: the tail's caches made no tail.)
            (Some(frontier), _) if frontier.shows_code() => Typing::Pushed,
            (Some(frontier), Typed::HeldRow) if frontier.is_table() => Typing::HeldLine,
            // (Nor does a definition's line, though its first bytes decide
            // nothing: the preview shows none of it.)
            (None, Typed::Definition)
                if self.line_commit(self.open.len() - self.line_start) == LineCommit::Nothing =>
            {
                Typing::HeldLine
            }
            // (A code line in an item's code block, past its indentation
            // and not a fence, decides nothing, nor does a line break
            // before a line with the item's indentation: the item goes on.)
            (frontier, Typed::Code(block)) => {
                let (depth, before) = change::typing_point(&self.shown_tail);
                // (Line breaks, where the open list's item goes on with
                // every line indented to the block: then they commit
                // nothing.)
                let going_on = |block: &ItemCode| {
                    frontier
                        .as_ref()
                        .and_then(|f| f.item_going_on(&self.open, self.committed, self.line_start))
                        .is_some_and(|width| width <= usize::from(block.indent))
                };
                let block = block.filter(going_on);
                Typing::CodeIn {
                    depth,
                    before,
                    block,
                    line: ItemLine::Settled,
                }
            }
            _ if !decided => Typing::Pushed,
            // (A push of words may still commit what the last one did
            // not: a cut that a raw element's batch made wait, say.)
            _ if self.line_commit(self.open.len() - self.line_start) != LineCommit::Nothing => {
                Typing::Pushed
            }
            (_, Typed::Held(kind)) => Typing::Held(kind),
            (_, typed @ (Typed::Words | Typed::CodeSpan)) => {
                let (depth, before) = change::typing_point(&self.shown_tail);
                // (The tail's text ends where the open text does.)
                let text = &self.shown_tail[..self.shown_tail.len() - before];
                match (text.bytes().last() == self.open.bytes().last(), typed) {
                    (false, _) => Typing::Pushed,
                    (true, Typed::Words) => Typing::Words { depth, before },
                    (true, _) => Typing::CodeSpan { depth, before },
                }
            }
            _ => Typing::Pushed,
        }
    }

    /// Pushes `typed`, the text typed since the last [`Stream::tail_change`]
    /// (as [`Stream::typing`] [admits](Typing::admits) it), of which the host
    /// already shows the first `shown` bytes at the typing point, escaped
    /// ([`Typing::shown`] of it, as [`Typing::display`] makes it): the next [`Stream::tail_change`] is to the
    /// tail with them. The code lines that typing ended are committed: the
    /// patch appends them, as the tail showed them, and
    /// [ends the tail](Patch::ends_tail). Text that was not typed so (not
    /// admitted, or not shown as [`Typing::shown`] says) makes the next
    /// change replace the tail.
    pub fn push_shown(&mut self, typed: &str, shown: usize) -> Patch {
        let typing = self.typing.after(typed);
        let said = typing.shown(typed);
        let as_said = typing != Typing::Pushed && said.len() == shown;
        let patch = self.push_deferred(typed);
        match typing.point() {
            Some((_, before)) if as_said && !patch.ends_tail() => {
                let at = self.shown_tail.len().saturating_sub(before);
                let mut escaped = String::new();
                let said = typing.display(said, false);
                let _ = pulldown_cmark_escape::escape_html_body_text(&mut escaped, &said);
                self.shown_tail.insert_str(at, &escaped);
            }
            _ => self.shown_unknown = true,
        }
        patch
    }

    /// The tail rendered whole, as [`Stream::tail`] must show it.
    #[cfg(test)]
    fn whole_tail(&self) -> String {
        let opener = self.frontier.as_ref().map(|f| f.tail_opener(&self.open));
        if let Some(frontier) = self.frontier.as_ref().filter(|_| opener == Some(None)) {
            return frontier.tail(&self.context(), &self.open);
        }
        let text = [
            opener.flatten().as_deref().unwrap_or(""),
            self.open.as_str(),
        ]
        .concat();
        let shown = preview::preview(&text);
        let whole = self.context().render_open(&shown.text, None, None).html;
        match &self.frontier {
            Some(frontier) => frontier
                .inside(&whole)
                .map_or_else(|| frontier.tail(&self.context(), &self.open), str::to_owned),
            None => whole,
        }
    }

    /// Ends the message: everything left is rendered exactly and appended.
    /// Pushing more afterwards continues after it.
    pub fn finish(&mut self) -> Patch {
        self.patches += 1;
        self.typing = Typing::Pushed;
        if std::mem::take(&mut self.held_cr) {
            // Nothing followed it: a lone CR.
            self.open.push('\n');
        }
        if !self.split_char.is_empty() {
            let rest = String::from_utf8_lossy(&self.split_char).into_owned();
            self.split_char.clear();
            self.open.push_str(&rest);
        }
        let mut patch = Patch {
            tail: Some(String::new()),
            ..Patch::default()
        };
        if self.frontier.is_some() {
            let end = self.open.len();
            self.commit_inside(&mut patch, end, true);
        }
        // (A definition committed since the mark came late too when it did
        // not rewind: text put back by a rewind, committed again, in which
        // a block before it was committed alone, as a table is.)
        let defined_late = self.since_mark.awaiting
            && (self.open.contains("]:") || self.since_mark.text.contains("]:"));
        // What was committed since the mark is rendered again, with the
        // open text, when a definition came for it, when it took a link for
        // what it would be once defined and the definition never came, or
        // when it holds footnotes, which read provisionally until now,
        // unless their reading holds: the open text is then read as they
        // were.
        let links_late = self.since_mark.rewind || defined_late || self.since_mark.awaited_links;
        let footnotes_held = (self.since_mark.footnotes && !links_late)
            .then(|| self.render_last(&self.open, self.context()))
            .filter(|written| self.footnotes_hold(&written.index));
        if footnotes_held.is_none() && (links_late || self.since_mark.footnotes) {
            let since = self.withdraw(&mut patch);
            self.open.insert_str(0, &since);
        }
        let open = std::mem::take(&mut self.open);
        self.line_start = 0;
        self.no_cut_before = 0;
        self.no_fence_before = 0;
        self.tail.reset();
        let written =
            footnotes_held.unwrap_or_else(|| self.render_last(&open, self.final_context()));
        self.push_html_closing(&written, &mut patch);
        self.raw_element = None;
        self.absorb(written.index, &mut patch);
        self.committed += open.len();
        self.definitions.clear();
        self.refused_cut = None;
        self.since_mark = SinceMark::default();
        self.deferred = false;
        self.handing(patch)
    }

    /// Whether the footnotes committed since the mark, and those of `last`,
    /// the message's last text read as they were, read as the whole
    /// message does: every label they reference is defined, and every label
    /// named had a stand-in, and `last` awaits no link. (A stand-in changes
    /// nothing else in a parse: the parser consults the footnotes defined
    /// only to resolve a reference.)
    fn footnotes_hold(&self, last: &IndexBuilder) -> bool {
        let labels = &self.since_mark.footnote_labels;
        !last.awaited_links && labels.all_defined_with(last.footnotes().labels())
    }

    /// `open`, the message's last text, rendered with `context` (inside the
    /// open raw element, which it closes, if there is one).
    fn render_last(&self, open: &str, context: RenderContext<'_>) -> WrittenOpen {
        let written = self.raw_element.as_ref().and_then(|element| {
            context
                .render_in_raw(element, open, None)
                .map(|mut written| {
                    // (Left open to the end: the sanitizer's end tag closes it.)
                    if written.closes.is_none() {
                        written.closes = Some(written.html.len());
                        written.html.push_str(&element.end_tag);
                    }
                    written
                })
        });
        written.unwrap_or_else(|| context.render_open(open, None, None))
    }

    /// The end tags of the elements that the appends so far leave open,
    /// innermost first: the appends, then the tail, then these, are
    /// balanced HTML (what a host that keeps a string shows). Empty when
    /// nothing is open, as after [`Stream::finish`].
    ///
    /// # Examples
    /// ```
    /// use citemark::{Options, Stream};
    ///
    /// let mut stream = Stream::new(Options::default());
    /// let mut html = stream.push("```rust\nfn main() {}\nlet x").append;
    /// assert_eq!(html, "<pre><code class=\"language-rust\">fn main() {}\n");
    /// html += &stream.tail();
    /// html += &stream.open_end_tags();
    /// assert_eq!(html, "<pre><code class=\"language-rust\">fn main() {}\nlet x</code></pre>");
    /// ```
    pub fn open_end_tags(&self) -> String {
        let frontier = self.frontier.as_ref().map_or("", Frontier::end_tags);
        let raw = self
            .raw_element
            .as_ref()
            .map_or("", |raw| raw.end_tag.as_str());
        [frontier, raw].concat()
    }

    /// The citation index of the committed part of the message (all of it
    /// after [`Stream::finish`]), against the current sources.
    pub fn citation_index(&self) -> CitationIndex {
        let table = SourceTable::of(&self.options, Some(&self.source_order));
        self.index.clone().finish(&table)
    }

    /// [`Stream::citation_index`] with the tail's citations too, as the
    /// tail shows them now: their ordinals are those of the tail's
    /// elements, and the sources they cite count as cited. Provisional:
    /// the tail's part changes, or goes, as the text goes on (a host reads
    /// it again after painting a new tail); what was committed does not.
    ///
    /// # Examples
    /// ```
    /// use citemark::{Options, Source, Stream};
    ///
    /// let sources = vec![Source::default().with_title("Q3 report")];
    /// let mut stream = Stream::new(Options::default().with_sources(sources));
    /// stream.push("Revenue fell [1] in");
    /// assert!(stream.citation_index().occurrences.is_empty());
    /// let index = stream.provisional_index();
    /// assert_eq!(index.occurrences[0].ordinal, 1);
    /// assert_eq!(index.sources[0].source.title.as_deref(), Some("Q3 report"));
    /// ```
    pub fn provisional_index(&self) -> CitationIndex {
        let table = SourceTable::of(&self.options, Some(&self.source_order));
        let mut index = self.index.clone();
        // (A tail the budget keeps showing lists the citations it shows.)
        let shown = match self.budget.waiting() {
            None => Some(self.open.as_str()),
            Some("") => None,
            Some(_) => {
                let (committed, len) = self.tail_rendered_at;
                self.open.get(..len).filter(|_| committed == self.committed)
            }
        };
        if let Some(tail) = shown.and_then(|open| self.tail_citations(open)) {
            index.absorb(tail);
        }
        index.finish(&table)
    }

    /// The citations of the tail as [`Stream::tail`] renders it (see
    /// [`Stream::write_tail`]): of the preview of the open text, after the
    /// committed part; inside a table, list or quote, of what is inside
    /// its element, the element's opener for the tail rendered before the
    /// open text (it holds none). None inside code, which holds none.
    /// (`open`: the open text, or what it was when the tail last rendered.)
    fn tail_citations(&self, open: &str) -> Option<IndexBuilder> {
        let context = self.context();
        let opener = match &self.frontier {
            Some(frontier) => frontier.tail_opener(open)?,
            None => Cow::Borrowed(""),
        };
        let opener = opener.as_ref();
        let text = match opener {
            "" => Cow::Borrowed(open),
            opener => Cow::Owned([opener, open].concat()),
        };
        let shown = preview::preview(&text);
        // (The opener rendered as the text's prefix: the ranges of the
        // citations after it are in the open text.)
        let rendered = shown
            .text
            .strip_prefix(opener)
            .map(|open| context.render_open_after(opener, open, None, None));
        match (&self.frontier, rendered) {
            (None, rendered) => rendered.map(|rendered| rendered.index),
            (Some(frontier), Some(rendered)) if frontier.inside(&rendered.html).is_some() => {
                Some(rendered.index)
            }
            (Some(frontier), _) => frontier.tail_citations(&context, open),
        }
    }

    /// `chunk` without the byte-order mark the message may start with,
    /// counted as committed so that ranges still point into the input
    /// (as [`crate::render`] does).
    fn without_byte_order_mark<'c>(&mut self, chunk: &'c str) -> &'c str {
        let at_start = self.committed == 0 && self.open.is_empty() && !self.held_cr;
        if !at_start {
            return chunk;
        }
        let (chunk, bom) = without_byte_order_mark(chunk);
        self.committed += bom;
        chunk
    }

    /// `chunk` with its lone CRs made line feeds, as every parse reads them
    /// ([`unix_line_endings`]), so that the open text's lines are the
    /// parser's. A CR ending the chunk waits for the next one.
    fn with_line_feeds<'c>(&mut self, chunk: &'c str) -> Cow<'c, str> {
        let held = std::mem::take(&mut self.held_cr);
        if !held && !has_byte(chunk, b'\r') {
            return Cow::Borrowed(chunk);
        }
        let mut text = String::with_capacity(chunk.len() + 1);
        if held {
            text.push('\r');
        }
        text.push_str(chunk);
        if text.ends_with('\r') {
            text.pop();
            self.held_cr = true;
        }
        match unix_line_endings(&text) {
            Cow::Borrowed(_) => Cow::Owned(text),
            Cow::Owned(normalized) => Cow::Owned(normalized),
        }
    }

    /// `chunk` as text, completing a character split off the last chunk.
    fn decode(&mut self, chunk: &[u8]) -> String {
        let mut bytes = std::mem::take(&mut self.split_char);
        bytes.extend_from_slice(chunk);
        // A character cut at the end (an incomplete sequence, not an
        // invalid one) waits for the next chunk, whatever invalid bytes
        // come before it.
        let mut checked = 0;
        let keep = loop {
            match std::str::from_utf8(&bytes[checked..]) {
                Ok(_) => break 0,
                Err(e) => match e.error_len() {
                    None => break bytes.len() - checked - e.valid_up_to(),
                    Some(invalid) => checked += e.valid_up_to() + invalid,
                },
            }
        };
        self.split_char = bytes.split_off(bytes.len() - keep);
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// Commits what is final in the open text: the blocks before the last
    /// cut, and the lines of a code block (its element left open until it
    /// ends).
    fn commit(&mut self, patch: &mut Patch) {
        self.deferred = false;
        loop {
            if self.frontier.is_some() {
                self.commit_inside(patch, self.line_start, false);
                if self.frontier.is_some() {
                    return;
                }
            }
            self.commit_blocks(patch);
            if !self.enter_frontier(patch) {
                return;
            }
        }
    }

    /// Opens the element of a code block that starts the open text, or
    /// that interrupts a paragraph at its start; `false` when there is
    /// none yet.
    fn enter_frontier(&mut self, patch: &mut Patch) -> bool {
        if self.deferred {
            return false;
        }
        if let Some(fence) = fence_after_text(&self.open, self.no_fence_before, self.line_start) {
            self.no_fence_before = fence;
            if !self.commit_cut(fence, self.line_start, patch) {
                self.no_fence_before = self.line_start;
                return false;
            }
        } else {
            self.no_fence_before = self.line_start;
        }
        if !frontier::opens_at(&self.open, self.line_start) {
            return false;
        }
        if self.since_mark.rewind && !self.rewind(patch) {
            // (The definitions before the block are all in.)
            return false;
        }
        let Some(entered) = Frontier::enter(&self.context(), &self.open, self.line_start) else {
            return false;
        };
        self.move_mark(patch);
        if entered.frontier.may_await() && !self.since_mark.recording {
            // (A rewind must be able to render its rows again: the next
            // patch moves the mark right before it.)
            self.deferred = true;
            return false;
        }
        self.since_mark.awaiting |= entered.awaits;
        patch.push_open(&entered.html);
        self.absorb(entered.index, patch);
        self.drop_committed(entered.taken);
        self.opened = Some(Opened {
            since_len: self.since_mark.text.len(),
            index: self.index.mark(),
            definitions: self.definitions.len(),
            committed: self.committed,
            patch: (
                self.patches,
                patch.append.len(),
                patch.steps.len(),
                patch.citations.len(),
            ),
        });
        self.frontier = Some(entered.frontier);
        self.tail.reset();
        true
    }

    /// Commits the finished lines of the open code block (those before
    /// `complete`; at `at_end`, all), and closes its element when it ended.
    fn commit_inside(&mut self, patch: &mut Patch, complete: usize, at_end: bool) {
        let Some(mut frontier) = self.frontier.take() else {
            return;
        };
        let committed = frontier.commit(
            &self.context(),
            &self.open,
            self.committed,
            complete,
            at_end,
        );
        if committed.redo {
            // (A list's items were committed tight: they are committed
            // again inside the emptied element. At the end, where a
            // container ends may be unclear: all is rendered again.)
            if !at_end && self.empty_frontier(frontier, patch) {
                self.commit_inside(patch, self.line_start, false);
            } else {
                let since = self.withdraw(patch);
                self.reopen(&since);
            }
            return;
        }
        let end_tags = frontier.end_tags();
        if !self.awaits() && !frontier.may_await() {
            // (Nothing to rewind to the mark for: a long code block is not
            // kept. Until the next mark, what may change waits.)
            self.since_mark.recording = false;
            self.since_mark.text = String::new();
        }
        if frontier.may_await() {
            // (Code holds no references, definitions or footnotes.)
            let taken = &self.open[..committed.taken];
            self.since_mark.rewind |= taken.contains("]:")
                && self.since_mark.awaiting
                && self.committed + committed.taken > self.reopened_to;
            self.since_mark.awaiting |= committed.awaits;
        }
        patch.push_html(&committed.html);
        if let Some(index) = committed.index {
            self.absorb(index, patch);
        }
        self.add_definitions(committed.definitions);
        if committed.closed {
            self.opened = None;
            patch.push_close(end_tags);
            patch.push_html("\n");
            // (The tail's caches held the element's opener.)
            self.tail.reset();
        } else {
            self.frontier = Some(frontier);
        }
        self.drop_committed(committed.taken);
    }

    /// Empties the open element (`frontier`'s, taken out of the stream):
    /// what was committed inside it goes back before the open text, to be
    /// committed again from its first child, and the patch withdraws it
    /// (see [`Patch::empty`]). `false` when the stream no longer holds
    /// that text (then the mark is where to go back to).
    fn empty_frontier(&mut self, mut frontier: Frontier, patch: &mut Patch) -> bool {
        let Some(opened) = self.opened.clone() else {
            return false;
        };
        if !self.since_mark.recording || self.since_mark.text.len() < opened.since_len {
            return false;
        }
        let inside = self.since_mark.text.split_off(opened.since_len);
        self.index.rewind(&opened.index);
        self.definitions.truncate(opened.definitions);
        self.committed = opened.committed;
        let (made_by, append, steps, citations) = opened.patch;
        if made_by == self.patches {
            patch.append.truncate(append);
            patch.steps.truncate(steps);
            patch.citations.truncate(citations);
        } else {
            // (All this patch appended so far went inside it.)
            patch.append.clear();
            patch.steps.clear();
            patch.citations.clear();
            patch.empty = Some(opened.index.occurrences());
        }
        frontier.restart();
        self.frontier = Some(frontier);
        self.reopen(&inside);
        self.tail.reset();
        true
    }

    /// Forgets the first `len` bytes of the open text, now committed.
    fn drop_committed(&mut self, len: usize) {
        if len == 0 {
            return;
        }
        if self.since_mark.recording {
            self.since_mark.text.push_str(&self.open[..len]);
        }
        self.open.drain(..len);
        // (At the end, or when a line being typed ended a block, the last
        // line itself may go.)
        self.line_start = self.line_start.saturating_sub(len);
        self.tail.reset();
        self.committed += len;
        self.refused_cut = None;
        self.no_cut_before = 0;
        self.no_fence_before = 0;
    }

    /// Commits the blocks before the last cut in the open text, if they
    /// are final.
    fn commit_blocks(&mut self, patch: &mut Patch) {
        // Only complete lines take part (the last line may still change),
        // unless the last line's first letter already says it starts a
        // paragraph.
        let complete = self.line_start;
        // (A definition still being typed on the last line, `[a]: /`, would
        // take part with its destination cut short.)
        let early = early_cut(&self.open, self.line_start)
            .filter(|_| !self.open[self.line_start..].contains("]:"));
        let (cut, end) = match early {
            Some(cut) => (cut, self.open.len()),
            None => match last_cut(&self.open, self.no_cut_before) {
                Some(cut) => (cut, complete),
                None => {
                    // (The last complete line may yet be the blank line
                    // before a cut: it is looked at again.)
                    let last_line_end = complete.saturating_sub(1);
                    self.no_cut_before = self.open[..last_line_end]
                        .find_last(b'\n')
                        .map_or(0, |i| i + 1);
                    return;
                }
            },
        };
        if self.refused_cut.is_some_and(|refused| cut <= refused) {
            return;
        }
        self.commit_cut(cut, end, patch);
    }

    /// Commits the blocks of the open text before `cut` (the text up to
    /// `end` being decided), if they are final; whether it did.
    fn commit_cut(&mut self, cut: usize, end: usize, patch: &mut Patch) -> bool {
        let defines = self.open[..cut].contains("]:");
        if self.since_mark.rewind && !defines && !self.rewind(patch) {
            // (The definitions are all in: before these blocks take their
            // citations' numbers.)
            return false;
        }
        let open = self.open[..end].to_owned();
        let reached = Cell::new(Reached::NotYet);
        let written = self
            .context()
            .render_open(&open, None, Some((cut, &reached)));
        let closed = written.closed_at_cut(reached.get());
        if self.raw_element.is_none()
            && !closed
            && written.open_raw_html
            && self.enter_raw_element(end, patch)
        {
            return true;
        }
        let written = match &self.raw_element {
            Some(element) => self.inside_raw_element(element, &open, cut, written, &reached),
            None => closed.then_some(written),
        };
        let Some(written) = written else {
            self.refused_cut = Some(cut);
            return false;
        };
        let awaits = written.ambiguous_reference.is_some_and(|at| at < cut);
        let footnotes_wait = written.index.footnotes().named;
        self.move_mark(patch);
        if (awaits || footnotes_wait) && !self.since_mark.recording {
            // (What a rewind would render again is not all kept: the next
            // patch can move the mark right before these blocks.)
            self.deferred = true;
            return false;
        }
        self.since_mark.rewind |=
            defines && self.since_mark.awaiting && self.committed + cut > self.reopened_to;
        self.since_mark.awaiting |= awaits;
        self.since_mark.footnotes |= footnotes_wait;
        self.push_written(written, patch);
        self.drop_committed(cut);
        true
    }

    /// The batch of `open` before `cut`, inside the open raw element
    /// `element`, as the rendering `alone` of it says, verified: `None`
    /// when it must wait. A batch that closes the element comes back as
    /// rendered after the element's opener, its HTML cut by the element's
    /// end ([`WrittenOpen::closes`]).
    fn inside_raw_element(
        &self,
        element: &RawElement,
        open: &str,
        cut: usize,
        alone: WrittenOpen,
        reached: &Cell<Reached>,
    ) -> Option<WrittenOpen> {
        let batch = &open[..cut];
        let context = self.context();
        let reached_alone = reached.get();
        if element.may_close(batch) {
            let inside = context.render_in_raw(element, open, Some((cut, reached)))?;
            if inside.closes.is_some() {
                return inside.closed_at_cut(reached.get()).then_some(inside);
            }
        }
        if !alone.closed_at_cut(reached_alone) {
            return None;
        }
        // (Markdown alone is written as it is inside. Raw HTML is checked,
        // and so is what it does to a paragraph and raw HTML after it: a
        // comment left open would take both in, an element whose content
        // is raw text (`<xmp`, `<textarea>`) the raw HTML.)
        if has_byte(batch, b'<') {
            let probe = [batch, PROBE_AFTER_BATCH].concat();
            let probe = context.render_open_after(&element.opener, &probe, None, None);
            if !element.holds(&probe.html, &[&alone.html, PROBE_AFTER_BATCH_HTML].concat()) {
                return None;
            }
        }
        Some(alone)
    }

    /// Opens the raw element that the HTML block starting the open text
    /// leaves open (`<details><summary>…</summary>`), when the blocks after
    /// it can go inside it as they are; whether it did.
    fn enter_raw_element(&mut self, end: usize, patch: &mut Patch) -> bool {
        if self.frontier.is_some() {
            return false;
        }
        let Some(opener_end) = raw_element::opener_end(&self.open, end) else {
            return false;
        };
        let opener = &self.open[..opener_end];
        let context = self.context();
        let alone = context.render_open(opener, None, None);
        let Some(element) = RawElement::of(opener, &alone.html, self.committed) else {
            return false;
        };
        // (A paragraph goes in as it is: nothing else the opener leaves
        // open takes it.)
        let probe = context.render_open_after(opener, "x\n", None, None);
        if !alone.index.is_empty() || !element.holds(&probe.html, "<p>x</p>\n") {
            return false;
        }
        self.move_mark(patch);
        patch.push_open(&element.start);
        self.drop_committed(opener_end);
        self.raw_element = Some(element);
        true
    }

    /// Moves the mark to the end of what was committed when it can:
    /// nothing since the mark awaits a definition, no element is open, and
    /// the patch has appended nothing yet (so that its citations all come
    /// after the mark).
    fn move_mark(&mut self, patch: &mut Patch) {
        if self.awaits() || self.frontier.is_some() || !patch.append.is_empty() || patch.rewind {
            return;
        }
        patch.mark = true;
        self.since_mark = SinceMark {
            recording: true,
            index: self.index.mark(),
            definitions: self.definitions.len(),
            raw_element: self.raw_element.clone(),
            ..SinceMark::default()
        };
    }

    /// Withdraws what was committed since the mark: what the patch
    /// appended goes, and when the mark is in an earlier patch, the patch
    /// says `rewind`. Returns that text (to be rendered again), with the
    /// citation state and the definitions as they were at the mark.
    fn withdraw(&mut self, patch: &mut Patch) -> String {
        let since = std::mem::take(&mut self.since_mark);
        debug_assert!(since.recording, "a rewind needs all since the mark");
        patch.rewind |= !patch.mark;
        patch.append.clear();
        patch.steps.clear();
        patch.citations.clear();
        // (An element this patch emptied opened after the mark: going back
        // to the mark withdraws it whole. Emptied after that, the element
        // open at the mark would lose what went before the list.)
        patch.empty = None;
        // (No frontier was open at the mark; a raw element may have been.)
        self.frontier = None;
        self.opened = None;
        self.raw_element = since.raw_element.clone();
        self.index.rewind(&since.index);
        self.definitions.truncate(since.definitions);
        self.committed -= since.text.len();
        self.tail.reset();
        self.since_mark = SinceMark {
            recording: true,
            index: since.index,
            definitions: since.definitions,
            raw_element: since.raw_element,
            ..SinceMark::default()
        };
        since.text
    }

    /// Puts `since`, withdrawn, back before the open text, to be committed
    /// again.
    fn reopen(&mut self, since: &str) {
        self.reopened_to = self.reopened_to.max(self.committed + since.len());
        self.open.insert_str(0, since);
        self.line_start += since.len();
        self.refused_cut = None;
        self.no_cut_before = 0;
        self.no_fence_before = 0;
    }

    /// Renders what was committed since the mark again, as one part, now
    /// that a definition for it came (see [`SinceMark`]); whether it did.
    /// When a raw element opened since the mark is open, the text goes
    /// back before the open text instead, to be committed again: its
    /// element is then opened again.
    fn rewind(&mut self, patch: &mut Patch) -> bool {
        let at = |element: &Option<RawElement>| element.as_ref().map(|e| e.at);
        let opened_since =
            self.raw_element.is_some() && at(&self.raw_element) != at(&self.since_mark.raw_element);
        let text = self.withdraw(patch);
        if opened_since {
            self.reopen(&text);
            return false;
        }
        let reached = Cell::new(Reached::NotYet);
        let context = self.context();
        let cut = Some((text.len(), &reached));
        let written = match &self.raw_element {
            Some(element) => context.render_in_raw(element, &text, cut),
            None => None,
        };
        let written = written.unwrap_or_else(|| context.render_open(&text, None, cut));
        self.since_mark.awaiting = written.ambiguous_reference.is_some();
        self.push_written(written, patch);
        self.since_mark.text = text;
        self.committed += self.since_mark.text.len();
        true
    }

    /// Appends a rendered part, its citations and its definitions.
    fn push_written(&mut self, written: WrittenOpen, patch: &mut Patch) {
        self.push_html_closing(&written, patch);
        self.absorb(written.index, patch);
        self.add_definitions(written.new_definitions);
    }

    /// Appends a rendered part's HTML; when it closes the open raw
    /// element, that element's end tags are a close step.
    fn push_html_closing(&mut self, written: &WrittenOpen, patch: &mut Patch) {
        match (written.closes, self.raw_element.take()) {
            (Some(end), Some(element)) => {
                let (inside, rest) = written.html.split_at(end);
                patch.push_html(inside);
                patch.push_close(&element.end_tag);
                patch.push_html(&rest[element.end_tag.len()..]);
            }
            (_, element) => {
                self.raw_element = element;
                patch.push_html(&written.html);
            }
        }
    }

    /// Keeps committed link reference definitions, for the open text's
    /// references.
    fn add_definitions(&mut self, definitions: Vec<String>) {
        self.links_by_reference |= !definitions.is_empty();
        self.definitions.add(definitions);
    }

    /// Takes a rendered part's citations into the stream and the patch,
    /// and its footnotes.
    fn absorb(&mut self, mut part: IndexBuilder, patch: &mut Patch) {
        let footnotes = part.footnotes_mut();
        self.since_mark.footnotes |= footnotes.named;
        if let Some(labels) = footnotes.take_labels() {
            self.since_mark.footnote_labels.extend(*labels);
        }
        self.since_mark.awaited_links |= part.awaited_links;
        self.links_by_reference |= part.awaited_links;
        patch.citations.extend_from_slice(self.index.absorb(part));
    }

    /// What rendering the message's end needs: no definition is to come.
    fn final_context(&self) -> RenderContext<'_> {
        RenderContext {
            reading: Reading::Final,
            ..self.context()
        }
    }

    /// Whether something committed since the mark may still read
    /// otherwise: the mark stays.
    fn awaits(&self) -> bool {
        self.since_mark.awaiting || self.since_mark.footnotes
    }

    /// What rendering the open text needs from the stream.
    fn context(&self) -> RenderContext<'_> {
        RenderContext {
            options: &self.options,
            source_order: &self.source_order,
            source_attributes: &self.source_attributes,
            definitions: &self.definitions,
            committed: self.committed,
            index: &self.index,
            reading: Reading::Provisional,
            links_by_reference: self.links_by_reference,
        }
    }
}

/// Blocks to render after a batch of raw HTML inside a raw element, to
/// see that it leaves them as they are.
const PROBE_AFTER_BATCH: &str = "x\n\n<div>y</div>\n";
/// [`PROBE_AFTER_BATCH`]'s HTML, rendered alone.
const PROBE_AFTER_BATCH_HTML: &str = "<p>x</p>\n<div>y</div>\n";

/// What a parse of open text noted through its broken-link callback (see
/// [`RenderContext::parse`]).
pub(super) struct ParseNotes {
    /// Where the first reference is that a later definition may change.
    awaited: Cell<Option<usize>>,
    /// Whether bracketed words read as links awaited (the message links by
    /// reference); a full reference read turns it on.
    by_reference: Cell<bool>,
}

impl ParseNotes {
    fn new(by_reference: bool) -> Self {
        ParseNotes {
            awaited: Cell::new(None),
            by_reference: Cell::new(by_reference),
        }
    }

    /// Whether a reference was read that a later definition may change.
    pub(super) fn awaits(&self) -> bool {
        self.awaited.get().is_some()
    }

    /// Where the first such reference starts, if one was read.
    pub(super) fn awaited(&self) -> Option<usize> {
        self.awaited.get()
    }
}

/// What rendering the open text needs from the stream.
struct RenderContext<'s> {
    options: &'s Options,
    /// See [`Stream::source_order`].
    source_order: &'s SourceOrder,
    /// See [`Stream::source_attributes`].
    source_attributes: &'s RefCell<SourceAttributes>,
    /// See [`Stream::definitions`].
    definitions: &'s Definitions,
    committed: usize,
    index: &'s IndexBuilder,
    /// What is taken as defined: the message may go on, or not.
    reading: Reading,
    /// See [`Stream::links_by_reference`].
    links_by_reference: bool,
}

/// The HTML of the tail's smallest pieces, which come back at the start
/// of every block (a heading's marker, the stand-in behind a list item's):
/// known, not rendered. (A test renders each.)
const KNOWN_RENDERINGS: &[(&str, &str)] = &[
    ("", ""),
    ("x", "<p>x</p>\n"),
    ("#", "<h1></h1>\n"),
    ("##", "<h2></h2>\n"),
    ("###", "<h3></h3>\n"),
    ("####", "<h4></h4>\n"),
    ("# x", "<h1>x</h1>\n"),
    ("## x", "<h2>x</h2>\n"),
    ("### x", "<h3>x</h3>\n"),
    ("#### x", "<h4>x</h4>\n"),
    (">", "<blockquote>\n</blockquote>\n"),
    ("> x", "<blockquote>\n<p>x</p>\n</blockquote>\n"),
    ("1.", "<ol>\n<li></li>\n</ol>\n"),
    ("1. x", "<ol>\n<li>x</li>\n</ol>\n"),
    ("- x", "<ul>\n<li>x</li>\n</ul>\n"),
    ("* x", "<ul>\n<li>x</li>\n</ul>\n"),
];

/// The HTML of `text` when it is one of [`KNOWN_RENDERINGS`].
fn known_rendering(text: &str) -> Option<&'static str> {
    if text.len() > 6 {
        return None;
    }
    KNOWN_RENDERINGS
        .iter()
        .find(|(known, _)| *known == text)
        .map(|(_, html)| *html)
}

impl<'s> RenderContext<'s> {
    /// Whether a reference in `opener` or `text` may use a committed
    /// definition: only the parser resolves them, and text without `[` (a
    /// tail's piece of words, most often) holds no reference.
    pub(super) fn may_use_definitions(&self, opener: &str, text: &str) -> bool {
        !self.definitions.is_empty() && (has_byte(text, b'[') || has_byte(opener, b'['))
    }

    /// Where the open text sits in the message, parsed alone.
    fn offset(&self) -> Offset {
        Offset {
            add: self.committed,
            sub: 0,
        }
    }

    /// Parses `text` after `stand_ins` and `opener` (context that is no
    /// part of it) with [`RenderContext::parse`], bracketed words read as
    /// links awaited if `by_reference`, and hands `then` what was parsed,
    /// where `text` starts in it, its events, and what the parse noted. The
    /// committed definitions come through the parser's callback, unless
    /// `text` defines one of their labels again: then they are parsed
    /// before it (the first definition of a label wins), which costs a
    /// second parse of its blocks.
    pub(super) fn parse_after<R>(
        &self,
        stand_ins: &str,
        opener: &str,
        text: &str,
        by_reference: bool,
        then: impl for<'t> FnOnce(
            &'t str,
            usize,
            OffsetIter<'t, OnBrokenLink<'t, 't>>,
            &'t ParseNotes,
        ) -> R,
    ) -> R {
        let notes = ParseNotes::new(by_reference);
        let alone = match stand_ins.is_empty() && opener.is_empty() {
            true => Cow::Borrowed(text),
            false => Cow::Owned([stand_ins, opener, text].concat()),
        };
        let text_start = alone.len() - text.len();
        let events = self.parse(&alone, text_start, &notes.awaited, &notes.by_reference);
        let definitions = self.definitions.text_before(events.reference_definitions());
        if definitions.is_empty() {
            return then(&alone, text_start, events, &notes);
        }
        drop(events);
        let notes = ParseNotes::new(by_reference);
        let after = [stand_ins, definitions, opener, text].concat();
        let text_start = after.len() - text.len();
        let events = self.parse(&after, text_start, &notes.awaited, &notes.by_reference);
        then(&after, text_start, events, &notes)
    }

    /// Renders `open` (text at the end of the committed part), after the
    /// committed definitions, continuing the citation state `after` (the
    /// committed part's by default); with a cut, only the blocks before
    /// the first top-level block at or after it.
    fn render_open(
        &self,
        open: &str,
        after: Option<&IndexBuilder>,
        cut: Option<(usize, &Cell<Reached>)>,
    ) -> WrittenOpen {
        if let Some(written) = self.render_open_in_subset(open, after, cut) {
            return written;
        }
        self.render_open_after("", open, after, cut)
    }

    /// [`RenderContext::render_open`] without the parser, when what it
    /// renders is a line within [`inline_subset`] (or footnote definitions
    /// one a line): the open text, or with a cut, a paragraph's line and
    /// the blank lines after it up to the cut (which it cannot straddle),
    /// or the definitions before it. Without brackets it holds no
    /// citation, reference or footnote, and is written here, its index the
    /// part's as it began; with markers or footnote references, its events
    /// go through the citation pipeline. (Debug builds check it against the
    /// parser's rendering.)
    fn render_open_in_subset(
        &self,
        open: &str,
        after: Option<&IndexBuilder>,
        cut: Option<(usize, &Cell<Reached>)>,
    ) -> Option<WrittenOpen> {
        if !self.definitions.is_empty() && has_byte(open, b'[') {
            // (A reference in it may use the committed definitions, which
            // only the parser reads; without `[`, it uses none, and the
            // parser is not given them: `render_open_after`.)
            return None;
        }
        let brackets = self.brackets();
        // (What is rendered: the open text, or what the cut keeps of it, a
        // paragraph's line with its line break, or footnote definitions.)
        let (text, reached) = match cut {
            None => (open, None),
            Some((cut, _)) => {
                let (text, reached) = paragraph_line_before(open, cut)
                    .or_else(|| definitions_before(open, cut, brackets))?;
                (text, Some(reached))
            }
        };
        // (Made once the subset takes the text: most that is tried is not.)
        let index = || {
            after.unwrap_or(self.index).part(Offset {
                add: self.committed,
                sub: 0,
            })
        };
        // (A `[` is outside the subset, and events are read only for one.)
        let (html, index, ambiguous_reference) = match has_byte(text, b'[') {
            false => (inline_subset::block(text)?, index(), None),
            true => {
                let events = inline_subset::block_events(text, brackets)?;
                // (Where the first reference a later definition changes
                // is, as the parser's callback notes it.)
                let awaited = events.iter().find_map(|(event, range)| match event {
                    Event::Start(Tag::Link { dest_url, .. })
                        if **dest_url == *AWAITED_DESTINATION =>
                    {
                        Some(range.start)
                    }
                    _ => None,
                });
                let (html, index) = self.write_events(open, events, text, index());
                (html, index, awaited)
            }
        };
        // (As the parser notes it: the subset's awaited links are full
        // references.)
        let mut index = index;
        index.reads_by_reference |= self.links_by_reference || ambiguous_reference.is_some();
        let written = WrittenOpen {
            html,
            open_raw_html: false,
            index,
            ambiguous_reference,
            new_definitions: Vec::new(),
            definition_may_go_on: false,
            closes: None,
        };
        #[cfg(debug_assertions)]
        {
            let parsed_reached = Cell::new(Reached::NotYet);
            let parsed_cut = cut.map(|(cut, _)| (cut, &parsed_reached));
            let parsed = self.render_open_after("", open, after, parsed_cut);
            inline_subset::assert_as_parsed(
                (&written.html, &written.index),
                (&parsed.html, &parsed.index),
                open,
            );
            assert!(!parsed.open_raw_html);
            assert_eq!(written.ambiguous_reference, parsed.ambiguous_reference);
            assert!(!parsed.definition_may_go_on && parsed.closes.is_none());
            assert!(parsed.new_definitions.is_empty());
            assert_eq!(reached.unwrap_or(Reached::NotYet), parsed_reached.get());
        }
        if let (Some((_, cell)), Some(reached)) = (cut, reached) {
            cell.set(reached);
        }
        Some(written)
    }

    /// The brackets [`inline_subset`] may read here: citation markers
    /// when they are on, footnote references in the provisional reading.
    fn brackets(&self) -> inline_subset::Brackets {
        let provisional = matches!(self.reading, Reading::Provisional);
        inline_subset::Brackets {
            markers: self.options.syntaxes.markers,
            footnotes: provisional,
            references: provisional,
        }
    }

    /// The HTML of `events`, read from `markdown` by [`inline_subset`]
    /// instead of the parser (their footnote labels named in `text`),
    /// through the citation pipeline with the citation state `index`
    /// before them; and the state after.
    fn write_events<'a>(
        &self,
        markdown: &'a str,
        events: Vec<(Event<'a>, Range<usize>)>,
        text: &str,
        index: IndexBuilder,
    ) -> (String, IndexBuilder) {
        let stand_ins = StandIns::for_events(text, self.reading);
        for (event, range) in &events {
            // (So that it notes links awaiting their definitions, as it
            // does of the parser's events.)
            stand_ins.keep(event, range);
        }
        let capacity = html_capacity(markdown.len());
        let (written, index) = self.write_part(
            markdown,
            events.into_iter(),
            index,
            Vec::new(),
            capacity,
            &stand_ins,
        );
        (written.html, index)
    }

    /// `open` rendered inside the raw element `element`: its HTML is the
    /// element's start left out; when `open` closes the element,
    /// [`WrittenOpen::closes`] says where the end tag is, and when not,
    /// the end tag the sanitizer adds is left out too. `None` when the
    /// rendering is not the element's start, then its end.
    fn render_in_raw(
        &self,
        element: &RawElement,
        open: &str,
        cut: Option<(usize, &Cell<Reached>)>,
    ) -> Option<WrittenOpen> {
        let mut written = self.render_open_after(&element.opener, open, None, cut);
        let (inside, rest) = element.split_at_end(&written.html)?;
        if rest.is_empty() && written.open_raw_html {
            written.html = inside.to_owned();
            written.open_raw_html = false;
        } else {
            written.closes = Some(inside.len());
            written.html = [inside, element.end_tag.as_str(), rest].concat();
        }
        Some(written)
    }

    /// [`RenderContext::render_open`] after `prefix`, whose own blocks are
    /// rendered too: a raw element's opener (which holds no citations).
    fn render_open_after(
        &self,
        prefix: &str,
        open: &str,
        after: Option<&IndexBuilder>,
        cut: Option<(usize, &Cell<Reached>)>,
    ) -> WrittenOpen {
        let stand_ins = StandIns::new(open, self.reading);
        let by_reference =
            self.links_by_reference || after.is_some_and(|after| after.reads_by_reference);
        self.parse_after(
            stand_ins.as_str(),
            prefix,
            open,
            by_reference,
            |text, base, events, notes| {
                let offset = Offset {
                    add: self.committed,
                    sub: base,
                };
                let all_definitions = marker_definitions(events.reference_definitions());
                // (Whether a definition may still take a title: one before the
                // cut; one after it, what a link before it may resolve to.)
                let cut_at = cut.map_or(usize::MAX, |(cut, _)| base + cut);
                let mut goes_on_before = false;
                let mut goes_on_after = Vec::new();
                for (_, d) in events.reference_definitions().iter() {
                    if d.span.end > cut_at
                        || title_may_follow(text.get(d.span.end..).unwrap_or_default())
                    {
                        match d.span.start < cut_at {
                            true => goes_on_before = true,
                            false => goes_on_after
                                .push((d.dest.to_string(), d.title.clone().map(|t| t.to_string()))),
                        }
                    }
                }
                // (A link resolved to one of those has its destination and title.)
                let links_to_later = Cell::new(false);
                let notes_link = |(event, _): &(Event<'_>, Range<usize>)| {
                    if let Event::Start(
                        Tag::Link {
                            dest_url, title, ..
                        }
                        | Tag::Image {
                            dest_url, title, ..
                        },
                    ) = event
                    {
                        let (dest_url, title) = (dest_url.as_ref(), title.as_ref());
                        if goes_on_after.iter().any(|(dest, later)| {
                            dest == dest_url && later.as_deref().unwrap_or_default() == title
                        }) {
                            links_to_later.set(true);
                        }
                    }
                };
                let new_definitions = match cut {
                    Some((cut, _)) => {
                        definitions_within(events.reference_definitions(), text, base..base + cut)
                    }
                    None => Vec::new(),
                };
                let index = after.unwrap_or(self.index).part(offset);
                // (Kept after the cut is applied: what `keep` notes is the part's.)
                let keep =
                    |(event, range): &(Event<'_>, Range<usize>)| stand_ins.keep(event, range);
                let (
                    WrittenPart {
                        html,
                        open_raw_html,
                        ..
                    },
                    index,
                ) = match cut {
                    Some((cut, reached)) => {
                        let events = UpTo::new(events, base + cut, reached)
                            .inspect(notes_link)
                            .filter(keep);
                        let capacity = html_capacity(cut);
                        self.write_part(text, events, index, all_definitions, capacity, &stand_ins)
                    }
                    None => {
                        let events = events.filter(keep);
                        let capacity = html_capacity(open.len());
                        self.write_part(text, events, index, all_definitions, capacity, &stand_ins)
                    }
                };
                let mut index = index;
                index.reads_by_reference |= notes.by_reference.get();
                // (A definition after the cut, typed on, changes only the links to
                // it before; footnotes' text, which renders elsewhere, may hold
                // some.)
                let footnotes_before =
                    cut.is_some_and(|(cut, _)| open.get(..cut).unwrap_or(open).contains("[^"));
                let definition_may_go_on = goes_on_before
                    || (!goes_on_after.is_empty() && (links_to_later.get() || footnotes_before));
                WrittenOpen {
                    html,
                    open_raw_html,
                    index,
                    ambiguous_reference: notes.awaited().map(|at| at - base),
                    new_definitions,
                    definition_may_go_on,
                    closes: None,
                }
            },
        )
    }

    /// Parses `text`, whose part from `from` on is open text (what comes
    /// before gives it context: stand-ins, definitions, an opener). Its
    /// references to committed definitions resolve to them. Where
    /// the first reference is that a later definition may change goes
    /// into `awaited`. While the message goes on, a full reference
    /// `[text][label]` among them is a link to [`AWAITED_DESTINATION`],
    /// written as its text: what it reads as once its definition comes.
    /// `by_reference`: whether bracketed words read so too, the message
    /// linking by reference; a full reference read turns it on for what
    /// follows, and a tail's piece rendered after it.
    fn parse<'t>(
        &self,
        text: &'t str,
        from: usize,
        awaited: &'t Cell<Option<usize>>,
        by_reference: &'t Cell<bool>,
    ) -> OffsetIter<'t, OnBrokenLink<'t, 't>>
    where
        's: 't,
    {
        let markers_on = self.options.syntaxes.markers;
        let provisional = matches!(self.reading, Reading::Provisional);
        let committed: &'s Definitions = self.definitions;
        let mut brackets = OpenBrackets::default();
        parse_with_broken_links(text, move |link| {
            if let Some((dest, title)) = committed.resolve(&link.reference) {
                return Some((dest.into(), title.into()));
            }
            if link.span.start < from
                || !(may_change_when_defined(&link, text, markers_on)
                    || brackets.open_before(text, from, link.span.start))
            {
                return None;
            }
            let first = awaited
                .get()
                .map_or(link.span.start, |at| at.min(link.span.start));
            awaited.set(Some(first));
            // A full reference `[text][label]` shows its text until its
            // definition comes, as the link will then; an image's shows
            // nothing, as the image will; so does an image's shortcut
            // after a space or in a link's label (a badge's `[![alt]]…`),
            // though not `#![no_std]`, which stays text. A shortcut whose
            // label is one code span (`` [`syn::File`] ``, documentation's
            // way to link an item) shows its code: brackets around code
            // alone are rare in prose, where `[citation needed]` stays text.
            // (An image's span may start at its `[`.)
            let written = text.get(link.span.clone()).unwrap_or_default();
            let bang = if written.starts_with('!') {
                link.span.start
            } else {
                link.span.start.saturating_sub(1)
            };
            let image = text.as_bytes().get(bang) == Some(&b'!');
            // Bracketed words, in a message that links by reference, where
            // the `[` starts a word: not code's `#[cfg]` or `a[i]`.
            let words = || {
                by_reference.get()
                    && matches!(
                        text.as_bytes()[..link.span.start].last(),
                        None | Some(b' ' | b'\t' | b'\n' | b'(' | b'*' | b'_' | b'"')
                    )
            };
            let shown = written
                .split_once("][")
                .and_then(|(shown, _)| shown.get(1..));
            let stands_in = match link.link_type {
                LinkType::Reference => {
                    let full =
                        image || shown.is_some_and(|shown| !crate::cite::is_marker_label(shown));
                    if full && provisional {
                        by_reference.set(true);
                    }
                    full
                }
                LinkType::Collapsed => image || is_one_code_span(&link.reference) || words(),
                _ if !image => is_one_code_span(&link.reference) || words(),
                _ => match text.as_bytes()[..bang].last() {
                    None | Some(b' ' | b'\t' | b'\n') => true,
                    Some(b'[') => !is_escaped(text, bang - 1),
                    Some(_) => false,
                },
            };
            (provisional && stands_in).then(|| (AWAITED_DESTINATION.into(), "".into()))
        })
    }

    /// The HTML of `events`, parsed from `text` (after `stand_ins`), with the citation state `index` before it; and the state after.
    fn write_part<'a, I>(
        &self,
        text: &'a str,
        mut events: I,
        mut index: IndexBuilder,
        marker_definitions: Vec<(String, usize)>,
        capacity: usize,
        stand_ins: &StandIns,
    ) -> (WrittenPart, IndexBuilder)
    where
        I: Iterator<Item = (Event<'a>, Range<usize>)>,
    {
        let mut footnotes = index.footnote_numbering(self.index);
        let mut citations = Citations::resume(text, &mut events, self.options, index)
            .with_marker_definitions(marker_definitions)
            .with_source_order(self.source_order);
        // (Taken and put back: a render never runs inside another.)
        let mut attributes = self.source_attributes.take();
        let written = write_html(
            &mut citations,
            self.options,
            capacity,
            &mut attributes,
            &mut footnotes,
        );
        self.source_attributes.replace(attributes);
        let mut index = citations.into_index();
        index.numbered_footnotes(footnotes);
        stand_ins.record(&mut index);
        (written, index)
    }
}

/// The line of the paragraph that `open` holds before `cut`, with its line
/// break, when that is one line starting with a letter, then blank lines
/// up to the cut, and what the parse up to the cut would find
/// ([`Reached`]). `None` when the text is otherwise, or when what follows
/// the cut names a label (a footnote label or a definition there changes
/// what a rendering records: it is parsed too).
fn paragraph_line_before(open: &str, cut: usize) -> Option<(&str, Reached)> {
    let (before, rest) = open.split_at_checked(cut)?;
    let (line, blank) = before.split_at(before.find('\n')?);
    // (Not a list item or quote line: those could go on after the blank
    // lines.)
    let paragraph = line.starts_with(char::is_alphabetic);
    let blank_lines = blank.bytes().filter(|&b| b == b'\n').count();
    let only_blank = blank.bytes().all(|b| b == b'\n' || b == b' ');
    if !paragraph || blank_lines < 2 || !only_blank || rest.contains('[') {
        return None;
    }
    // (A line of whitespace, form feeds and vertical tabs too, starts no
    // block: the parser drops the whitespace starting a line, and a
    // paragraph left with nothing.)
    let next_block = rest
        .bytes()
        .any(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0b' | b'\x0c'));
    Some((
        &before[..=line.len()],
        if next_block {
            Reached::Cut
        } else {
            Reached::NotYet
        },
    ))
}

/// The footnote definitions, one a line, that `open` holds before `cut`,
/// when all of `open` is such definitions as [`inline_subset`] reads them
/// and the cut falls between two; and what the parse up to the cut would
/// find ([`Reached`]).
fn definitions_before(
    open: &str,
    cut: usize,
    brackets: inline_subset::Brackets,
) -> Option<(&str, Reached)> {
    let (before, rest) = open.split_at_checked(cut)?;
    if !before.starts_with("[^") || !before.ends_with('\n') {
        return None;
    }
    // (A line after them that is not one would go on with the last.)
    if rest.is_empty() {
        return Some((before, Reached::NotYet));
    }
    inline_subset::block_events(rest, brackets)?;
    rest.starts_with("[^").then_some((before, Reached::Cut))
}

/// A rendering of (part of) the open text.
struct WrittenOpen {
    html: String,
    open_raw_html: bool,
    index: IndexBuilder,
    /// Where the first reference that a later definition could still turn
    /// into a link is, in the open text.
    ambiguous_reference: Option<usize>,
    /// The source text of the definitions before the cut.
    new_definitions: Vec<String>,
    /// A link reference definition ends the text, or the part before the
    /// cut, or a part after it that a link before it resolves to: a title
    /// on the next line would still change it.
    definition_may_go_on: bool,
    /// Where, in `html`, the end tag of the open raw element is, when the
    /// text closes it.
    closes: Option<usize>,
}

impl WrittenOpen {
    /// Whether the blocks before the cut are over there: nothing straddles
    /// it, no raw HTML is left open, and no definition could still change.
    fn closed_at_cut(&self, reached: Reached) -> bool {
        reached != Reached::Straddled
            && !self.open_raw_html
            && !self.definition_may_go_on
            && (self.html.is_empty() || self.html.ends_with('\n'))
    }
}

#[cfg(test)]
#[path = "../../tests/common/mod.rs"]
mod common;

/// Whether `text` may hold a link reference definition or a footnote,
/// which reach back to blocks before them.
/// (`]:` or `[^`, found by their first bytes, vectorized: the tail asks
/// at every push, over the open text.)
fn reaches_back(text: &str) -> bool {
    let bytes = text.as_bytes();
    memchr::memchr2_iter(b']', b'[', bytes).any(|at| {
        matches!(
            (bytes[at], bytes.get(at + 1)),
            (b']', Some(b':')) | (b'[', Some(b'^'))
        )
    })
}

/// Whether the text `after` a link reference definition may still become
/// its title: nothing yet but spaces, or a title opened on the next line
/// (`'`, `"` or `(`) that no blank line has ended (the parser reads it as
/// a paragraph until it closes).
///
/// (Inside a quote or a list item, a line's marks and indentation come
/// first: they are skipped, and a line with nothing else is blank.)
fn title_may_follow(after: &str) -> bool {
    fn content(line: &str) -> &str {
        line.trim_start_matches([' ', '\t', '>'])
    }
    let after = after.trim_start_matches([' ', '\t']);
    let next_line = after.strip_prefix('\n').unwrap_or(after);
    match content(next_line).bytes().next() {
        None => true,
        Some(b'\'' | b'"' | b'(') => !next_line
            .split_inclusive('\n')
            .skip(1)
            .any(|line| line.ends_with('\n') && is_blank(content(line))),
        Some(_) => false,
    }
}

/// Whether `text` holds three backticks or tildes in a row (a fence,
/// maybe).
fn has_fence_run(text: &str) -> bool {
    let bytes = text.as_bytes();
    memchr::memchr2_iter(b'`', b'~', bytes).any(|at| {
        bytes
            .get(at..at + 3)
            .is_some_and(|run| run == [bytes[at]; 3])
    })
}

/// Finding the last newline or space: the tail looks back over the open
/// text at every push, so the search is the vectorized one (but for a
/// few bytes, a chunk or a word, where setting it up costs more).
pub(crate) trait FindLast {
    /// The position of the last `byte` (ASCII) in the text.
    fn find_last(&self, byte: u8) -> Option<usize>;
}

impl FindLast for str {
    fn find_last(&self, byte: u8) -> Option<usize> {
        debug_assert!(byte.is_ascii());
        let bytes = self.as_bytes();
        if bytes.len() <= FEW_BYTES {
            bytes.iter().rposition(|&b| b == byte)
        } else {
            memchr::memrchr(byte, bytes)
        }
    }
}

/// Whether `text` holds `byte` (ASCII); see [`FindLast`].
pub(crate) fn has_byte(text: &str, byte: u8) -> bool {
    let bytes = text.as_bytes();
    if bytes.len() <= FEW_BYTES {
        bytes.contains(&byte)
    } else {
        memchr::memchr(byte, bytes).is_some()
    }
}

/// Whether `text` holds any of `bytes` (ASCII): for two or three, a
/// vectorized search (a `str` search for characters decodes them one by
/// one); for more, one pass over the bytes.
pub(crate) fn has_any_byte(text: &str, bytes: &[u8]) -> bool {
    let haystack = text.as_bytes();
    match *bytes {
        [a, b] => memchr::memchr2(a, b, haystack).is_some(),
        [a, b, c] => memchr::memchr3(a, b, c, haystack).is_some(),
        _ => haystack.iter().any(|b| bytes.contains(b)),
    }
}

/// The link reference definitions that `text` makes within `within`, each
/// as one standalone line (see [`standalone_definition`]).
fn definitions_within(
    definitions: &pulldown_cmark::RefDefs<'_>,
    text: &str,
    within: Range<usize>,
) -> Vec<String> {
    definitions
        .iter()
        .filter(|(_, d)| d.span.start >= within.start && d.span.end <= within.end)
        .filter_map(|(label, d)| {
            let written = text.get(d.span.clone())?;
            Some(standalone_definition(
                label,
                written,
                &d.dest,
                d.title.as_deref(),
            ))
        })
        .collect()
}

/// Whether an undefined reference `link` in `text` renders differently
/// once a later definition defines its label. Marker-shaped ones (`[1]`)
/// are citations whatever comes later (a dialect rule: see the README),
/// unless a `(` follows them: `[a][1](…)` is a link then `(…)` once
/// defined, while undefined, `[1](…)` is an inline link; nor a full
/// reference before a `[`: undefined, its label pairs with the brackets
/// after it (`[1][1][a]` is `[1]` then `[1][a]`, a link to `a`'s
/// destination), or an escaped one (`[1][1]\[a]`, which pulldown-cmark
/// reads as `[1]` then `[1]\[a]`). pulldown-cmark reads `[1]\[1]` as a
/// full reference and `[1]\[]` as a collapsed one: once defined, their
/// text comes out differently (the escaped brackets are dropped).
fn may_change_when_defined(link: &BrokenLink<'_>, text: &str, markers_on: bool) -> bool {
    let marker_shaped = markers_on
        && matches!(
            link.link_type,
            LinkType::Shortcut | LinkType::Collapsed | LinkType::Reference
        )
        && crate::cite::is_marker_label(&link.reference);
    let rest = text.get(link.span.end..).unwrap_or_default();
    let before_paren = rest.starts_with('(')
        || link.link_type == LinkType::Reference
            && (rest.starts_with('[') || rest.starts_with("\\["));
    let odd_reference = link.link_type == LinkType::Reference
        && text
            .get(link.span.clone())
            .is_some_and(|s| !s.contains("]["));
    let odd_collapsed = link.link_type == LinkType::Collapsed && !rest.starts_with("[]");
    !marker_shaped || before_paren || odd_reference || odd_collapsed
}

/// The brackets the parser may still hold open before a position of its
/// text, found by one scan from the open text's start on, which a later
/// position continues. Once defined, a marker `[1]` is a link, and links
/// hold no links: brackets open around it then make no link, where
/// undefined they may (`[x [1]][g]`, `[x [1]](/u)`). An unmatched `[`, not
/// escaped, is counted open from where it is to the next blank line; a `]`
/// closes none after a backslash. A code span or a tag (`` [`a]`][1] ``) is
/// passed over, its `]` closing nothing, when it holds no `[`; else, or
/// when one may not end before the position, no `]` closes any more: what
/// cannot be told stays open, so the reference waits.
#[derive(Default)]
struct OpenBrackets {
    /// Where the scan is.
    scanned: usize,
    /// How many `[` are open there.
    open: usize,
    /// A code span or tag that could not be passed over came after the
    /// first of them.
    unsure: bool,
}

impl OpenBrackets {
    /// Whether a `[` of `text` from `from` on may be open at `at`.
    fn open_before(&mut self, text: &str, from: usize, at: usize) -> bool {
        if at < self.scanned || self.scanned < from {
            *self = OpenBrackets {
                scanned: from,
                ..OpenBrackets::default()
            };
        }
        let end = at.min(text.len());
        let bytes = &text.as_bytes()[..end];
        // (Two readings of an escape, each on the side of waiting: a `]`
        // after any backslash closes nothing, and a backtick after one is
        // no span to pass over; a `[` opens one unless escaped exactly
        // (`crate::parse::is_escaped`: `\\[` still opens one).)
        let escaped = |i: usize| i > 0 && bytes[i - 1] == b'\\';
        // (What a code span or tag from `i` to `to` holds, passed over when
        // it is one: no `[`, nor a blank line.)
        let passes = |i: usize, to: usize| {
            let inside = &text[i..to];
            !has_byte(inside, b'[')
                && !memchr::memchr_iter(b'\n', inside.as_bytes())
                    .any(|nl| starts_blank_line(&inside[nl + 1..]))
        };
        let mut i = self.scanned;
        while i < end {
            match bytes[i] {
                // (An escaped `[` opens nothing: `\[` of display math.)
                b'[' if !crate::parse::is_escaped(text, i) => self.open += 1,
                b']' if self.open > 0 && !self.unsure && !escaped(i) => self.open -= 1,
                b'`' if self.open > 0 && !self.unsure => {
                    // (No code span is open at `at`: a run that none closes
                    // before it is text.)
                    let span = preview::code_span_at(&text[..end], i);
                    match span {
                        (_, Some(to)) if !escaped(i) && passes(i, to) => {
                            i = to;
                            continue;
                        }
                        _ => self.unsure = true,
                    }
                }
                b'<' if self.open > 0 && !self.unsure => {
                    match memchr::memchr(b'>', &bytes[i..]).map(|gt| i + gt + 1) {
                        Some(to) if passes(i, to) => {
                            i = to;
                            continue;
                        }
                        _ => self.unsure = true,
                    }
                }
                b'\n' if starts_blank_line(&text[i + 1..]) => {
                    (self.open, self.unsure) = (0, false);
                }
                _ => {}
            }
            i += 1;
        }
        self.scanned = end;
        self.open > 0
    }
}

/// Whether `text` starts with a blank line (a CR ends a line too).
fn starts_blank_line(text: &str) -> bool {
    is_blank(text.split(['\n', '\r']).next().unwrap_or_default())
}

/// Whether a link's label is one code span: the code span its first
/// backtick opens ends where the label does.
fn is_one_code_span(label: &str) -> bool {
    label.starts_with('`') && preview::code_span_at(label, 0).1 == Some(label.len())
}

/// Up to how many bytes a search is a plain loop: a vectorized search
/// costs about as much to set up.
const FEW_BYTES: usize = 16;

/// The definition of `label`, `written` as it is in the message, as the
/// committed definitions keep it: as written when it is one line; else
/// rebuilt from what was parsed (`dest`, `title`), since the later lines of
/// one inside a blockquote or list item hold that container's `>` or
/// indent, which before the open text would read as markdown of their own
/// (`> [a]: /u` + `> "t"` would leave a quote of `"t"`).
fn standalone_definition(label: &str, written: &str, dest: &str, title: Option<&str>) -> String {
    // (A label starting with `^` would open a footnote's definition at the
    // start of a line, where a definition read as a link's, on a line that
    // went on with a paragraph, may now stand: a space before it keeps it
    // a link's, and the label the same, since labels match trimmed.)
    let footnote_like = label.starts_with('^');
    if !written.contains('\n') && !footnote_like {
        return written.to_owned();
    }
    // Every ASCII punctuation character escaped: nothing in the destination
    // or title can end it early or start a block on a line of its own.
    let escaped = |value: &str, into: &mut String| {
        for c in value.chars() {
            if c.is_ascii_punctuation() {
                into.push('\\');
            }
            into.push(c);
        }
    };
    let space = if footnote_like { " " } else { "" };
    let mut standalone = format!("[{space}{label}]: <");
    escaped(dest, &mut standalone);
    standalone.push('>');
    if let Some(title) = title {
        standalone.push_str(" \"");
        escaped(title, &mut standalone);
        standalone.push('"');
    }
    standalone
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render;
    use proptest::prelude::*;

    /// Pushes `message` in `chunk`-byte pieces; after each, the tail kept
    /// incrementally must equal the tail rendered whole.
    fn assert_cached_tail_is_whole(message: &str, chunk: usize, options: &Options) {
        let mut stream = Stream::new(options.clone());
        // (A tail the budget keeps waiting is the last one, not this one.)
        stream.budget = budget::TailBudget::unlimited();
        for piece in message.as_bytes().chunks(chunk) {
            let patch = stream.push_bytes(piece);
            let whole = stream.whole_tail();
            assert_eq!(
                patch.tail.as_deref(),
                Some(whole.as_str()),
                "after {} bytes in {chunk}-byte chunks: {:?}",
                stream.committed + stream.open.len(),
                stream.open
            );
        }
    }

    /// A heading's closing sequence typed after its settled words, and the
    /// line ending after it, as the whole tail shows them: no text.
    #[test]
    fn cached_tail_shows_no_closing_sequence_of_a_heading() {
        assert_cached_tails_are_whole(
            &[
                "Intro.\n\n## Frequently asked questions ##\n\nText.\n",
                "# A\n\n## s ##\n",
            ],
            &[1, 2, 3, 4, 5, 6],
        );
    }

    /// [`assert_cached_tail_is_whole`] for each of `messages` at each of
    /// `chunks`, with the default options.
    fn assert_cached_tails_are_whole(messages: &[&str], chunks: &[usize]) {
        for message in messages {
            for &chunk in chunks {
                assert_cached_tail_is_whole(message, chunk, &Options::default());
            }
        }
    }

    /// A message of cite tags, markers and tables whose tail costs more
    /// than the budget earns a byte at a time: the cache is still right
    /// where the budget would wait. (The property test failed here, at
    /// 20,000 cases, on the tail kept waiting.)
    #[test]
    fn cached_tail_is_whole_where_the_budget_would_wait() {
        let cited = "<cite id=\"a\">**b** [1]</cite>";
        let link = "([l](https://h/-/ai/conversations/c/call/a))";
        let table = "| a | b |\n|---|---|\n";
        let message = format!(
            "</details>\n{cited}\n```\n---<cite id='b'/>[1]: https://x/\n$5 ![i](https://x/i.png){cited}{link}{table}{table}{link}[1]{table}</cite><!-- c -->{table}…[1][1][1][1]"
        )
        .repeat(3);
        let mut waiting = Stream::new(Options::default());
        let waits = message
            .as_bytes()
            .chunks(1)
            .filter(|byte| {
                waiting.push_bytes(byte);
                waiting.budget.waiting().is_some()
            })
            .count();
        assert!(waits > 0, "the budget never waits: pin another message");
        assert_cached_tail_is_whole(&message, 1, &Options::default());
    }

    /// A line of spaces only, being typed in a code block, shows nothing
    /// while it may be a closing fence's indentation: up to three spaces
    /// past the block's container, not past its fence, which may be
    /// indented more (the `-` item's block after `- 1. ```\n`, opened at
    /// the fourth column). (Found by the property tests at 20,000 cases.)
    #[test]
    fn cached_tail_shows_a_line_of_spaces_as_its_code_block_does() {
        for message in [
            "  ```\nab\n    x",
            "- 1. ```\n   ```\n      ```",
            "- 1. ```\n   ```\r\n      ```",
            "- ```\n  a\n      b",
            "1. a\n\n   ```\n   b\n       c",
            "- 1. ```\n   ```\n   a\n     b\n      c\n       d",
            "- a\n\n   ```\n   b\n      c\n",
            "1. a\n\n   ```\n   b\n      c\n",
            "- a\nlazy\n\n   ```\n   b\n      c\n",
        ] {
            for chunk in 1..4 {
                assert_cached_tail_is_whole(message, chunk, &Options::default());
            }
        }
    }

    /// A code block in a list item, through its closing fence: the fence
    /// being typed is held back, the block once closed shows as it did
    /// while blank lines follow, and what may not close it (too short,
    /// text after it, indented less than the item or as code, a tab) is
    /// rendered whole.
    #[test]
    fn cached_tail_closes_a_code_block_in_an_item_as_the_whole_tail_does() {
        assert_cached_tails_are_whole(
            &[
                "1. Step.\n\n   ```rust\n   let a = 1;\n   ```\n\n2. Next.\n",
                "1. Step.\n\n   ```rust\n   let a = 1;\n   ```   \n  \n\n   More.\n",
                "- a\n  ````\n  b <c>\n  ```\n  ````` \n  d\n",
                "- a\n  ```\n  b\n  ``` x\n  ```\n\n",
                "- a\n  ```\n  b\n```\n  c\n",
                "- a\n  ```\n  b\n      ```\n  ```\n",
                "- a\n  ~~~\n  b\n\t~~~\n  c\n",
                "1. a\n   ```\n   b\n   ```\n2. c\n\n   ```\n   d\n   ``\n   ```\n",
                "10. a\n\n    ```\n    b\n       ```\n    ```\n",
            ],
            &[1, 2, 3, 5],
        );
    }

    /// A fence on a list item's first line (`- ````), which the preview
    /// does not see: its closing fence is no opening one, and the lines
    /// after it are the item's text, not code. (The cached tail showed
    /// `  [1]` as code where the whole tail showed a citation; found by the
    /// property tests at 30,000 cases.)
    #[test]
    fn cached_tail_closes_a_fence_opened_on_an_items_line() {
        assert_cached_tails_are_whole(
            &[
                "- ```\n  ```\n    [1] **a**",
                "1. - ~~~\n     ~~~\n     b [2]\n",
            ],
            &[1, 2, 3],
        );
    }

    /// Link reference definitions one a line, as messages and READMEs end
    /// with them, are committed as each is followed by the next: the open
    /// text holds the one being typed, not all of them (each push rendered
    /// them all again). A title opened on the next line still keeps the
    /// paragraph that links to it open
    /// (`a_title_opened_on_the_next_line_keeps_the_definition_open`).
    #[test]
    fn definitions_one_a_line_commit_as_they_follow_each_other() {
        let definitions: String = (0..40)
            .map(|i| format!("[label {i}]: https://example.com/{i}/page\n"))
            .collect();
        let message = format!("See [label 3] and [label 30].\n\n{definitions}");
        let mut stream = Stream::new(Options::default());
        let mut html = StreamedHtml::default();
        let mut longest = 0;
        for chunk in message.as_bytes().chunks(4) {
            html.apply(&stream.push_bytes(chunk));
            longest = longest.max(stream.open.len());
        }
        html.apply(&stream.finish());
        assert_eq!(html.html(), render(&message, &Options::default()).html);
        assert!(longest < 100, "the open text reached {longest} bytes");
        // (A definition a link before it resolves to, then a title for it.)
        for message in [
            "See [a].\n\n[b]: /v\n[a]: /u\n'\nt'\n",
            "See [a] [b].\n\n[b]: /v\n[a]: /u\n(t)\n[c]: /w\n",
            "[b]: /v\n[a]: /u\n\"t\"\n\nSee [a].\n",
        ] {
            for size in 1..6 {
                let mut stream = Stream::new(Options::default());
                let mut html = StreamedHtml::default();
                for chunk in message.as_bytes().chunks(size) {
                    html.apply(&stream.push_bytes(chunk));
                }
                html.apply(&stream.finish());
                let whole = render(message, &Options::default()).html;
                assert_eq!(html.html(), whole, "{message:?} in {size}-byte chunks");
            }
        }
    }

    /// The open text's references resolve to the committed definitions
    /// as the parser matches labels (case-folded, whitespace collapsed),
    /// and a label the open text defines again keeps its first
    /// definition, in the tail as at the end.
    #[test]
    fn committed_definitions_resolve_by_label_and_the_first_wins() {
        let message = "[Foo  Bar]: /one 'first'\n[ẞ]: /sharp\n\nSee [foo bar] and [ss].\n\n[foo bar]: /two\nThen [FOO BAR] again.\n";
        let whole = render(message, &Options::default()).html;
        assert!(
            whole.contains(r#"<a href="/one" title="first">FOO BAR</a>"#),
            "{whole}"
        );
        for size in 1..9 {
            let mut stream = Stream::new(Options::default());
            let mut html = StreamedHtml::default();
            for chunk in message.as_bytes().chunks(size) {
                let patch = stream.push_bytes(chunk);
                if let Some(tail) = &patch.tail {
                    assert!(!tail.contains("/two"), "{tail} in {size}-byte chunks");
                }
                html.apply(&patch);
            }
            html.apply(&stream.finish());
            assert_eq!(html.html(), whole, "in {size}-byte chunks");
        }
        assert_cached_tails_are_whole(&[message], &[1, 3, 4]);
    }

    /// Fences the preview pairs otherwise than the parse: a fence indented
    /// past three spaces (which the preview does not see) closed by one it
    /// takes for an opening fence, and a line at the margin that ends the
    /// item and its block, whose backticks open no fence.
    #[test]
    fn cached_tail_keeps_only_the_code_block_the_html_ends_with() {
        assert_cached_tails_are_whole(
            &[
                "1. \n     ```1. a\n   ```\n    更[1] **a**",
                "1. \n     ```\n   x\n   ```\n   x\n   y [1]",
                "1. a\n   ```\n```rust````\n   \t````  ```  [1]",
                // (A blank line with a tab, which the render shows as it
                // says.)
                "1. \n1. a\n   ```\n    ```rust\n   \t \n   b\n",
                // (A backtick in a closed block's lines opens no span: the
                // preview's block starts after the closing fence.)
                "\r\n\r\n~~~- ~~~\n\n`1. a\n   ```\n~~~\n  *b* [1]\n",
            ],
            &[1, 2, 3],
        );
    }

    /// A list item's code block whose item's raw HTML, passed through,
    /// closes the list: the tail rendered through the caches does not stay
    /// inside the list's element, and a tail with code lines added to it
    /// is checked as the one it extends was, not taken as staying inside
    /// (sanitized, the same tails stay inside).
    #[test]
    fn a_code_tail_is_checked_as_the_tail_it_extends_was() {
        for message in [
            "- a </ul> <ul>\n\n  ```\n  b\n  c\n  ```\n\n- d\n",
            "1. a </ol>\n   ```\n   b\n   c\n",
        ] {
            for (raw_html, stays) in [
                (crate::RawHtml::DangerouslyPassThrough, false),
                (crate::RawHtml::Sanitize, true),
            ] {
                let options = Options::default().with_raw_html(raw_html);
                for chunk in 1..4 {
                    assert_cached_tail_is_whole(message, chunk, &options);
                }
                let mut stream = Stream::new(options);
                let mut extended = 0;
                for byte in message.as_bytes().chunks(1) {
                    stream.push_bytes(byte);
                    if stream.tail.extends_code() {
                        extended += 1;
                        assert_eq!(stream.tail_stayed_inside, stays, "{:?}", stream.open);
                    }
                }
                assert!(extended > 0, "no code tail extended: pin another message");
            }
        }
    }

    /// A full reference read as its link turns bracketed words after it
    /// into links awaiting their definitions: the tail's pieces rendered
    /// after it read them so too (they showed `[ChaCha]` where the whole
    /// tail showed `ChaCha`). (Found by the property tests at 20,000
    /// cases.)
    #[test]
    fn cached_tail_reads_bracketed_words_after_a_full_reference() {
        assert_cached_tails_are_whole(
            &[
                "See [the guide][g] and then [ChaCha] for more words here",
                "[^1^][q](https://h/-/open-query?query=%7B%22a%22%3A1%7D%7D)- [ ] [a]Why ",
                "- [the guide][g] first\n- then [ChaCha] and (*[Agent]* words) here",
            ],
            &[1, 2, 3, 5],
        );
    }

    #[test]
    fn cached_tail_equals_whole_tail_on_samples() {
        for sample in super::common::samples() {
            for chunk in [1, 3, 4, 16] {
                assert_cached_tail_is_whole(&sample.markdown, chunk, &sample.options);
            }
        }
    }

    #[test]
    fn cached_tail_settles_words_around_footnotes_as_whole() {
        // (References read provisionally, and definitions at the margin,
        // one after another, lazily continued, with spans and markers in
        // them: the tail settles their words, and must show what the
        // whole rendering does.)
        assert_cached_tails_are_whole(
            &[
                "The rate fell[^1]. It rose **again** [2] later[^n].\n\n[^1]: A note with `code` and **bold** words.\n[^n]: Another *one* [1].\n",
                "a[^1] b\n\n[^1]: first line\nlazy continuation **b** here\n[^2]: second\n\n    indented more\n\nafter [^2] and [^1].\n",
                "[^x]: defined first, then used[^x] in it.\n[^y]: a [link](https://e.com/a) and [^x] again\n\n- item [^x] in a list\n- [^y]: not at the margin\n",
                "text [^1]\n[^1]:\n[^2]: x\n[^1]: twice [^2] here\n> [^3]: in a quote [^3]\n",
                "[^a b]: spaced label\n[^a\\]]: escaped [^a b] more words\n[g]: https://e.com\n[^1]: after a link definition [g] words\n",
            ],
            &[1, 2, 3, 4, 7],
        );
    }

    /// A raw element opened on an outline's item line (`<details>`) is
    /// closed where the item's content ends, around the lines after it: the
    /// outline does not compose such a line alone. (Found by the cached
    /// tail property test.)
    #[test]
    fn an_item_line_opening_raw_html_is_no_outline_line() {
        let mut options = Options::default();
        options.syntaxes.file_search_markers = true;
        options.math = true;
        for chunk in [1, 2, 5] {
            assert_cached_tail_is_whole(
                "- http://<details>\n    - http://^> ===\n[1]",
                chunk,
                &options,
            );
            assert_cached_tail_is_whole("- a <b>bold\n  - b\n  - c\n", chunk, &options);
        }
    }

    #[test]
    fn cached_tail_settles_cjk_words_at_their_marks_as_whole() {
        // (Text written without spaces settles after `。` and the other
        // marks, and what follows renders after a stand-in ending in the
        // mark: a link, a span or a marker after it shows as in the whole
        // rendering; a mark inside a URL, or in an emphasis or a link
        // still open, ends no word.)
        assert_cached_tails_are_whole(
            &[
                "这是一个回答。我们测量了延迟[1]，结果显示**新版本**更快。见www.a.io。更多",
                "见https://a.io/路径。之后的文字，还有a@b.io。结束[2]。",
                "**加粗。跨过标记**之后，_强调。_再来`代码。`完。",
                "[链接。文字](https://e.com/a)。然后[^1]。\n\n[^1]: 注释。内容。\n",
                "- 列表项。第一[1]。\n- 第二项：内容，更多。\n\n> 引用。文字！问题？\n",
                "。_开头_，后面。www.x.io",
            ],
            &[1, 2, 3, 4, 7],
        );
    }

    /// A link's definition whose label starts with `^`, read as a link's
    /// on a line going on with another definition, is kept for later
    /// blocks as a link's, not as a footnote's definition at the margin
    /// (which every tail after it showed). (Found by the cached tail
    /// property test, after some 50,000 cases.)
    #[test]
    fn a_definition_labelled_like_a_footnote_stays_a_links() {
        let message =
            "  \n[1]: https://x/\n    [^1]: note\n# <cite id='b'/>  \n\\\\(<!-- c -->  \n\
                       Ht[q](https://h/-/open-query?query=%7B%22a%22%3A1%7D%7D)&#\n\n```\n";
        let mut options = Options::default();
        options.syntaxes.file_search_markers = true;
        options.math = true;
        assert_cached_tail_is_whole(message, 5, &options);
        let message =
            "[1]: https://x/\n    [^1]: note\n\nText [t][^1] and [^1].\n\nMore [t][^1].\n";
        for chunk in [1, 3, 5, 64] {
            assert_cached_tail_is_whole(message, chunk, &Options::default());
            let mut stream = Stream::new(Options::default());
            let mut html = StreamedHtml::default();
            for piece in message.as_bytes().chunks(chunk) {
                html.apply(&stream.push_bytes(piece));
            }
            html.apply(&stream.finish());
            assert_eq!(html.html(), render(message, &Options::default()).html);
        }
    }

    #[test]
    fn a_tail_written_into_the_last_ones_buffer_is_the_same_tail() {
        for sample in super::common::samples() {
            let mut new_tails = Stream::new(sample.options.clone());
            let mut one_buffer = Stream::new(sample.options.clone());
            let mut tail = String::new();
            let mut from = 0;
            while from < sample.markdown.len() {
                let mut to = (from + 4).min(sample.markdown.len());
                while !sample.markdown.is_char_boundary(to) {
                    to += 1;
                }
                let piece = &sample.markdown[from..to];
                let patch = new_tails.push(piece);
                let deferred = one_buffer.push_deferred(piece);
                one_buffer.tail_into(&mut tail);
                assert_eq!(deferred.append, patch.append, "{}", sample.name);
                assert_eq!(Some(&tail), patch.tail.as_ref(), "{} at {to}", sample.name);
                from = to;
            }
        }
    }

    #[test]
    fn a_letter_x_after_a_bracket_may_be_a_task_box() {
        for m in ["r [x", "r\u{3000}[X", "see [x]", "see [xy"] {
            assert_cached_tail_is_whole(m, 1, &Options::default());
        }
    }

    #[test]
    fn a_line_shown_as_nothing_shows_the_text_before() {
        // (A loose list's next number, a bare marker, a rule's start: the
        // tail is that of the text before them; and not when the preview
        // edits that text, as it closes a `**` left open.)
        assert_cached_tails_are_whole(
            &[
                "1. One\n\n12. Two\n\n123. Three [1]\n",
                "- a [1]\n- b\n-\n- c\n  -\n  - d\nSteps:\n1.\n2) x\n---\n",
                "- a\n\n- b\n\n-\n\n--\n\n# x\n\n##\n",
                "1. **One\n\n2. Two\n",
                "Intro:\n\n  \n3) x\n\n> a\n\n>\n",
            ],
            &[1, 2, 3, 4],
        );
    }

    #[test]
    fn blank_lines_of_a_quote_end_its_paragraph_as_its_end_does() {
        // (Lines of the quote's markers alone after a paragraph's line, the
        // last being typed: blank lines of the quote. Not lines holding
        // more markers, a nested quote, nor ones indented past them, which
        // go on with the paragraph.)
        assert_cached_tails_are_whole(
            &[
                "> The rate **fell** [1].\n>\n> \n>\n> It rose.\n",
                "> > A **b** c.\n>\n> >\n>  >\n> >   >\n    >\n",
                "> A `b` c\n> d **e**.\n> \n>\n>> f [2].\n>\n",
                "> - A **b** c.\n>\n>     >\n> - d\n",
                // (After a line less deep, a deeper one opens a quote.)
                "> > `\n> > aa` \n> \n> >\n",
                // (A run right after the markers starts the quote's line:
                // it may open, not close.)
                "> >**a**** [1]",
            ],
            &[1, 2, 3, 4],
        );
    }

    #[test]
    fn spaces_before_a_crlf_end_the_line_that_goes_on() {
        // (The open text keeps CRLF as typed: the spaces before it, not the
        // CR, end the line's text; two of them are a hard break.)
        assert_cached_tails_are_whole(
            &["a- \r\na", "a \r\nb c", "a  \r\nb", "> a \r\n> b"],
            &[1, 2, 3],
        );
    }

    #[test]
    fn a_lone_carriage_return_ends_the_cached_line() {
        let message = concat!(
            "https://h/-/ai/conversations/c/call/b",
            "(([l](https://h/-/ai/conversations/c/call/a))\r1. )[ **b\rc"
        );
        assert_cached_tails_are_whole(&[message, "**\r~~~\n~~~\n|"], &[1, 3, 4]);
    }

    #[test]
    fn known_renderings_are_what_rendering_gives() {
        for (text, html) in KNOWN_RENDERINGS {
            assert_eq!(render(text, &Options::default()).html, *html, "{text:?}");
        }
    }

    #[test]
    fn lines_after_an_html_blocks_first_are_in_it() {
        // (`</details>` opens an HTML block that takes in the list; so does
        // `<details>` after an item's marker, and the line after it is no
        // nested item.)
        let options = Options::default().with_raw_html(crate::RawHtml::Strip);
        for message in [
            "===\n</details>\n- [ ] (^]  \n- [ ] Why [1#p=2]===\n",
            "- <details>\n  - a [1]",
            "- ```\n- <details>\n  - [a]> [1]",
            "> 1. <div>\n>    - b [2]\n",
        ] {
            for chunk in [1, 3, 100] {
                assert_cached_tail_is_whole(message, chunk, &options);
            }
        }
    }

    #[test]
    fn a_list_items_second_line_ends_checked_with_its_whole_block() {
        // (Once the item's second line ends, the preview's block reaches
        // back to the paragraph before the list, whose backtick it closes.)
        assert_cached_tails_are_whole(
            &["`  \n- <cite id='b'/>\\\na  \n", "**b\n- x\ny\nz"],
            &[1, 2, 3],
        );
    }

    #[test]
    fn text_held_back_while_typed_keeps_the_tail() {
        let message = "see <cite id=\"call_1\">x</cite> &amp; [12, 3] at https://a.example/x?y=1 \
                       and www.b.example/z#f [1#page=3] < 4 &x y";
        for chunk in [1, 2, 3, 5] {
            assert_cached_tail_is_whole(message, chunk, &Options::default());
        }
    }

    #[test]
    fn a_link_being_typed_keeps_the_tail_until_it_ends() {
        let message =
            "Support got tickets ([support tickets](https://h/o/p/-/ai/conversations/c_1/\
                       call/call_t)). See the [docs page](https://d.example/a_b?x=1#y) and \
                       ([x](https://e.example/ a)) or ([1](https://f/) [y](z)] ([a] b) end";
        for chunk in [1, 2, 3, 4, 5] {
            assert_cached_tail_is_whole(message, chunk, &Options::default());
        }
    }

    #[test]
    fn letters_after_labels_inside_an_unfinished_marker_are_held_with_it() {
        // (Shown without its brackets, `[a` goes on the `[1` before it, and
        // the preview holds `[1a` back whole.)
        for message in ["a[1[1[a", "b [2, [x] c"] {
            for chunk in [1, 2] {
                assert_cached_tail_is_whole(message, chunk, &Options::default());
            }
        }
    }

    #[test]
    fn letters_typed_in_a_label_after_an_underscore_go_next_to_it() {
        // (The preview shows `_a_[a` as `_a_a`, whose last `_` cannot
        // close: it is emphasis to the end.)
        assert_cached_tails_are_whole(&["_a_[a", "x _b_[[cd"], &[1, 2]);
    }

    #[test]
    fn letters_typed_in_a_label_go_on_as_what_shows_before_it() {
        // (The preview shows `$[q` as `$q`, math being typed, held back;
        // the typing stand-in, no ASCII letter, opens no math after `$`.)
        let message = "Why $[q](https://h/-/open-query?query=%7B%22a%22%3A1%7D%7D)";
        assert_cached_tails_are_whole(&[message, "a &[b c", "x <[y z"], &[1, 2, 3]);
    }

    #[test]
    fn math_being_typed_pairs_with_no_dollar_in_an_earlier_block() {
        // (The `$` of `$5` in the paragraph cannot close math that the
        // heading after it opens: `Why $` holds its `$` whole or cached.)
        let message = "([l](https://h/-/ai/conversations/c/call/a))$5 \n# Why $5 ";
        assert_cached_tails_are_whole(&[message, "a $5\n- b $x c\n> d $y"], &[1, 3, 5]);
        // (Nor with one in a code span or a link's destination before it,
        // which the preview counts as typed.)
        let messages = ["Why `$5 `> $5 ", "See [a](https://x/$) $y and `$` $z"];
        assert_cached_tails_are_whole(&messages, &[1, 2, 3]);
    }

    #[test]
    fn a_label_shown_at_its_own_length_is_looked_at_again() {
        // (Shown without its brackets, `[([[1](]((](h`'s label, escaped, is
        // as long as the text was: the preview still drops the `((` it
        // bares, as it does once the `t` of `ht` follows.)
        let message = "é[([[1](]((](https://h/-/ai/conversations/c_1/call/a_b([([([";
        assert_cached_tails_are_whole(&[message], &[1, 3, 5]);
    }

    #[test]
    fn a_tables_row_being_typed_is_held_after_any_delimiter_row() {
        // (`- |` after a header is the table's delimiter row, not a list
        // item: the row after it is held as any other.)
        let messages = [
            "|```\n- |\n<cite id=\"a\">c</cite>",
            "| h [1] |\n- |\n| a [2] |\n<cite id=\"a\">c</cite> [2]\n",
        ];
        assert_cached_tails_are_whole(&messages, &[1, 2, 3, 4, 5, 6, 7, 8]);
    }

    #[test]
    fn a_backtick_line_with_backticks_after_it_is_no_fence_to_the_tail() {
        // (```` ```rust\t```rust ```` is a paragraph's line: the fence
        // opened after it closes where the parser closes it.)
        let message =
            "      ```\t``- 更😀(- <b>&amp;\n\n`\t\t`    `````````\n```rust\t```rust\n\n  \
                       ```\t\r\n\r\n````\n\n- (\t- ~~~    \t\t[1] **a**";
        assert_cached_tails_are_whole(&[message], &[1, 2, 3, 4, 5, 6, 7, 8]);
        for cut in (1..message.len()).filter(|&cut| message.is_char_boundary(cut)) {
            let mut stream = Stream::new(Options::default());
            stream.push(&message[..cut]);
            let patch = stream.push(&message[cut..]);
            assert_eq!(patch.tail, Some(stream.whole_tail()), "cut at {cut}");
        }
    }

    #[test]
    fn a_list_loose_before_its_items_show_it_stays_loose_in_the_tail() {
        // (A blank line between empty task items makes the list loose,
        // which neither item's HTML shows: the next item is in a
        // paragraph, not tight as a one-line item alone.)
        let messages = ["- [ ] \n\n- [ ]   \n- WWW.> ", "- [ ]\n\n- [ ]\n- a b c"];
        assert_cached_tails_are_whole(&messages, &[1, 2, 5]);
    }

    #[test]
    fn spans_open_before_a_block_boundary_are_not_closed_after_it() {
        // The `*` left open in the paragraph cannot close in the block
        // after it: the preview closes `*i` alone, with no stray `*`.
        // (Found by the images proptest, where `\` ending the line also
        // hid the newline from the preview.)
        let cases = [
            ("v*h\n* *i", "<li><em>i</em></li>"),
            ("v*h\\\n* *i", "<li><em>i</em></li>"),
            ("v*h\\\n- *i", "<li><em>i</em></li>"),
            ("v*h  \n1. *i", "<li><em>i</em></li>"),
            ("v*h\n# *i", "<h1><em>i</em></h1>"),
            ("v*h\n> *i", "<p><em>i</em></p>"),
            ("v*h\n***\n*i", "<p><em>i</em></p>"),
            ("# v*h\n*i", "<p><em>i</em></p>"),
        ];
        for (message, closed) in cases {
            let mut stream = Stream::new(Options::default());
            stream.push(message);
            let tail = stream.whole_tail();
            assert!(
                tail.contains(closed) && !tail.contains("</em>*"),
                "{message:?}: {tail}"
            );
            for chunk in [1, 2, 3] {
                assert_cached_tail_is_whole(message, chunk, &Options::default());
            }
        }
    }

    #[test]
    fn text_typed_before_closers_ends_as_the_stand_in_does() {
        // (After `/`, the preview's `**_` may open as well as close, and
        // the rule of three leaves `*a */**` unmatched; after a letter,
        // as after the stand-in, it would close.)
        assert_cached_tails_are_whole(
            &["x\"_*a */", "/i.png \"t\"_*a */i.png \"t\"", "**a €"],
            &[1, 2, 3],
        );
    }

    #[test]
    fn a_link_label_opening_a_line_stays_in_its_block() {
        // (Frozen by `[note]`, the list is kept rendered at the tail's
        // head; shown without its `[`, the label would be the list's item.)
        let message = "See [note].\n\n- x\n\n[- y\nz\nw";
        for chunk in [1, 4] {
            assert_cached_tail_is_whole(message, chunk, &Options::default());
        }
    }

    #[test]
    fn a_comment_left_open_holds_what_follows_its_blank_lines() {
        // (A comment runs past blank lines: the list after one is in it.
        // Found by the streaming property tests at 20,000 cases.)
        let message = "code </details>\n<b>open\n<!-- c\n\n- item [2]\n```\n<!-- c\n";
        for chunk in [1, 3, 42] {
            assert_cached_tail_is_whole(message, chunk, &Options::default());
        }
    }

    #[test]
    fn item_like_lines_in_an_html_block_are_no_list_items() {
        // (Found by the streaming property tests at 5,000 cases; raw HTML
        // stripped, so that the block's lines show as its text.)
        let message = "text [1]\n- item [2]\n<details>\n- item [2]\n- item [2]";
        let options = Options {
            raw_html: crate::RawHtml::Strip,
            ..Options::default()
        };
        for chunk in [1, 3] {
            assert_cached_tail_is_whole(message, chunk, &options);
        }
    }

    #[test]
    fn a_crlf_split_across_chunks_stays_one_line_ending() {
        // (Were the CR read as a line feed before its LF came, `a` and `b`
        // would be two paragraphs.)
        let message = "a\r\nb\r\n\r\r\nc\r";
        let whole = render(message, &Options::default()).html;
        for chunk in [1, 2, 3] {
            assert_eq!(streamed(message, chunk, &Options::default()).0, whole);
        }
    }

    #[test]
    fn cached_tail_adds_list_items_one_by_one() {
        let mut message = String::from("Steps [1]:\n\n");
        for item in 0..40 {
            // (An unclosed `**` or backtick stays in its item.)
            let odd = if item % 7 == 3 { " **open" } else { "" };
            message.push_str(&format!("- step {item} [{}] *done*{odd}\n", item % 3 + 1));
        }
        message
            .push_str("\n1. first\n2. second `code\n3) other list\n+ bullets\n+ more\n\nAfter.\n");
        for chunk in [1, 2, 4, 7, 64] {
            assert_cached_tail_is_whole(&message, chunk, &Options::default());
        }
    }

    /// An outline of one-line items, nested (a few kinds of marker, depths
    /// and indentations, spans left open, lines that are no item among
    /// them): the tail shows what the whole rendering does at every step,
    /// and a line's item renders alone in its place, not the outline again.
    #[test]
    fn cached_tail_adds_outline_items_in_their_places() {
        let lines = [
            "- top item [1] **bold**",
            "  - child *one*",
            "  - child `two",
            "    - grandchild **three**",
            "    - grandchild four",
            "      1. great-grandchild",
            "      2. another",
            "   - back to the children",
            "  * another list",
            "- next top",
            "    - four spaces in",
            "  1. ordered child",
            "  3. numbered on",
            "      2. goes on with the line",
            "  - # heading child",
            "  - [2] marker first",
        ];
        let mut message = String::from("Intro:\n\n");
        for line in lines.iter().cycle().take(48) {
            message.push_str(line);
            message.push('\n');
        }
        message.push_str("\nAfter.\n");
        for chunk in [1, 2, 3, 4, 7, 64] {
            assert_cached_tail_is_whole(&message, chunk, &Options::default());
        }
        // The tail alone, word by word: once the outline has a line or
        // two, nothing it renders is much longer than a line. (The marker
        // comes with the first word: alone, a marker in an item reads as
        // its text's underline, a heading, rendered whole.)
        let typed = lines[..8].iter().cycle().take(40).map(|line| {
            let indent = line.len() - line.trim_start_matches(' ').len();
            let after_marker = line[indent..]
                .find(' ')
                .map_or(line.len(), |i| indent + i + 1);
            let first_end = line[after_marker..]
                .find(' ')
                .map_or(line.len(), |i| after_marker + i + 1);
            let words = line[first_end..].split_inclusive(' ');
            (
                "",
                std::iter::once(&line[..first_end]).chain(words).collect(),
            )
        });
        assert_tail_types_lines_alone(typed, 2, 60);
    }

    #[test]
    fn blocks_awaiting_a_definition_commit_and_a_late_one_rewinds_once() {
        let mut message = String::from("Intro.\n\nSee [note] first.\n\n");
        for i in 0..12 {
            message.push_str(&format!(
                "Paragraph {i} cites [1] **boldly**.\n\n- a\n- b\n\n"
            ));
        }
        for chunk in [1, 3, 16] {
            assert_cached_tail_is_whole(&message, chunk, &Options::default());
        }
        let mut stream = Stream::new(Options::default());
        let mut html = StreamedHtml::default();
        let mut rewinds = 0;
        let mut apply = |patch: Patch, html: &mut StreamedHtml| {
            rewinds += usize::from(patch.rewind);
            html.apply(&patch);
        };
        for line in message.split_inclusive('\n') {
            apply(stream.push(line), &mut html);
        }
        // The blocks are appended as they come, `[note]` as text; the mark
        // stays before it.
        assert!(html.html().contains("See [note] first."), "{}", html.html());
        assert!(html.html().contains("Paragraph 10"), "{}", html.html());
        assert_eq!(stream.since_mark.text.len(), stream.committed - 8);
        // The definition arrives; at the next block, what followed the mark
        // is withdrawn and appended again, with the link.
        let definition = "[note]: https://example.com/note\n\nAfter.\n\n";
        for line in definition.split_inclusive('\n') {
            apply(stream.push(line), &mut html);
        }
        message.push_str(definition);
        apply(stream.finish(), &mut html);
        assert_eq!(rewinds, 1);
        assert!(
            html.html()
                .contains(r#"<a href="https://example.com/note""#),
            "{}",
            html.html()
        );
        assert_eq!(html.html(), render(&message, &Options::default()).html);
    }

    /// A paragraph of many lines, at the top level and in quotes (lazy
    /// lines, hard breaks, spans, and lines that start blocks among them):
    /// the tail shows what the whole rendering does at every step, and a
    /// line going on with the paragraph renders that line's words, not
    /// the paragraph again.
    #[test]
    fn cached_tail_goes_on_with_a_paragraph_line_by_line() {
        let lines = [
            "Revenue grew **a third** [1] in the quarter.",
            "It held `steady` in EMEA and fell in APAC.",
            "The *new* region rose",
            "while the old one fell back.  ",
            "After a hard break, words.\\",
            "and after a backslash.",
            "Then <cite id=\"c1\">a cite</cite> and more words.",
        ];
        let ends = [
            "- an item\n",
            "===\n",
            "> > nested\n",
            "**Bold** line.\n",
            "\n",
        ];
        let mut messages = Vec::new();
        for prefix in ["", "> ", ">"] {
            let mut message = String::new();
            for (i, end) in ends.iter().enumerate() {
                for line in lines.iter().cycle().skip(i).take(9) {
                    // (A lazy line now and then, in a quote.)
                    let prefix = if line.starts_with("It") { "" } else { prefix };
                    message.push_str(&format!("{prefix}{line}\n"));
                }
                message.push_str(&format!("{prefix}{end}"));
            }
            messages.push(message);
        }
        for message in &messages {
            for chunk in [1, 2, 3, 4, 7, 64] {
                assert_cached_tail_is_whole(message, chunk, &Options::default());
            }
        }
        // The tail alone, word by word: nothing it renders is much longer
        // than a line.
        for prefix in ["", "> "] {
            let typed = lines[..4].iter().cycle().take(60);
            assert_tail_types_lines_alone(
                typed.map(|line| (prefix, line.split_inclusive(' ').collect())),
                1,
                100,
            );
        }
    }

    /// Types `lines` into a tail alone, each line's `lead` (not rendered
    /// alone) then its pieces, then a line break: after every piece the
    /// tail equals the whole rendering of the preview; after the first
    /// `whole_lines` lines (rendered whole, as any block's first are),
    /// nothing rendered for a line reaches `bound` bytes.
    fn assert_tail_types_lines_alone<'l>(
        lines: impl Iterator<Item = (&'l str, Vec<&'l str>)>,
        whole_lines: usize,
        bound: usize,
    ) {
        let stream = Stream::new(Options::default());
        let context = stream.context();
        let longest = Cell::new(0);
        let render = |text: &str, after: Option<&IndexBuilder>| {
            longest.set(longest.get().max(text.len()));
            let written = context.render_open(text, after, None);
            (written.html, written.index)
        };
        let mut tail = tail::Tail::default();
        let mut open = String::new();
        for (at, (lead, pieces)) in lines.enumerate() {
            let line_start = open.len();
            open.push_str(lead);
            for piece in pieces {
                open.push_str(piece);
                let html = tail.render(&open, line_start, &render);
                let whole = context.render_open(&preview::preview(&open).text, None, None);
                assert_eq!(html, whole.html, "{open:?}");
            }
            open.push('\n');
            tail.render(&open, open.len(), &render);
            if at >= whole_lines {
                assert!(
                    longest.get() < bound,
                    "{} bytes rendered at {open:?}",
                    longest.get()
                );
            }
            longest.set(0);
        }
    }

    #[test]
    fn cached_tail_adds_table_rows_one_by_one() {
        let mut message = String::from("Costs [1]:\n\n| item | cost |\n|:--|--:|\n");
        for row in 0..30 {
            message.push_str(&format!("| row {row} [{}] | **{row}** |\n", row % 3 + 1));
        }
        message.push_str("\nAfter.\n");
        for chunk in [1, 4, 7, 64] {
            assert_cached_tail_is_whole(&message, chunk, &Options::default());
        }
    }

    /// Numbered steps, each with a code block inside its item: the block's
    /// lines go onto the tail kept, as at the margin, so a push renders
    /// about what it adds (the item whole, before: 160 bytes rendered for
    /// each byte pushed, 4 bytes at a time).
    #[test]
    fn cached_tail_adds_code_lines_in_a_list_item() {
        let mut message = String::from("Steps:\n\n");
        for step in 1..4 {
            message.push_str(&format!("{step}. Run it:\n\n   ```sh\n"));
            for line in 0..12 {
                message.push_str(&format!("   cargo run -- --step {step} <{line}> &&\n"));
            }
            message.push_str("     indented more\n   ```\n\n");
        }
        for chunk in [1, 4, 7, 64] {
            assert_cached_tail_is_whole(&message, chunk, &Options::default());
        }
        let mut stream = Stream::new(Options::default());
        for piece in message.as_bytes().chunks(4) {
            stream.push_bytes(piece);
        }
        let spent = stream.budget.spent();
        assert!(
            spent < 4 * message.len(),
            "{spent} bytes rendered for {}",
            message.len()
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(super::common::cases(300)))]
        #[test]
        fn cached_tail_equals_whole_tail(
            message in super::common::markdown(),
            chunk in 1usize..9,
            options in super::common::options(),
        ) {
            assert_cached_tail_is_whole(&message, chunk, &options);
        }

        /// Code's tail, extended as a line is typed.
        #[test]
        fn cached_tail_equals_whole_tail_in_code(
            message in super::common::code_markdown(),
            chunk in 1usize..9,
            options in super::common::options(),
        ) {
            assert_cached_tail_is_whole(&message, chunk, &options);
        }

        /// Quotes, with blank lines of the quote after a paragraph's line.
        #[test]
        fn cached_tail_equals_whole_tail_in_quotes(
            message in super::common::quote_markdown(),
            chunk in 1usize..6,
        ) {
            assert_cached_tail_is_whole(&message, chunk, &Options::default());
        }

        #[test]
        fn cached_tail_equals_whole_tail_around_images(
            message in super::common::image_markdown(),
            chunk in 1usize..6,
            options in super::common::options_with_images(),
        ) {
            assert_cached_tail_is_whole(&message, chunk, &options);
        }

        /// Prose as typed: headings and their closing sequences, `*`
        /// items, badges, code spans, held parts.
        #[test]
        fn cached_tail_equals_whole_tail_in_prose(
            message in super::common::prose_markdown(),
            chunk in 1usize..9,
        ) {
            assert_cached_tail_is_whole(&message, chunk, &Options::default());
        }

        #[test]
        fn cached_tail_equals_whole_tail_around_links(
            message in super::common::link_markdown(),
            chunk in 1usize..6,
        ) {
            assert_cached_tail_is_whole(&message, chunk, &Options::default());
        }
    }

    fn streamed(message: &str, chunk: usize, options: &Options) -> (String, Vec<Occurrence>) {
        let cuts: Vec<usize> = (chunk..message.len()).step_by(chunk).collect();
        super::common::streamed_at(message, &cuts, options)
    }

    fn assert_equivalent(message: &str) {
        let options = Options::default();
        let whole = render(message, &options);
        for chunk in [1, 2, 3, 7, 64] {
            let (html, citations) = streamed(message, chunk, &options);
            assert_eq!(html, whole.html, "chunk {chunk}: {message:?}");
            assert_eq!(citations, whole.citations.occurrences, "chunk {chunk}");
        }
    }

    #[test]
    fn streamed_equals_one_shot() {
        assert_equivalent(
            "# Title\n\nOne [1] two <cite id=\"a\">x</cite>.\n\n- a\n- b\n\n  c\n\nend\n",
        );
        assert_equivalent(
            "[a]: https://a.example\n\nsee [a] and [b]\n\n[b]: /b\n\nlater [a] [b]\n",
        );
        assert_equivalent("x[^1]\n\n[^1]: note\n\ny [^1]\n");
        assert_equivalent("<details>\n\n**x**\n\n</details>\n\nafter\n");
        assert_equivalent("héllo wörld ✓ [1]\n\n日本語のテキスト\n");
        assert_equivalent("1. a\n\n2\n\n3. b\n");
        assert_equivalent("```\ncode\n\nmore\n```\n\nafter\n");
    }

    #[test]
    fn definitions_written_in_containers_carry_over_whole() {
        // (Their later lines hold the container's `>` or indent.)
        assert_equivalent("> [a]: /u\n> \"t\"\n\nx [a]\n");
        assert_equivalent("> [a\n> ]:a\n\n]");
        assert_equivalent("- [C]:\n  <d e>\n  (t)\n\nsee [C]\n");
        assert_equivalent("> [a\n> b]: /u\\&x?y=<1>\n> \"t\n> # u\"\n\nx [a b] [1]\n");
    }

    #[test]
    fn finished_blocks_are_appended_as_they_close() {
        let mut stream = Stream::new(Options::default());
        assert_eq!(stream.push("First paragraph.\n\n").append, "");
        let patch = stream.push("- a");
        assert_eq!(
            patch.append, "",
            "`- a` may go on: `- a\\n  b`? a list above?"
        );
        // The paragraph is final; the list opens, its item still going on.
        let patch = stream.push("\n");
        assert_eq!(patch.append, "<p>First paragraph.</p>\n<ul>\n");
        assert_eq!(patch.steps, [Step::Html(24), Step::Open(5)]);
        let patch = stream.push("\nNext");
        assert_eq!(patch.append, "<li>a</li>\n</ul>\n");
        assert_eq!(patch.steps, [Step::Html(11), Step::Close(5), Step::Html(1)]);
        let patch = stream.push(" one.");
        assert_eq!(
            patch.append, "",
            "a letter at the margin after a gap starts a paragraph: committed at once"
        );
        assert_eq!(patch.tail.as_deref(), Some("<p>Next one.</p>\n"));
    }

    #[test]
    fn a_list_item_begun_after_a_line_break_commits_the_one_before_at_once() {
        let mut stream = Stream::new(Options::default());
        stream.push("- a\n- b");
        // (The push that ends `b`'s line and begins the next item makes
        // `b` final: it is not left for the next push to commit.)
        let patch = stream.push(" c\n- d");
        assert_eq!(patch.append, "<li>b c</li>\n");
        assert_eq!(patch.tail.as_deref(), Some("<li>d</li>\n"));
    }

    #[test]
    fn a_tag_in_a_comment_keeps_nothing_open() {
        // (Found streaming public READMEs: the comment's lines come one raw
        // piece each, and `<X>` read as an element left everything after it
        // in the tail.)
        let message = "<!--\nA <X> here\n-->\n\nPara one.\n\nPara two.\n\nPara three.\n";
        let mut stream = Stream::new(Options::default());
        let mut before_finish = String::new();
        for line in message.split_inclusive('\n') {
            before_finish.push_str(&stream.push(line).append);
        }
        assert!(
            before_finish.contains("<p>Para two.</p>"),
            "{before_finish}"
        );
        assert_equivalent(message);
    }

    #[test]
    fn split_characters_wait_for_their_other_bytes() {
        let mut stream = Stream::new(Options::default());
        let bytes = "é".as_bytes();
        stream.push_bytes(&bytes[..1]);
        let patch = stream.push_bytes(&bytes[1..]);
        assert_eq!(patch.tail.as_deref(), Some("<p>é</p>\n"));
        let mut broken = Stream::new(Options::default());
        broken.push_bytes(b"a\xff");
        assert_eq!(broken.finish().append, "<p>a\u{fffd}</p>\n");
    }

    #[test]
    fn late_sources_resolve_later_blocks() {
        let mut stream = Stream::new(Options::default());
        let first = stream.push("Claim [1].\n\nNext\n");
        assert!(first.append.contains("citation-unresolved"));
        stream.set_sources(Some(vec![Source::with_id("s").with_title("One")]));
        let last = stream.finish();
        assert!(last.citations.is_empty());
        let index = stream.citation_index();
        assert_eq!(index.occurrences.len(), 1);
        assert_eq!(index.uncited.len(), 1);
    }

    #[test]
    fn replaced_sources_are_what_later_citations_show() {
        let source = |title: &str| {
            Source::with_id("s")
                .with_title(title)
                .with_href("https://a.example/")
        };
        let mut stream = Stream::new(Options::default().with_sources(vec![source("Old")]));
        let first = stream.push("A <cite id=\"s\">claim</cite>.\n\nB <cite id=");
        assert!(first.append.contains(r#"title="Old""#), "{}", first.append);
        stream.set_sources(Some(vec![source("New")]));
        let tail = stream.push("\"s\">more</cite>").tail.unwrap_or_default();
        assert!(tail.contains(r#"title="New""#), "{tail}");
        assert!(!tail.contains("Old"), "{tail}");
    }
}
