//! Writing `[n]` markers into markdown at provider-given positions.
//!
//! Providers that give positions (Gemini, OpenAI, Anthropic) know the text
//! they generated, not its markdown structure: an offset may fall inside a
//! word, a code span, a link, a bare URL or an existing marker, and several
//! citations often end at the same place. [`apply`] moves every insertion
//! forward to the nearest position where a marker renders as a citation and
//! breaks nothing, merges the numbers that meet there (`[1, 3]`), and writes
//! the markers — or, for an [`Edit`] with a non-empty range, replaces that
//! span (the model's own inline link, for OpenAI) with the marker.
//!
//! Markers are written without a space before them (`blue.[1]`), since
//! citemark renders them as superscripts; the markdown structure comes from
//! the same parser [`render`](crate::render) uses, so "inside a link" means
//! exactly what the renderer will see.

use std::ops::Range;

use pulldown_cmark::{Event, Tag};

use crate::autolink::find_autolinks;
use crate::cite::marker::{find_markers, Spellings};
use crate::parse::{parse, unix_line_endings};
use crate::sort::sort_by;

/// One citation to write: an insertion point (an empty `range`) or a span to
/// replace, and the source numbers its marker lists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Edit {
    pub(crate) range: Range<usize>,
    pub(crate) numbers: Vec<u32>,
}

impl Edit {
    /// A marker for `numbers` at byte offset `at`.
    pub(crate) fn insert(at: usize, numbers: Vec<u32>) -> Self {
        Edit {
            range: at..at,
            numbers,
        }
    }
}

/// `markdown` with every edit applied (see the module docs). Offsets past the
/// end are clamped to it; callers validate offsets against the provider's
/// text and warn before they get here.
pub(crate) fn apply(markdown: &str, edits: Vec<Edit>) -> String {
    if edits.is_empty() {
        return markdown.to_owned();
    }
    let markdown = unix_line_endings(markdown);
    let markdown = markdown.as_ref();
    let layout = Layout::of(markdown);
    let mut placed: Vec<(Range<usize>, Vec<u32>)> = Vec::with_capacity(edits.len());
    for edit in edits {
        let range = if edit.range.is_empty() || !layout.can_replace(&edit.range) {
            let at = layout.snap(edit.range.end.min(markdown.len()));
            at..at
        } else {
            edit.range
        };
        placed.push((range, edit.numbers));
    }
    sort_by(&mut placed, |(a, _), (b, _)| {
        (a.start, a.end).cmp(&(b.start, b.end))
    });
    let mut out = String::with_capacity(markdown.len() + 8 * placed.len());
    let mut copied = 0;
    let mut pending: Option<(usize, Vec<u32>)> = None;
    for (range, numbers) in placed {
        // A span overlapping one already replaced becomes part of its marker.
        let start = range.start.max(copied);
        if let Some((at, merged)) = &mut pending {
            if *at == start || range.start < copied {
                merged.extend(numbers);
                copied = copied.max(range.end);
                continue;
            }
        }
        if let Some((_, merged)) = pending.take() {
            write_marker(&mut out, &markdown[copied..], merged);
        }
        out.push_str(markdown.get(copied..start).unwrap_or_default());
        copied = range.end.max(start);
        pending = Some((start, numbers));
    }
    if let Some((_, merged)) = pending {
        write_marker(&mut out, &markdown[copied..], merged);
    }
    out.push_str(markdown.get(copied..).unwrap_or_default());
    out
}

/// Appends `[a, b]` for `numbers` (sorted, deduplicated) to `out`, which
/// `rest` will follow, with a space where the neighbours would otherwise
/// change its meaning.
fn write_marker(out: &mut String, rest: &str, mut numbers: Vec<u32>) {
    sort_by(&mut numbers, u32::cmp);
    numbers.dedup();
    if numbers.is_empty() {
        return;
    }
    let at_line_start = out.is_empty() || out.ends_with('\n');
    // `![1]` is image syntax and `\[1]` an escaped bracket.
    if out.ends_with(['!', '\\', '[']) {
        out.push(' ');
    }
    out.push('[');
    for (i, n) in numbers.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&n.to_string());
    }
    out.push(']');
    if at_line_start {
        // A line of its own (after a code block): end it, so that it stays
        // a paragraph apart from what follows the blank line.
        out.push('\n');
    } else if rest.starts_with(['(', '[']) {
        // `[1](x)` would be a link and `[1][x]` a reference.
        out.push(' ');
    }
}

