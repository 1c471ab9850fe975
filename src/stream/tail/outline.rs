//! Outlines: lists of one-line items, nested or not, as answers write them
//! (`- a`, `  - b`, `    - c`). The tail keeps the HTML of an outline's
//! lines so far ([`ListHead`](super::ListHead)) with the items open at its
//! end; a line starting another item goes in where its indentation puts
//! it, rendered alone as a list of one: after an open item, as the next
//! item of that item's list ([`Place::Next`]), or inside the last item,
//! as a new list ([`Place::Inside`]). In a tight outline an item renders
//! the same alone and in the outline, so an outline costs each line once,
//! at any depth, not the whole outline at each line.
//!
//! What makes it exact: a line at the margin (the outline's first) starts
//! a list at the top level; a later item's place follows from CommonMark's
//! rule that a line goes inside an item when it is indented to the item's
//! content, and from nothing else, when every line is one item whose
//! content takes in no line after it, and the lists are tight (no line is
//! blank, or the outline is one list that the HTML shows tight).

use super::super::preview::{item_marker, ItemMark};
use super::text::tags_are_settled;
use crate::stream::has_any_byte;

/// An outline's item: where its marker and its content start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Item {
    /// The spaces before its marker.
    pub(super) marker: usize,
    /// Where its content starts: a line indented this far goes inside it.
    content: usize,
    pub(super) mark: ItemMark,
    /// An ordered item numbered 1 (a list of it may start inside a
    /// paragraph's item; one starting at another number cannot).
    first: bool,
    /// Its content has begun, and is one line's (see [`one_line_content`]).
    pub(super) plain: bool,
}

/// The item that `line` (without its newline) starts, as far as it is
/// typed: spaces, a marker, then nothing but spaces, or one to four spaces
/// and content.
pub(super) fn item_of(line: &str) -> Option<Item> {
    if has_any_byte(line, b"\t\r\n") {
        return None;
    }
    let marker = line.bytes().take_while(|&b| b == b' ').count();
    let (mark, rest) = item_marker(&line[marker..])?;
    let content = rest.trim_start_matches(' ');
    let spaces = rest.len() - content.len();
    if !content.is_empty() && !(1..=4).contains(&spaces) {
        return None;
    }
    Some(Item {
        marker,
        content: line.len() - content.len(),
        mark,
        first: matches!(&line[marker..marker + digits(&line[marker..])], "" | "1"),
        plain: one_line_content(content),
    })
}

/// Whether `line`, as far as it is typed, may start an item: spaces, then
/// nothing yet or what a marker starts with.
pub(super) fn may_start_item(line: &str) -> bool {
    line.trim_start_matches(' ')
        .bytes()
        .next()
        .is_none_or(|b| matches!(b, b'-' | b'*' | b'+' | b'0'..=b'9'))
}

/// How many digits `text` starts with.
fn digits(text: &str) -> usize {
    text.bytes().take_while(u8::is_ascii_digit).count()
}

/// Whether a list item's content starting `content` is begun and is one
/// line's: no fence or HTML block (which take in the lines after it), no
/// item of its own (a list inside the item on its line), no table, and no
/// raw HTML but cite tags (an element it leaves open is closed where the
/// item's content ends, around the lines after it: `<details>`).
fn one_line_content(content: &str) -> bool {
    !(content.is_empty()
        || content.starts_with(['<', '|'])
        || !tags_are_settled(content)
        || content.starts_with("```")
        || content.starts_with("~~~")
        || item_marker(content).is_some())
}

/// Where an item goes in an outline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Place {
    /// The next item of the list of the open item at this depth (0: the
    /// top level), the items deeper than it closed.
    Next(usize),
    /// A new list inside the last open item.
    Inside,
}

/// Where `item` goes after an outline whose open items are `open`,
/// outermost first: inside each open item whose content starts where its
/// marker does or before, by up to three spaces more (four would start
/// indented code, or go on with the item's text); the next item of the
/// first open item it is not inside, when marked alike (another mark starts
/// another list); else a new list inside the last, which must interrupt
/// that item's text: its content begun, and numbered 1 if ordered.
pub(super) fn place(open: &[Item], item: &Item) -> Option<Place> {
    let inside = open.iter().take_while(|o| o.content <= item.marker).count();
    let content = inside.checked_sub(1).map_or(0, |o| open[o].content);
    if item.marker - content > 3 {
        return None;
    }
    match open.get(inside) {
        Some(sibling) => (sibling.mark == item.mark).then_some(Place::Next(inside)),
        None => (!open.is_empty() && item.plain && item.first).then_some(Place::Inside),
    }
}

/// The open items after `lines`, complete lines ending where the line to
/// place starts, when they end in an outline: one-line items starting
/// with one at the margin, each placed by the rest. With where the
/// outline starts.
pub(super) fn open_items(lines: &str) -> Option<(usize, Vec<Item>)> {
    let body = lines.strip_suffix('\n')?;
    // (Back from the last line, over items, to the last at the margin.)
    let mut end = body.len();
    let start = loop {
        let line_start = body[..end].rfind('\n').map_or(0, |i| i + 1);
        let item = item_of(&body[line_start..end]).filter(|item| item.plain)?;
        if item.marker == 0 {
            break line_start;
        }
        end = line_start.checked_sub(1)?;
    };
    let mut open: Vec<Item> = Vec::new();
    for line in lines[start..].split_terminator('\n') {
        let item = item_of(line)?;
        match open.is_empty() {
            true => open.push(item),
            false => {
                let at = place(&open, &item)?;
                add(&mut open, at, item);
            }
        }
    }
    Some((start, open))
}

