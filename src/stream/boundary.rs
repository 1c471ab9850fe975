//! Where a streamed message can be cut: the places after which nothing
//! still to come can change the blocks before.
//!
//! A cut sits at the start of a line that follows a blank line and is
//! itself complete (its first line decides what a block is: a line still
//! being typed may turn from `#` into `#x`, or `1` into `1.` continuing a
//! list above). Whether the blocks before it are really closed is then
//! read off the parser: a block that goes on past the cut (a list item's
//! continuation, a fence, an HTML block, a footnote) straddles it.

use std::cell::Cell;
use std::ops::Range;

use pulldown_cmark::Event;

use super::preview::item_marker;
use super::FindLast;
use crate::parse::{is_inline_end, is_inline_tag};

/// The last candidate cut in `text`: the start of a complete non-blank
/// line that follows a blank line, or that starts a footnote definition,
/// or a link reference definition after a line that starts one
/// (definitions written one per line, as models and READMEs write them at
/// the end, follow each other with no blank line; a link reference
/// definition is one only where no paragraph goes on, which committing
/// checks); none before the line starting at `from` (its lines were looked
/// at before).
pub(super) fn last_cut(text: &str, from: usize) -> Option<usize> {
    let complete = text.find_last(b'\n')? + 1;
    let mut line_end = complete;
    let mut later_line_start: Option<usize> = None;
    // Walk complete lines backwards: (start of a non-blank line, blank line before it).
    loop {
        let line_start = text[..line_end.saturating_sub(1)]
            .find_last(b'\n')
            .map_or(0, |i| i + 1);
        let blank = is_blank(&text[line_start..line_end]);
        let line = &text[line_start..line_end];
        if line_start > 0 && starts_footnote_definition(line) {
            return Some(line_start);
        }
        if line_start > 0 && starts_link_definition(line) {
            let before = &text[..line_start - 1];
            let previous = &before[before.find_last(b'\n').map_or(0, |i| i + 1)..];
            if starts_link_definition(previous) || starts_footnote_definition(previous) {
                return Some(line_start);
            }
        }
        if blank {
            if let Some(start) = later_line_start {
                return Some(start);
            }
        } else {
            later_line_start = Some(line_start);
        }
        if line_start <= from {
            return None;
        }
        line_end = line_start;
    }
}

/// Whether `line` starts a footnote definition at the margin: `[^label]:`.
fn starts_footnote_definition(line: &str) -> bool {
    line.strip_prefix("[^")
        .and_then(|rest| rest.split_once("]:"))
        .is_some_and(|(label, _)| !label.is_empty() && !label.contains(['[', ']', ' ', '\t']))
}

/// Whether `line` starts a link reference definition at the margin:
/// `[label]:`, the label without brackets (nor a footnote's `^`).
fn starts_link_definition(line: &str) -> bool {
    line.strip_prefix('[')
        .filter(|rest| !rest.starts_with('^'))
        .and_then(|rest| rest.split_once("]:"))
        .is_some_and(|(label, _)| !label.trim().is_empty() && !label.contains(['[', ']']))
}

/// A cut at the start of the last line, still being typed, when it
/// follows a blank line at the margin and already starts a block of its
/// own: nothing before a blank line continues into such a line but a list
/// (through an item) or indented text — and a fence or an HTML block,
/// which are caught as straddling.
///
/// `last_line`: where the last line of `text` starts.
pub(super) fn early_cut(text: &str, last_line: usize) -> Option<usize> {
    if last_line == 0 || !starts_own_block(&text[last_line..]) {
        return None;
    }
    let before = &text[..last_line - 1];
    let blank_start = before.find_last(b'\n').map_or(0, |i| i + 1);
    let has_blocks_before = !is_blank(&before[..blank_start]);
    (is_blank(&before[blank_start..]) && has_blocks_before).then_some(last_line)
}

/// How many bytes of a line [`early_cut`] looks at: a list item's marker
/// is at most 9 digits, `.` or `)`, and the byte after it. (A line still
/// undecided by then, such as a longer number, waits for its newline.)
pub(super) const DECIDED_BY: usize = 12;

