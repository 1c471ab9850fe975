//! Provisional readings: a streamed part rendered as the message will read
//! once the definitions it names arrive, what that took for granted, and
//! when it is known to hold.
//!
//! **Footnotes.** A footnote reference `[^x]` is a footnote only when the
//! message defines `x`, anywhere, and footnotes are numbered in order of
//! first appearance across the message. A streamed part is rendered before
//! the rest exists, so it is rendered *provisionally*: each footnote label
//! it names gets a stand-in definition, parsed before the part and left out
//! of its HTML, so its references read as footnotes, numbered on from the
//! parts before it (the numbering is kept with the citation index). What
//! the reader sees is then what the message will show once its footnotes
//! are defined. The mark stays before the first part with footnotes. The
//! parts note the labels their events reference and define; at the end,
//! when every label referenced was defined (as written), the reading held
//! and the parts are final (the parser consults the footnotes defined only
//! to resolve references); otherwise the end renders everything since the
//! mark again, with no stand-ins.
//!
//! **Full references.** An undefined `[text][label]` is read as a link to
//! [`AWAITED_DESTINATION`], written as its text (see `RenderContext::parse`);
//! the part records that it holds one, and the end renders it again if its
//! definition never came.

use std::cell::{Cell, RefCell};
use std::ops::Range;

use pulldown_cmark::{Event, Tag};

use crate::cite::index::{FootnoteLabels, IndexBuilder};
use crate::parse::AWAITED_DESTINATION;
use crate::sort::sort_by;

/// What a rendering takes as defined.
#[derive(Debug, Clone, Copy)]
pub(super) enum Reading {
    /// The message goes on: every plain footnote label the text names, and
    /// the labels of its full references.
    Provisional,
    /// The message is over: only what the text defines.
    Final,
    /// Code, which holds no footnotes: no stand-ins.
    Code,
}

/// The longest label the parser reads, in bytes (1,000 characters).
const LONGEST_LABEL: usize = 4000;

/// Stand-in definitions, to parse before a text (and its link reference
/// definitions): each ends with a blank line, then a thematic break ends
/// the last, so that the text parses as it would at the document's start.
/// (After the text, they would change its last line: code and HTML blocks
/// keep their line endings.)
pub(super) struct StandIns {
    prefix: String,
    /// The text names a footnote label (plain or not): it reads
    /// provisionally.
    named: bool,
    /// The footnote labels its events referenced and defined, and
    /// whether it names one that gets no stand-in (see [`Label::Unplain`]).
    labels: RefCell<FootnoteLabels>,
    /// The text has links whose definitions are still to come.
    awaited_links: Cell<bool>,
}

impl StandIns {
    /// The stand-ins that `reading` asks for before `text`.
    pub(super) fn new(text: &str, reading: Reading) -> StandIns {
        let (mut named, mut unplain) = (Vec::new(), false);
        for label in labels(text, reading) {
            match label {
                Label::Plain(label) => named.push(label),
                Label::Unplain => unplain = true,
                Label::None => {}
            }
        }
        // (Once each; their order does not matter.)
        sort_by(&mut named, |a, b| a.cmp(b));
        named.dedup();
        let mut prefix = String::new();
        for label in &named {
            for piece in ["[^", label, "]: x\n\n"] {
                prefix.push_str(piece);
            }
        }
        if !named.is_empty() {
            prefix.push_str("***\n");
        }
        StandIns::with(prefix, !named.is_empty() || unplain, unplain)
    }

    /// What a text read without the parser records as [`StandIns::new`]
    /// does (whether it names a footnote label), with no stand-ins to
    /// write: its events are not parsed after any.
    pub(super) fn for_events(text: &str, reading: Reading) -> StandIns {
        let (mut named, mut unplain) = (false, false);
        for label in labels(text, reading) {
            match label {
                Label::Plain(_) => named = true,
                Label::Unplain => (named, unplain) = (true, true),
                Label::None => {}
            }
        }
        StandIns::with(String::new(), named, unplain)
    }

    /// Stand-ins of `prefix`, for a text that names a footnote label
    /// (`named`), one of them given none (`unplain`).
    fn with(prefix: String, named: bool, unplain: bool) -> StandIns {
        StandIns {
            prefix,
            named,
            labels: RefCell::new(FootnoteLabels {
                unplain,
                ..FootnoteLabels::default()
            }),
            awaited_links: Cell::new(false),
        }
    }