/// `open` after `item` goes in at `place`.
pub(super) fn add(open: &mut Vec<Item>, place: Place, item: Item) {
    if let Place::Next(depth) = place {
        open.truncate(depth);
    }
    open.push(item);
}

/// The tags that close an open item and its list.
const ITEM_END: &str = "</li>\n";

/// The end tags of `open`'s lists from the one at `depth` outward: what
/// follows, in the outline's HTML, the place of its next item.
pub(super) fn ends_after(open: &[Item], depth: usize) -> usize {
    open[..=depth]
        .iter()
        .map(|item| item.mark.list_tags().1.len() + ITEM_END.len())
        .sum::<usize>()
        - ITEM_END.len()
}

/// The end tags of every open item and list: what the outline's HTML ends
/// with.
pub(super) fn all_ends(open: &[Item]) -> String {
    open.iter()
        .rev()
        .flat_map(|item| [ITEM_END, item.mark.list_tags().1])
        .collect()
}

/// Where, in `html`, the outline's HTML with `open` items, an item goes at
/// `place`; what goes before it there (a line break after an item's text,
/// which a list inside it starts with).
pub(super) fn cut(html: &str, open: &[Item], place: Place) -> Option<(usize, &'static str)> {
    let depth = match place {
        Place::Next(depth) => depth,
        Place::Inside => open.len().checked_sub(1)?,
    };
    let mut at = html.len().checked_sub(ends_after(open, depth))?;
    if place == Place::Inside {
        at = at.checked_sub(ITEM_END.len())?;
    }
    let before = &html.get(..at)?;
    let glue = match place == Place::Inside && !before.ends_with('\n') {
        true => "\n",
        false => "",
    };
    Some((at, glue))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open_of(text: &str) -> Vec<Item> {
        open_items(text).map(|(_, open)| open).unwrap_or_default()
    }

    #[test]
    fn lines_go_where_their_indentation_puts_them() {
        let open = open_of("- a\n  - b\n    - c\n");
        assert_eq!(open.len(), 3);
        let item = |line| item_of(line).unwrap();
        assert_eq!(place(&open, &item("      - d")), Some(Place::Inside));
        assert_eq!(place(&open, &item("    - d")), Some(Place::Next(2)));
        assert_eq!(
            place(&open, &item("   - d")),
            Some(Place::Next(1)),
            "inside a, not b"
        );
        assert_eq!(place(&open, &item("  - d")), Some(Place::Next(1)));
        assert_eq!(place(&open, &item("- d")), Some(Place::Next(0)));
        assert_eq!(place(&open, &item("  * d")), None, "another list");
        assert_eq!(place(&open, &item("          - d")), None, "indented code");
        assert_eq!(place(&open, &item("      - ")), None, "may underline c");
        assert_eq!(place(&open, &item("      2. d")), None, "goes on with c");
        assert_eq!(place(&open, &item("      1. d")), Some(Place::Inside));
        assert_eq!(place(&open, &item("    - ")), Some(Place::Next(2)));
        assert_eq!(place(&open, &item("      - # d")), Some(Place::Inside));
        assert_eq!(place(&open, &item("      - ```")), None);
    }

    #[test]
    fn an_outline_starts_at_the_margin_and_holds_items_only() {
        assert_eq!(
            open_items("x\n- a\n  - b\n").map(|(start, _)| start),
            Some(2)
        );
        assert_eq!(
            open_items("- a\n- b\n").map(|(start, o)| (start, o.len())),
            Some((4, 1))
        );
        assert!(open_items("  - b\n").is_none());
        assert!(open_items("- a\n  x\n  - b\n").is_none());
        assert!(open_items("- a\n\n  - b\n").is_none());
        assert!(open_items("- a\n  - <div>\n").is_none());
        assert!(open_items("- ```\n  - b\n").is_none());
        assert!(open_items("- a\n  2. b\n").is_none());
    }

    #[test]
    fn the_html_is_cut_before_the_ends_of_the_place() {
        let open = open_of("- a\n  1. b\n");
        let html = "<ul>\n<li>a\n<ol>\n<li>b</li>\n</ol>\n</li>\n</ul>\n";
        assert_eq!(all_ends(&open), "</li>\n</ol>\n</li>\n</ul>\n");
        let at = |place| cut(html, &open, place).map(|(at, glue)| (&html[..at], glue));
        assert_eq!(
            at(Place::Next(0)),
            Some(("<ul>\n<li>a\n<ol>\n<li>b</li>\n</ol>\n</li>\n", ""))
        );
        assert_eq!(
            at(Place::Next(1)),
            Some(("<ul>\n<li>a\n<ol>\n<li>b</li>\n", ""))
        );
        assert_eq!(at(Place::Inside), Some(("<ul>\n<li>a\n<ol>\n<li>b", "\n")));
    }
}
