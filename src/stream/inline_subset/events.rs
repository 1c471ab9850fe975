//! The events the parser would give for a line of the inline subset that
//! also holds brackets the citation pipeline reads: citation markers,
//! footnote references, full references awaiting their definitions; and
//! for a message's closing footnote definitions, one a line. The stream
//! hands them to the citation pipeline as it hands the parser's (see the
//! parent module and docs/streaming.md, "Its second part").

use std::ops::Range;

use pulldown_cmark::{CowStr, Event, LinkType, Tag, TagEnd};

use super::{code_content, paragraph_lines, parse_line, Brackets, LineBlock, Piece};
use crate::parse::AWAITED_DESTINATION;

/// The parser's events for `text`, as [`block`](super::block) takes it
/// but for the `brackets` it may hold, or for footnote definitions one a
/// line, with their ranges in `text`: the events the stream hands the
/// citation pipeline instead of the parser's (for text that `block`
/// cannot render: with brackets). `None` for other text.
pub(in crate::stream) fn block_events(
    text: &str,
    brackets: Brackets,
) -> Option<Vec<(Event<'_>, Range<usize>)>> {
    if brackets.footnotes && text.starts_with("[^") {
        return definitions_events(text, brackets);
    }
    let line = text.strip_suffix('\n').unwrap_or(text);
    // The block around the line, and the one inside it, with their
    // ranges: a list item's is the whole line, as its list's; a quote's
    // paragraph starts after its marker.
    let whole = 0..text.len();
    let (kind, content_at) = LineBlock::of(line);
    let (outer, inner) = match kind {
        LineBlock::Paragraph => (Tag::Paragraph, None),
        LineBlock::Item(start) => (Tag::List(start), Some((Tag::Item, whole.clone()))),
        LineBlock::Quote => (Tag::BlockQuote(None), Some((Tag::Paragraph, 2..text.len()))),
    };
    let mut events = Vec::with_capacity(16);
    events.push((Event::Start(outer.clone()), whole.clone()));
    if let Some((tag, range)) = &inner {
        events.push((Event::Start(tag.clone()), range.clone()));
    }
    push_line_events(&mut events, &line[content_at..], content_at, brackets)?;
    if let Some((tag, range)) = inner {
        events.push((Event::End(tag.to_end()), range));
    }
    events.push((Event::End(outer.to_end()), whole));
    Some(events)
}

/// [`block_events`] for footnote definitions, one a line (`[^x]: text`),
/// as a message's end has them.
fn definitions_events(text: &str, brackets: Brackets) -> Option<Vec<(Event<'_>, Range<usize>)>> {
    let mut events = Vec::new();
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        let whole = start..start + line.len();
        let rest = line.strip_prefix("[^")?;
        let label = &rest[..rest.find("]:")?];
        if label.is_empty() || !label.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return None;
        }
        let content = rest[label.len() + 2..].trim_start_matches(' ');
        let content_at = whole.end - content.len();
        let paragraph = content_at..whole.end;
        let label = CowStr::Borrowed(label);
        events.push((Event::Start(Tag::FootnoteDefinition(label)), whole.clone()));
        events.push((Event::Start(Tag::Paragraph), paragraph.clone()));
        let content = content.strip_suffix('\n').unwrap_or(content);
        push_line_events(&mut events, content, content_at, brackets)?;
        events.push((Event::End(TagEnd::Paragraph), paragraph));
        events.push((Event::End(TagEnd::FootnoteDefinition), whole.clone()));
        start = whole.end;
    }
    (!events.is_empty()).then_some(events)
}

/// Pushes the parser's inline events for `line`, one line within the
/// subset and `brackets` that starts no block, to `events`, their ranges
/// `offset` on; `None` (with some pushed) when it is not.
pub(in crate::stream) fn push_line_events<'t>(
    events: &mut Vec<(Event<'t>, Range<usize>)>,
    line: &'t str,
    offset: usize,
    brackets: Brackets,
) -> Option<()> {
    let (line, pieces) = parse_line(line, brackets)?;
    push_inline_events(events, line, offset, &pieces)
}