/// Whether `line`, being typed, is decided by its start, so that typing on
/// it changes what it is no more: past its first [`DECIDED_BY`] bytes, or
/// when its text, after its indentation and the markers of quotes, starts
/// with a letter, of any script, a `[` or a backtick and a letter (a
/// paragraph's line or a lazy one, as its first character decided: no
/// block starts with either, but a link reference definition, which shows
/// nothing while its label is typed; a fence's backticks are three), or a
/// list item's marker, its space and such a character do
/// (`  - The`, a nested item's, whose letters after it go on its text), or
/// an ATX heading's `#`s, its spaces and one (`## Usage`: the rest of the
/// line is the heading's text, whatever it holds). (What typing may still
/// commit, the items before a list's next one, is the stream's own check,
/// [`Stream::line_commit`](super::Stream).)
pub(super) fn line_is_decided(line: &str) -> bool {
    if line.len() >= DECIDED_BY {
        return true;
    }
    // (Spaces before a letter decide nothing more: a paragraph's line goes
    // on with it, and after a blank line the indentation is all typed.)
    let mut text = line.trim_start_matches(' ');
    while let Some(quoted) = text.strip_prefix('>') {
        text = quoted.trim_start_matches(' ');
    }
    let decides = |text: &str| {
        text.starts_with(|c: char| c.is_alphabetic() || c == '[')
            || text
                .strip_prefix('`')
                .is_some_and(|code| code.starts_with(char::is_alphabetic))
    };
    let heading = || {
        let hashes = text.bytes().take_while(|&b| b == b'#').count();
        let rest = &text[hashes..];
        let content = rest.trim_start_matches([' ', '\t']);
        (1..=6).contains(&hashes) && content.len() < rest.len() && decides(content)
    };
    decides(text)
        || heading()
        || item_marker(text.trim_start_matches(' ')).is_some_and(|(_, rest)| {
            let content = rest.trim_start_matches(' ');
            (1..=4).contains(&(rest.len() - content.len())) && decides(content)
        })
}

/// Whether a line being typed at the margin is past the point where it
/// could still be a list item: `-x` or `3.5%`, not `-`, `- ` or `1.`. Nor
/// may it start with `[`: a link reference definition half typed
/// (`[a]: /` of `[a]: /docs`) would change the links before it.
fn starts_own_block(line: &str) -> bool {
    let bytes = line.as_bytes();
    let then_not_space = |at: usize| bytes.get(at).is_some_and(|b| !b.is_ascii_whitespace());
    match bytes.first() {
        None | Some(b' ' | b'\t' | b'\r' | b'[') => false,
        Some(b'-' | b'*' | b'+') => then_not_space(1),
        Some(b'0'..=b'9') => {
            let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
            match bytes.get(digits) {
                None => false,
                Some(b'.' | b')') => then_not_space(digits + 1),
                Some(_) => true,
            }
        }
        Some(_) => true,
    }
}

/// Whether `line` is blank as CommonMark reads it: spaces and tabs, then
/// its line ending.
pub(super) fn is_blank(line: &str) -> bool {
    line.bytes()
        .all(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
}

/// Whether a line of `text` is blank.
pub(super) fn has_blank_line(text: &str) -> bool {
    text.split_inclusive('\n').any(is_blank)
}

/// How parsing up to a cut went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Reached {
    /// No top-level block started at or after the cut (yet).
    NotYet,
    /// A top-level block starts at or after the cut: the blocks before it
    /// are closed.
    Cut,
    /// A top-level block starts before the cut and goes on past it.
    Straddled,
}

/// The parser's events up to the first top-level block at or after `cut`;
/// what it found goes into `reached`.
pub(super) struct UpTo<'r, I> {
    events: I,
    cut: usize,
    depth: usize,
    reached: &'r Cell<Reached>,
}

impl<'r, I> UpTo<'r, I> {
    pub(super) fn new(events: I, cut: usize, reached: &'r Cell<Reached>) -> Self {
        reached.set(Reached::NotYet);
        UpTo {
            events,
            cut,
            depth: 0,
            reached,
        }
    }
}