/// A letter or digit of a script that separates words with spaces: CJK
/// text has no spaces, so a marker may go between any two of its characters.
fn is_word_char(c: char) -> bool {
    c.is_alphanumeric()
        && !matches!(c,
            '\u{2E80}'..='\u{9FFF}'     // CJK radicals, kana, ideographs
            | '\u{F900}'..='\u{FAFF}'   // compatibility ideographs
            | '\u{FF00}'..='\u{FFEF}'   // full-width forms
            | '\u{20000}'..='\u{3FFFF}' // ideograph extensions
        )
}

/// Where a marker must not go, from one parse of the markdown.
struct Layout<'m> {
    markdown: &'m str,
    /// Code, links, images, raw HTML, bare URLs and existing markers: a
    /// marker goes after them, never inside. Sorted by start.
    atomic: Vec<Range<usize>>,
    /// Tables: a marker after a row's closing `|` would be a cell of its own.
    tables: Vec<Range<usize>>,
    /// Code and HTML blocks: a marker goes on the line after them (on their
    /// closing fence's line it would reopen the block). Sorted by start.
    blocks: Vec<Range<usize>>,
}

impl<'m> Layout<'m> {
    fn of(markdown: &'m str) -> Self {
        let mut atomic = Vec::new();
        let mut tables = Vec::new();
        let mut blocks = Vec::new();
        // pulldown-cmark splits text at brackets and entities: markers and
        // URLs are found in each run of contiguous, verbatim text.
        let mut run = 0..0;
        for (event, range) in parse(markdown) {
            match event {
                Event::Text(text) if markdown.get(range.clone()) == Some(&*text) => {
                    if range.start != run.end {
                        atomic.extend(Self::atomic_in_text(markdown, run));
                        run = range.start..range.start;
                    }
                    run.end = range.end;
                    continue;
                }
                Event::Start(Tag::CodeBlock(_) | Tag::HtmlBlock) => blocks.push(range),
                Event::Start(Tag::Link { .. } | Tag::Image { .. })
                | Event::Code(_)
                | Event::Html(_)
                | Event::InlineHtml(_)
                | Event::FootnoteReference(_) => atomic.push(range),
                Event::Start(Tag::Table(_)) => tables.push(range),
                _ => {}
            }
            atomic.extend(Self::atomic_in_text(
                markdown,
                std::mem::replace(&mut run, 0..0),
            ));
        }
        atomic.extend(Self::atomic_in_text(markdown, run));
        sort_by(&mut atomic, |a, b| a.start.cmp(&b.start));
        Layout {
            markdown,
            atomic,
            tables,
            blocks,
        }
    }

    /// Bare URLs and existing markers in the text at `run`.
    fn atomic_in_text(markdown: &str, run: Range<usize>) -> Vec<Range<usize>> {
        let base = run.start;
        let Some(text) = markdown.get(run).filter(|t| !t.is_empty()) else {
            return Vec::new();
        };
        let urls = find_autolinks(text).into_iter().map(|link| link.range);
        let markers = find_markers(text, Spellings::PLAIN).map(|marker| marker.range);
        urls.chain(markers)
            .map(|r| base + r.start..base + r.end)
            .collect()
    }

    /// The atomic range strictly around `at`, if any.
    fn atomic_around(&self, at: usize) -> Option<&Range<usize>> {
        let candidates = &self.atomic[..self.atomic.partition_point(|r| r.start < at)];
        candidates.iter().find(|r| at < r.end)
    }

    /// Whether replacing `range` leaves every atomic range whole.
    fn can_replace(&self, range: &Range<usize>) -> bool {
        self.markdown.is_char_boundary(range.start)
            && self.markdown.is_char_boundary(range.end)
            && range.end <= self.markdown.len()
            && self.atomic_around(range.start).is_none()
            && self.atomic_around(range.end).is_none()
    }

    /// The nearest position at or after `at` where a marker may go, then
    /// back before any whitespace (so it hugs the cited text).
    fn snap(&self, mut at: usize) -> usize {
        let text = self.markdown;
        if let Some(block) = self.blocks.iter().find(|b| b.start < at && at <= b.end) {
            // The next line start: the marker becomes a line of its own.
            return match text.get(block.end..).and_then(|rest| rest.find('\n')) {
                Some(0) | None if text[..block.end].ends_with('\n') => block.end,
                Some(newline) => block.end + newline + 1,
                None => text.len(),
            };
        }
        loop {
            while !text.is_char_boundary(at) {
                at += 1;
            }
            if let Some(range) = self.atomic_around(at) {
                at = range.end;
                continue;
            }
            let before = text[..at].chars().next_back();
            let after = text[at..].chars().next();
            if before.is_some_and(is_word_char) && after.is_some_and(is_word_char) {
                at += text[at..]
                    .find(|c: char| !is_word_char(c))
                    .unwrap_or(text.len() - at);
                continue;
            }
            break;
        }
        let hug = text[..at].trim_end().len();
        if self.atomic_around(hug).is_none() && !self.blocks.iter().any(|b| b.end == hug) {
            at = hug;
        }
        if self.tables.iter().any(|t| t.start < at && at <= t.end) {
            at = self.inside_last_cell(at);
        }
        at
    }