/// Pushes the parser's inline events for a paragraph's `lines` to
/// `events`, each line's content (without its line break) and where it
/// starts, with a soft break at each line break between them, when the
/// subset reads them as the paragraph's (see
/// [`paragraph_lines`](super::paragraph_lines)); `None` (with some pushed)
/// otherwise.
pub(in crate::stream) fn push_lines_events<'t>(
    events: &mut Vec<(Event<'t>, Range<usize>)>,
    lines: &[(&'t str, usize)],
    brackets: Brackets,
) -> Option<()> {
    let parsed = paragraph_lines(lines.iter().map(|&(line, _)| line), brackets)?;
    let mut line_break = None;
    for ((line, pieces), &(content, offset)) in parsed.iter().zip(lines) {
        if let Some(at) = line_break {
            events.push((Event::SoftBreak, at..at + 1));
        }
        push_inline_events(events, line, offset, pieces)?;
        line_break = Some(offset + content.len());
    }
    Some(())
}

/// Pushes the parser's inline events for `line`'s `pieces` to `events`,
/// their ranges `offset` on. Each emphasis span's start and end share
/// the range from its opening delimiters to its closing ones: a run's
/// delimiters are those it closes with, its literal ones, then those it
/// opens with. `None` if the spans do not nest (which process emphasis
/// never leaves).
fn push_inline_events<'t>(
    events: &mut Vec<(Event<'t>, Range<usize>)>,
    line: &'t str,
    offset: usize,
    pieces: &[Piece],
) -> Option<()> {
    let text = |start: usize, end: usize| {
        (
            Event::Text(CowStr::Borrowed(&line[start..end])),
            offset + start..offset + end,
        )
    };
    // The open spans' start events, innermost last.
    let mut open = Vec::new();
    for piece in pieces {
        match *piece {
            Piece::Text { start, end } => events.push(text(start, end)),
            Piece::Code { start, end, ticks } => {
                let code = CowStr::Borrowed(code_content(&line[start..end]));
                events.push((
                    Event::Code(code),
                    offset + start - ticks..offset + end + ticks,
                ));
            }
            Piece::Bracket { at } => events.push(text(at, at + 1)),
            Piece::Reference {
                start,
                end,
                text: (words_start, words_end),
            } => {
                // (As the stream's parser reads one: a link to a
                // definition still to come, its label as written.)
                let link = Tag::Link {
                    link_type: LinkType::ReferenceUnknown,
                    dest_url: CowStr::Borrowed(AWAITED_DESTINATION),
                    title: CowStr::Borrowed(""),
                    id: CowStr::Borrowed(&line[words_end + 2..end - 1]),
                };
                let range = offset + start..offset + end;
                events.push((Event::Start(link), range.clone()));
                events.push(text(words_start, words_end));
                events.push((Event::End(TagEnd::Link), range));
            }
            Piece::Footnote { start, end } => {
                let label = CowStr::Borrowed(&line[start + 2..end - 1]);
                events.push((
                    Event::FootnoteReference(label),
                    offset + start..offset + end,
                ));
            }
            Piece::Run(ref run) => {
                let mut edge = offset + run.start;
                for i in 0..run.closes.count {
                    let strong = run.closes.strong >> i & 1 == 1;
                    edge += if strong { 2 } else { 1 };
                    let opened: usize = open.pop()?;
                    let range = events[opened].1.start..edge;
                    events[opened].1 = range.clone();
                    let end = if strong {
                        TagEnd::Strong
                    } else {
                        TagEnd::Emphasis
                    };
                    events.push((Event::End(end), range));
                }
                let literal = edge - offset;
                if run.left > 0 {
                    events.push(text(literal, literal + run.left));
                }
                edge += run.left;
                for i in 0..run.opens.count {
                    let strong = run.opens.strong >> i & 1 == 1;
                    let tag = if strong { Tag::Strong } else { Tag::Emphasis };
                    open.push(events.len());
                    events.push((Event::Start(tag), edge..edge));
                    edge += if strong { 2 } else { 1 };
                }
            }
        }
    }
    open.is_empty().then_some(())
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;
    use std::ops::Range;

    use pulldown_cmark::{CowStr, Event, Tag};

    use super::block_events;
    use crate::stream::inline_subset::Brackets;
    use crate::stream::provisional::{Reading, StandIns};
    use crate::Options;
    use proptest::prelude::*;

    /// `events` with each run of text events as one (the citation
    /// pipeline reads them so; where the parser splits a run varies).
    fn merged(events: Vec<(Event<'_>, Range<usize>)>) -> Vec<(Event<'_>, Range<usize>)> {
        let mut out: Vec<(Event<'_>, Range<usize>)> = Vec::new();
        for (event, range) in events {
            if let (Some((Event::Text(last), last_range)), Event::Text(text)) =
                (out.last_mut(), &event)
            {
                if last_range.end == range.start {
                    *last = CowStr::from([&**last, &**text].concat());
                    last_range.end = range.end;
                    continue;
                }
            }
            out.push((event, range));
        }
        out
    }

    /// `block_events(text)`, when it reads `text`, gives the parser's
    /// events (their runs of text merged): read after the stand-in
    /// definitions a stream's provisional reading puts first, so that its
    /// footnote references are references.
    fn same_events_as_parser(text: &str) {
        let Some(ours) = block_events(text, ALL) else {
            return;
        };
        let stand_ins = StandIns::new(text, Reading::Provisional);
        let base = stand_ins.as_str().len();
        let full = [stand_ins.as_str(), text].concat();
        // (The stream's parser: its broken-link callback reads a full
        // reference as awaiting its definition, and notes where.)
        let stream = crate::Stream::new(Options::default());
        let (awaited, by_reference) = (Cell::new(None), Cell::new(false));
        let parsed: Vec<_> = stream
            .context()
            .parse(&full, base, &awaited, &by_reference)
            .filter(|(_, range)| range.start >= base)
            .map(|(event, range)| (event, range.start - base..range.end - base))
            .collect();
        let first_link = ours.iter().find_map(|(event, range)| {
            matches!(event, Event::Start(Tag::Link { .. })).then_some(range.start)
        });
        assert_eq!(merged(ours), merged(parsed), "{text:?}");
        assert_eq!(first_link, awaited.get().map(|at| at - base), "{text:?}");
    }

    /// Every bracket the subset reads.
    const ALL: Brackets = Brackets {
        markers: true,
        footnotes: true,
        references: true,
    };

    #[test]
    fn reads_markers_footnotes_and_references_as_the_parser_does() {
        for text in [
            "x [1]. y",
            "x **a [2]** b\n",
            "x [1][^1]. y",
            "- x [1]",
            "> x *[1]*\n",
            "x [1, 3] y",
            "The rate fell[^n1] **again** [2]",
            "a ***[1]*** b",
            "a `[1]` in code",
            "[^74]: The a **b** [1].\n[^75]: Th",
            "[^a]: x [^a] y\n[^b]: c `d` [3]\n",
            "See [the FX table][fx] for the details.",
            "x **[last quarter's review][q2]** and [a b][c-d] [1]",
            "- see [guide][g]\n",
        ] {
            assert!(block_events(text, ALL).is_some(), "{text:?}");
            same_events_as_parser(text);
        }
    }

    #[test]
    fn leaves_other_brackets_to_the_parser() {
        for text in [
            "a [citation needed]",
            "a [1](u)",
            "a [1][2]",
            "a [1]: b",
            "a [^x y]",
            "a ]",
            "a [1",
            "[^1]: a\nlazy",
            "[^1]: a\n\n[^2]: b",
            "[^1]:",
            "a [b *c*][g]",
            "a [b][g][h]",
            "a [b][ g]",
            "a [b][g](u)",
            "a [b][]",
            "a [1][g]",
            "a [b][1]",
            "a [b][2, 3]",
        ] {
            assert_eq!(block_events(text, ALL), None, "{text:?}");
        }
        let only = |markers, footnotes, references| Brackets {
            markers,
            footnotes,
            references,
        };
        assert_eq!(block_events("a [^1]", only(true, false, true)), None);
        assert_eq!(block_events("[^1]: a", only(true, false, true)), None);
        assert_eq!(block_events("a [1]", only(false, true, true)), None);
        assert_eq!(block_events("a [b][g]", only(true, true, false)), None);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]
        #[test]
        fn reads_lines_with_brackets_as_the_parser_does(
            start in "(- |> |\\* |1\\. |7\\) )?",
            first in "[ab]",
            text in "([ab *_`.\u{E000}é€中。「」，-]|\\[1\\]|\\[2, 3\\]|\\[\\^a\\]|\\[\\^b1\\]|\\[a b\\]\\[g\\]|\\[b\\]\\[c-1\\]|\\[|\\]|\\^){0,16}",
            end in "\n?",
        ) {
            same_events_as_parser(&[start, first, text, end].concat());
        }

        #[test]
        fn reads_footnote_definitions_as_the_parser_does(
            lines in proptest::collection::vec(
                "\\[\\^(a|b1)\\]: {0,2}[ab]([ab *_`.]|\\[1\\]|\\[\\^a\\]){0,10}",
                1..4,
            ),
            end in "\n?",
        ) {
            same_events_as_parser(&[lines.join("\n").as_str(), end.as_str()].concat());
        }
    }
}