impl<'a, I> Iterator for UpTo<'_, I>
where
    I: Iterator<Item = (Event<'a>, Range<usize>)>,
{
    type Item = (Event<'a>, Range<usize>);

    fn next(&mut self) -> Option<Self::Item> {
        if self.reached.get() != Reached::NotYet {
            return None;
        }
        let (event, range) = self.events.next()?;
        let opens_block = match &event {
            Event::Start(tag) => !is_inline_tag(tag),
            Event::Rule | Event::Html(_) => true,
            _ => false,
        };
        if self.depth == 0 && opens_block {
            if range.start >= self.cut {
                self.reached.set(Reached::Cut);
                return None;
            }
            if range.end > self.cut {
                self.reached.set(Reached::Straddled);
                return None;
            }
        }
        match &event {
            Event::Start(tag) if !is_inline_tag(tag) => self.depth += 1,
            Event::End(tag) if !is_inline_end(*tag) => self.depth = self.depth.saturating_sub(1),
            _ => {}
        }
        Some((event, range))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_follow_a_blank_line_and_precede_a_complete_line() {
        assert_eq!(last_cut("a\n\nb\n", 0), Some(3));
        assert_eq!(
            last_cut("a\n\nb", 0),
            None,
            "the line after the gap is still being typed"
        );
        assert_eq!(last_cut("a\n\nb\n\nc\nd", 0), Some(6));
        assert_eq!(last_cut("a\nb\n", 0), None);
        // (Link reference definitions one a line: after one another.)
        assert_eq!(last_cut("[a]: /u\n[b]: /v\n", 0), Some(8));
        assert_eq!(last_cut("a\n[b]: /v\n", 0), None);
        assert_eq!(last_cut("[^a]: x\n[b]: /v\n", 0), Some(8));
        assert_eq!(last_cut("[a]: /u\n[^b]: /v\n", 0), Some(8));
        assert_eq!(last_cut("a\n  \t\nb\n", 0), Some(6));
        assert_eq!(last_cut("", 0), None);
        assert_eq!(last_cut("\n\n", 0), None);
        // Lines before `from` were looked at: only a blank line at `from`
        // still counts.
        assert_eq!(last_cut("a\n\nb\nc\nd\n", 5), None);
        assert_eq!(last_cut("a\nb\n\nc\n", 4), Some(5));
    }

    fn early(text: &str) -> Option<usize> {
        early_cut(text, text.find_last(b'\n').map_or(0, |i| i + 1))
    }

    #[test]
    fn a_paragraph_being_typed_after_a_gap_is_a_cut() {
        assert_eq!(early("a\n\nNe"), Some(3));
        assert_eq!(early("a\n\n#"), Some(3), "a heading, or `#x` text");
        assert_eq!(early("a\n\n**No"), Some(3));
        assert_eq!(early("a\n\n3.5%"), Some(3));
        assert_eq!(early("a\n\n> q"), Some(3));
        assert_eq!(early("a\n\n1"), None, "`1.` would go on a list");
        assert_eq!(early("a\n\n1."), None, "`1. ` would go on a list");
        assert_eq!(early("a\n\n-"), None, "`- ` would go on a list");
        assert_eq!(early("a\n\n* b"), None, "an item");
        assert_eq!(early("[a]\n\n[a]: /"), None, "a definition");
        assert_eq!(early("a\n\n  b"), None, "indented: an item's continuation?");
        assert_eq!(early("a\nb"), None, "no gap: a lazy line");
        assert_eq!(early("\n\nb"), None, "nothing before it");
    }

    fn reached(md: &str, cut: usize) -> Reached {
        let cell = Cell::new(Reached::NotYet);
        UpTo::new(crate::parse::parse(md), cut, &cell).for_each(drop);
        cell.get()
    }

    #[test]
    fn blocks_going_on_past_the_cut_straddle_it() {
        assert_eq!(reached("a\n\nb\n", 3), Reached::Cut);
        assert_eq!(reached("- a\n\n  b\n", 5), Reached::Straddled);
        assert_eq!(reached("```\na\n\nb\n", 7), Reached::Straddled);
        assert_eq!(reached("- a\n\nb\n", 5), Reached::Cut);
        assert_eq!(reached("a\n\n[x]: /u\n", 3), Reached::NotYet);
    }
}