    /// For a position right after a table row's closing `|`: before it.
    fn inside_last_cell(&self, at: usize) -> usize {
        let line = &self.markdown[..at];
        match line.strip_suffix('|') {
            Some(rest) if !rest.ends_with('\\') => rest.trim_end().len(),
            _ => at,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn insert_at(markdown: &str, at: &[(usize, &[u32])]) -> String {
        let edits = at
            .iter()
            .map(|(offset, numbers)| Edit::insert(*offset, numbers.to_vec()))
            .collect();
        apply(markdown, edits)
    }

    #[test]
    fn marker_goes_where_asked_when_that_is_safe() {
        assert_eq!(
            insert_at("Sky is blue. Grass.", &[(12, &[1])]),
            "Sky is blue.[1] Grass."
        );
        assert_eq!(insert_at("Sky is blue", &[(11, &[2])]), "Sky is blue[2]");
    }

    #[test]
    fn same_position_merges_sorted_and_deduplicated() {
        assert_eq!(
            insert_at("A. B.", &[(2, &[3]), (2, &[1, 3]), (5, &[2])]),
            "A.[1, 3] B.[2]"
        );
    }

    #[test]
    fn never_inside_a_word_or_a_character() {
        // Offset 3 is inside "blue"; 9 is inside the two-byte "é".
        assert_eq!(insert_at("Sky blue sky", &[(5, &[1])]), "Sky blue[1] sky");
        assert_eq!(insert_at("Un café noir", &[(7, &[1])]), "Un café[1] noir");
        assert_eq!(
            insert_at("東京は大きい。", &[(4, &[1])]),
            "東京[1]は大きい。"
        );
    }

    #[test]
    fn never_inside_code_links_urls_or_markers() {
        assert_eq!(
            insert_at("Run `cargo test` now", &[(8, &[1])]),
            "Run `cargo test`[1] now"
        );
        assert_eq!(
            insert_at("See [the docs](https://x.example/a) here", &[(20, &[1])]),
            "See [the docs](https://x.example/a)[1] here"
        );
        assert_eq!(
            insert_at("At https://x.example/a/b today", &[(15, &[1])]),
            "At https://x.example/a/b[1] today"
        );
        assert_eq!(
            insert_at("Known [12] fact", &[(8, &[3])]),
            "Known [12][3] fact"
        );
        assert_eq!(
            insert_at("Text\n\n```\ncode\n```\n\nMore", &[(12, &[1])]),
            "Text\n\n```\ncode\n```\n[1]\n\nMore"
        );
    }

    #[test]
    fn marker_hugs_the_text_before_trailing_whitespace() {
        assert_eq!(insert_at("One.\n\nTwo.", &[(6, &[1])]), "One.[1]\n\nTwo.");
        assert_eq!(insert_at("One.  ", &[(6, &[1])]), "One.[1]  ");
    }

    #[test]
    fn table_rows_keep_their_cells() {
        let table = "| a | b |\n|---|---|\n| 1 | 2 |\n";
        assert_eq!(
            insert_at(table, &[(29, &[1])]),
            "| a | b |\n|---|---|\n| 1 | 2[1] |\n"
        );
    }

    #[test]
    fn neighbours_that_would_change_the_syntax_get_a_space() {
        assert_eq!(insert_at("Wow!(x)", &[(4, &[1])]), "Wow! [1] (x)");
    }

    #[test]
    fn replacements_swap_the_span_for_the_marker() {
        let text = "Popular ([example.com](https://example.com/)). Yes.";
        let edits = vec![Edit {
            range: 8..45,
            numbers: vec![1],
        }];
        assert_eq!(apply(text, edits), "Popular [1]. Yes.");
    }

    #[test]
    fn a_replacement_cutting_into_code_becomes_an_insertion() {
        let edits = vec![Edit {
            range: 2..6,
            numbers: vec![1],
        }];
        assert_eq!(apply("A `code` b", edits), "A `code`[1] b");
    }

    #[test]
    fn offsets_past_the_end_are_clamped() {
        assert_eq!(insert_at("Short.", &[(99, &[1])]), "Short.[1]");
    }
}