    /// The stand-ins, to parse first.
    pub(super) fn as_str(&self) -> &str {
        &self.prefix
    }

    /// Whether the event at `range` is the text's (else a stand-in's).
    /// Notes the footnote labels the text's events reference and define
    /// (all of them: a reference inside a citation's label never reaches
    /// the writer, which writes it as text).
    pub(super) fn keep(&self, event: &Event<'_>, range: &Range<usize>) -> bool {
        let kept = range.start >= self.prefix.len();
        match event {
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. })
                if **dest_url == *AWAITED_DESTINATION =>
            {
                self.awaited_links.set(true);
            }
            Event::FootnoteReference(label) if kept => {
                self.labels.borrow_mut().referenced.push(label.to_string());
            }
            Event::Start(Tag::FootnoteDefinition(label)) if kept => {
                self.labels.borrow_mut().defined.push(label.to_string());
            }
            _ => {}
        }
        kept
    }

    /// Records in a part's citation state what it took for granted (call
    /// once its events are all read): whether it named a footnote, and
    /// whether it has links awaiting their definitions.
    pub(super) fn record(&self, index: &mut IndexBuilder) {
        index.awaited_links |= self.awaited_links.get();
        let footnotes = index.footnotes_mut();
        footnotes.named |= self.named;
        footnotes.note(self.labels.take());
    }
}

/// What follows a `[^`.
enum Label<'t> {
    /// A label the parser reads as written, up to its `]`.
    Plain(&'t str),
    /// One it reads in its own way (whitespace, escapes).
    Unplain,
    /// None: no `]` before a `[` or the longest label.
    None,
}

/// The label after each `[^` in `text`, when `reading` gives stand-ins
/// (none otherwise).
fn labels(text: &str, reading: Reading) -> impl Iterator<Item = Label<'_>> {
    let provisional = matches!(reading, Reading::Provisional);
    provisional
        .then(|| memchr::memmem::find_iter(text.as_bytes(), b"[^"))
        .into_iter()
        .flatten()
        .map(move |at| label_at(&text[at + 2..]))
}

/// The label after a `[^` that `rest` follows.
fn label_at(rest: &str) -> Label<'_> {
    let window = &rest.as_bytes()[..rest.len().min(LONGEST_LABEL + 1)];
    let Some(end) = memchr::memchr2(b']', b'[', window) else {
        return Label::None;
    };
    if window[end] == b'[' {
        return Label::None;
    }
    let label = &rest[..end];
    let plain = !label.is_empty()
        && !label
            .bytes()
            .any(|b| b.is_ascii_whitespace() || b == b'\\' || b.is_ascii_control());
    if plain {
        Label::Plain(label)
    } else {
        Label::Unplain
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stand_ins_for_events_name_what_the_stand_ins_name() {
        for text in [
            "a [^1] b",
            "a [^x y] b",
            "[^1]: note",
            "a [^] b",
            "a [^open",
            "a [1]",
            "",
        ] {
            for reading in [Reading::Provisional, Reading::Final, Reading::Code] {
                let (written, for_events) = (
                    StandIns::new(text, reading),
                    StandIns::for_events(text, reading),
                );
                assert_eq!(written.named, for_events.named, "{text:?} {reading:?}");
                assert_eq!(
                    written.labels.borrow().unplain,
                    for_events.labels.borrow().unplain,
                    "{text:?} {reading:?}"
                );
                assert_eq!(for_events.as_str(), "");
            }
        }
    }

    #[test]
    fn labels_are_plain_when_read_as_written() {
        assert!(matches!(label_at("1] x"), Label::Plain("1")));
        assert!(matches!(label_at("note-2]: y"), Label::Plain("note-2")));
        assert!(matches!(label_at("a b] x"), Label::Unplain));
        assert!(matches!(label_at("a\\]b] x"), Label::Unplain));
        assert!(matches!(label_at("] x"), Label::Unplain));
        assert!(matches!(label_at("a [b] x"), Label::None));
        assert!(matches!(label_at("open"), Label::None));
    }
}
