//! The tail's preview: the open text edited so that what is still being
//! typed shows as what it will become, or not at all — never as markup
//! that flashes and then jumps.
//!
//! Only the last block is edited (the text after the last blank line):
//! - an unclosed `` ` ``, `**`, `*`, `_`, `__` or `~~` is closed after
//!   the last line's text, or dropped when nothing follows it yet (one
//!   left open before a heading, rule, block quote or list item that ends
//!   its paragraph stays as typed: it can no longer close; a `*` or `_`
//!   opens by CommonMark's flanking rules, and not in a link's
//!   destination);
//! - a half-written link `[label](https://…` shows its label; `[label` and
//!   `[label]` show the label; a half-written marker `[1` or `[1,` is held;
//! - a half-written tag (`<cite id="…`, `</ci`), entity (`&am`), trailing
//!   backslash, or bare URL still being typed (`https://app/-/ai/conv…`,
//!   which may yet become a short-link citation) is held;
//! - a table row whose delimiter row has not arrived is held;
//! - inside an open code fence, a closing fence being typed is held.
//!
//! The edits are heuristics for display only: what is committed, and the
//! final render, never go through here.

use std::borrow::Cow;

use super::inline_subset::{can_open_close, Class};
use super::typing::is_held_url_byte;
use super::{has_any_byte, has_byte, FindLast};
use crate::cite::marker::{FILE_SEARCH_CLOSE, FILE_SEARCH_DAGGER, FILE_SEARCH_OPEN, PROMPT_WORDS};
use crate::parse::is_escaped;

/// The open text as the tail should show it, and what the tail's cache
/// (`tail.rs`) may rely on until the next newline.
pub(super) struct Preview<'a> {
    pub(super) text: Cow<'a, str>,
    /// The last line is a table row held back: the preview stays the same
    /// while it is typed.
    pub(super) holds_row: Option<RowHold>,
    /// Inside a code fence, on a later line than the fence: the text so
    /// far is shown as it is. The fence (its indentation includes a list
    /// item's, when it is in one).
    pub(super) in_fence: Option<Fence>,
}

/// How long a table row being typed stays held back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum RowHold {
    /// Until its line ends.
    UntilNewline,
    /// While the line has only `|`, `-`, `:` and spaces (a delimiter row
    /// being typed).
    WhileDelimiter,
}

/// The open text as the tail should show it.
pub(super) fn preview(open: &str) -> Preview<'_> {
    let shown = |text, holds_row, in_fence| Preview {
        text,
        holds_row,
        in_fence,
    };
    let line_start = open.find_last(b'\n').map_or(0, |i| i + 1);
    let last_line = &open[line_start..];
    let (before_last_line, fence_closed_at) = open_fence(&open[..line_start]);
    if let Some(fence) = before_last_line {
        let last = last_line.trim_start_matches(' ');
        if !last.is_empty() && last.bytes().all(|b| b == fence.char) {
            // The closing fence being typed.
            return shown(Cow::Borrowed(&open[..line_start]), None, None);
        }
    }
    if next_fence(before_last_line, last_line).is_some() {
        return shown(Cow::Borrowed(open), None, before_last_line);
    }
    // (One line is its own block; and a code block's lines, up to its
    // closing fence, are none of the block being typed: a backtick in them
    // opens no span.)
    let block_start = match line_start {
        0 => 0,
        _ => preview_block_start(open).max(fence_closed_at),
    };
    let block = &open[block_start..];
    // (Room for the closers that close_open_spans may add.)
    let mut edited = String::with_capacity(block.len() + 8);
    edited.push_str(block);
    let holds_row = hide_table_without_delimiter(&mut edited);
    let holds = Holds::of(&edited);
    let mut scratch = Scratch::default();
    // Closing spans can drop an opener with nothing after it, which can
    // bare something else unfinished before it: a second round (unless the
    // first cut nothing: emphasis closers added after what the first round
    // left there bare nothing).
    for _ in 0..2 {
        // (Up to eight times; what is left goes in the second round.)
        let mut hiding = true;
        for _ in 0..8 {
            if !hide_unfinished_end(&mut edited, block_start > 0, holds, &mut scratch) {
                hiding = false;
                break;
            }
        }
        let cut = match holds.span_delimiter {
            true => close_open_spans(&mut edited, &mut scratch.openers),
            false => trim_trailing_blanks(&mut edited),
        };
        if !cut && !hiding {
            break;
        }
    }
    let text = if edited == block {
        Cow::Borrowed(open)
    } else if block_start == 0 {
        Cow::Owned(edited)
    } else {
        Cow::Owned([&open[..block_start], &edited].concat())
    };
    shown(text, holds_row, None)
}

/// Where the preview's last block starts: at the last line when the line
/// before is a one-line list item, nested or not (inline syntax never spans two items, so
/// a long list is looked at one item at a time), else where the last
/// block starts. (Only the lines before the last decide: what the preview
/// does must not change while a line is typed.)
pub(super) fn preview_block_start(text: &str) -> usize {
    after_list_item(text).map_or_else(|| after_blank_line(text), |after| after.line_start)
}

/// Where the last block starts: after the last blank line, or at the last
/// line when it starts an item of a list of one-line items, nested or not,
/// after one (marked alike, and not so indented that it goes on with it).
pub(super) fn last_block_start(text: &str) -> usize {
    if let Some(after) = after_list_item(text).filter(|after| {
        let line = &text[after.line_start..];
        let indent = line.bytes().take_while(|&b| b == b' ').count();
        indent <= after.content + 3
            && item_marker(&line[indent..]).is_some_and(|(mark, _)| mark == after.mark)
    }) {
        return after.line_start;
    }
    after_blank_line(text)
}

/// Where the text after the last blank line starts.
pub(super) fn after_blank_line(text: &str) -> usize {
    let mut at = text.len();
    while let Some(newline) = text[..at].find_last(b'\n') {
        let line_start = text[..newline].find_last(b'\n').map_or(0, |i| i + 1);
        // (Blank as CommonMark has it: spaces and tabs only, not U+2028.)
        let blank = text[line_start..newline]
            .bytes()
            .all(|b| matches!(b, b' ' | b'\t' | b'\r'));
        if blank {
            return newline + 1;
        }
        at = line_start;
        if at == 0 {
            break;
        }
    }
    0
}

/// How a list item at the margin is marked: its bullet, or the delimiter
/// after its number. Items of one list repeat it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ItemMark {
    Bullet(u8),
    Ordered(u8),
}

impl ItemMark {
    /// The start of the list's opening tag, and its closing tag.
    pub(super) fn list_tags(self) -> (&'static str, &'static str) {
        match self {
            ItemMark::Bullet(_) => ("<ul>", "</ul>\n"),
            ItemMark::Ordered(_) => ("<ol", "</ol>\n"),
        }
    }

    /// A marker of an item of the list: its bullet, or `1` and its
    /// delimiter.
    pub(super) fn marker(self) -> &'static str {
        match self {
            ItemMark::Bullet(b'*') => "*",
            ItemMark::Bullet(b'+') => "+",
            ItemMark::Bullet(_) => "-",
            ItemMark::Ordered(b')') => "1)",
            ItemMark::Ordered(_) => "1.",
        }
    }
}

/// Where a URL being typed may start in `word`: after the `(`, `<`, `*`
/// and `_` opening it, which the preview reads past.
pub(super) fn url_word_start(word: &str) -> usize {
    word.bytes()
        .take_while(|b| matches!(b, b'(' | b'<' | b'*' | b'_'))
        .count()
}

/// Whether `token`, a line's last word (from its [`url_word_start`]), is a
/// URL being typed, which the preview holds back: a
/// scheme or `www.`, typed in part or whole, lowercase.
pub(super) fn url_being_typed(token: &str) -> bool {
    // (Every scheme starts with `h` or `w`.)
    token.starts_with(['h', 'w'])
        && ["https://", "http://", "www."]
            .iter()
            .any(|scheme| token.starts_with(scheme) || scheme.starts_with(token))
}

/// The mark opening `line` as a list item at the margin, and the rest of
/// the line after it (empty, or its spaces then its content).
pub(super) fn item_marker(line: &str) -> Option<(ItemMark, &str)> {
    let bytes = line.as_bytes();
    let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
    let (mark, rest) = match (digits, bytes.get(digits).copied()?) {
        (0, c @ (b'-' | b'*' | b'+')) => (ItemMark::Bullet(c), &line[1..]),
        (1..=9, d @ (b'.' | b')')) => (ItemMark::Ordered(d), &line[digits + 1..]),
        _ => return None,
    };
    (rest.is_empty() || rest.starts_with(' ')).then_some((mark, rest))
}

/// The mark of `line` (without its newline) when it is a list item at the
/// margin holding one line of content: the marker, one to four spaces
/// (five would start indented code), then text. A line of `-` or `*` and
/// spaces is a thematic break instead, and one that may be a table's
/// delimiter row (`- |`, after a header) is left to the table.
pub(super) fn one_line_item(line: &str) -> Option<ItemMark> {
    let (mark, rest) = item_marker(line)?;
    let content = rest.trim_start_matches(' ');
    let spaces = rest.len() - content.len();
    let rule = matches!(mark, ItemMark::Bullet(b'-' | b'*'))
        && line.bytes().all(|b| b == line.as_bytes()[0] || b == b' ');
    let plain_line = !has_any_byte(line, b"\t\r\n");
    let item = (1..=4).contains(&spaces) && !content.is_empty() && !rule && plain_line;
    (item && !is_delimiter_row(line)).then_some(mark)
}

/// The last line of a text whose line before is a one-line list item.
#[derive(Debug, Clone, Copy)]
pub(super) struct AfterListItem {
    /// Where the last line starts.
    pub(super) line_start: usize,
    pub(super) mark: ItemMark,
    /// Where the item's content starts: a line indented more than three
    /// spaces past it goes on with its text.
    content: usize,
}

/// Whether the line before the last line of `text` is a one-line list
/// item, at the margin or indented (in an outline, `  - b`).
pub(super) fn after_list_item(text: &str) -> Option<AfterListItem> {
    let line_start = text.find_last(b'\n')? + 1;
    let item_end = line_start - 1;
    let item_start = text[..item_end].find_last(b'\n').map_or(0, |i| i + 1);
    let line = &text[item_start..item_end];
    let indent = line.bytes().take_while(|&b| b == b' ').count();
    let mark = one_line_item(&line[indent..])?;
    let (_, rest) = item_marker(&line[indent..])?;
    let content = line.len() - rest.trim_start_matches(' ').len();
    Some(AfterListItem {
        line_start,
        mark,
        content,
    })
}

/// A code fence: its character, length and indentation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Fence {
    pub(super) char: u8,
    pub(super) len: usize,
    pub(super) indent: usize,
}

/// The fence that opens a line, if any. (A backtick fence's info string
/// holds no backtick: ```` ```a`b ```` is a paragraph's code span.)
pub(super) fn fence_of(line: &str) -> Option<Fence> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    let rest = &line[indent..];
    let c = *rest.as_bytes().first()?;
    if indent > 3 || !matches!(c, b'`' | b'~') {
        return None;
    }
    let len = rest.bytes().take_while(|&b| b == c).count();
    let info_ok = c == b'~' || !has_byte(&rest[len..], b'`');
    (len >= 3 && info_ok).then_some(Fence {
        char: c,
        len,
        indent,
    })
}

/// The fence left open at the end of `text`, if any, and where the line
/// after the last fence that closed ends starts (0: none closed).
fn open_fence(text: &str) -> (Option<Fence>, usize) {
    if memchr::memchr2(b'`', b'~', text.as_bytes()).is_none() {
        return (None, 0);
    }
    let (mut open, mut closed_at, mut at) = (None, 0, 0);
    for line in text.split_inclusive('\n') {
        at += line.len();
        let next = next_fence(open, line);
        if open.is_some() && next.is_none() {
            closed_at = at;
        }
        open = next;
    }
    (open, closed_at)
}

/// The fence open after `line`, given the one open before it.
fn next_fence(open: Option<Fence>, line: &str) -> Option<Fence> {
    match (open, fence_of(line)) {
        (None, opening) => opening,
        (Some(fence), Some(closing))
            if closing.char == fence.char
                && closing.len >= fence.len
                && line
                    .trim_end()
                    .bytes()
                    .all(|b| b == fence.char || b == b' ') =>
        {
            None
        }
        (still_open, _) => still_open,
    }
}

/// Whether `line` is a table delimiter row (`|---|:-:|`).
pub(super) fn is_delimiter_row(line: &str) -> bool {
    // (Most lines are soon told otherwise, by an ASCII byte other than
    // pipes, dashes, colons and whitespace.)
    for b in line.bytes() {
        match b {
            b'|' | b'-' | b':' | b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c => {}
            0x80.. => break,
            _ => return false,
        }
    }
    let cells = line.trim().trim_matches('|');
    !cells.is_empty()
        && cells.contains('-')
        && cells.split('|').all(|cell| {
            cell.trim().trim_matches(':').bytes().all(|b| b == b'-') && cell.contains('-')
        })
}

/// A header of empty cells, one per column of `delimiter` (a table's
/// delimiter row, with its newline if any), then `delimiter`: the rows
/// after it render as they do in the table, and it holds no text.
pub(super) fn stand_in_header(delimiter: &str) -> String {
    let columns = delimiter.trim().trim_matches('|').split('|').count();
    ["|", &" |".repeat(columns), "\n", delimiter].concat()
}

/// A table header (or its delimiter row being typed) shows as pipes until
/// the delimiter row is complete: hold it.
fn hide_table_without_delimiter(block: &mut String) -> Option<RowHold> {
    if !block.contains('|') {
        return None;
    }
    let lines: Vec<(usize, &str)> = block
        .split_inclusive('\n')
        .scan(0, |at, line| {
            let start = *at;
            *at += line.len();
            Some((start, line))
        })
        .collect();
    let complete_delimiter = lines
        .iter()
        .any(|(_, line)| line.ends_with('\n') && is_delimiter_row(line));
    let &(last_start, last) = lines.last()?;
    if complete_delimiter {
        // A row shows once it is whole.
        let holds_row = !last.ends_with('\n') && lines.len() > 2;
        if holds_row {
            block.truncate(last_start);
        }
        return holds_row.then_some(RowHold::UntilNewline);
    }
    let typing_delimiter = !last.ends_with('\n')
        && last
            .trim()
            .bytes()
            .all(|b| matches!(b, b'|' | b'-' | b':' | b' '))
        && !last.trim().is_empty();
    let (cut, holds) = if typing_delimiter {
        let header = lines
            .len()
            .checked_sub(2)
            .and_then(|i| lines.get(i))
            .filter(|(_, line)| line.contains('|'));
        let cut = header.map_or(last_start, |(start, _)| *start);
        (Some(cut), Some(RowHold::WhileDelimiter))
    } else if last.contains('|') {
        // A header row: held whatever else comes on its line.
        let holds = (!last.ends_with('\n')).then_some(RowHold::UntilNewline);
        (Some(last_start), holds)
    } else {
        (None, None)
    };
    if let Some(cut) = cut {
        block.truncate(cut);
    }
    holds
}

/// Which of the characters the edits look for a block holds. No edit adds
/// any of them, so one that is not there at the start never is.
#[derive(Debug, Clone, Copy)]
struct Holds {
    ampersand: bool,
    angle_bracket: bool,
    square_bracket: bool,
    newline: bool,
    /// A `` ` ``, `*`, `_` or `~`. (The spans it closes add only closers
    /// of openers already there.)
    span_delimiter: bool,
    backtick: bool,
}

impl Holds {
    fn of(text: &str) -> Self {
        // Which flag each byte sets.
        const AMPERSAND: u8 = 1;
        const ANGLE: u8 = 2;
        const SQUARE: u8 = 4;
        const NEWLINE: u8 = 8;
        const DELIMITER: u8 = 16;
        const BACKTICK: u8 = 32;
        const FLAGS: [u8; 256] = {
            let mut flags = [0; 256];
            flags[b'&' as usize] = AMPERSAND;
            flags[b'<' as usize] = ANGLE;
            flags[b'[' as usize] = SQUARE;
            flags[b']' as usize] = SQUARE;
            flags[b'\n' as usize] = NEWLINE;
            flags[b'*' as usize] = DELIMITER;
            flags[b'_' as usize] = DELIMITER;
            flags[b'~' as usize] = DELIMITER;
            flags[b'`' as usize] = DELIMITER | BACKTICK;
            flags
        };
        let found = text
            .bytes()
            .fold(0, |found, b| found | FLAGS[usize::from(b)]);
        Holds {
            ampersand: found & AMPERSAND != 0,
            angle_bracket: found & ANGLE != 0,
            square_bracket: found & SQUARE != 0,
            newline: found & NEWLINE != 0,
            span_delimiter: found & DELIMITER != 0,
            backtick: found & BACKTICK != 0,
        }
    }
}

/// Room the edits reuse (allocated only where needed), and where the last
/// tag held back started.
#[derive(Default)]
struct Scratch {
    openers: Vec<Delimiter>,
    brackets: Vec<usize>,
    held_tag: Option<usize>,
}

/// Drops the spaces and tabs ending `block`; whether there were any (the
/// cut of [`close_open_spans`] when there are no spans).
fn trim_trailing_blanks(block: &mut String) -> bool {
    let trimmed = block.trim_end_matches([' ', '\t']).len();
    let changed = trimmed != block.len();
    block.truncate(trimmed);
    changed
}

/// Holds back what is being typed at the very end: a backslash, an
/// entity, a tag, a link or marker, a bare URL. (`holds`: what the block
/// was found to hold; `follows_a_line`: whether a line of the open text
/// comes before it.) Whether it edited the block: an edit need not change
/// its length (a link's label shown without its brackets but with its
/// own escaped), and each edit may bare something else to hold.
fn hide_unfinished_end(
    block: &mut String,
    follows_a_line: bool,
    holds: Holds,
    scratch: &mut Scratch,
) -> bool {
    let len = block.len();
    // A link reference definition being typed shows nothing, whatever its
    // line holds (first: what else would be held on it goes with it).
    let line_start = match holds.newline {
        true => block.find_last(b'\n').map_or(0, |i| i + 1),
        false => 0,
    };
    if holds.square_bracket && is_definition_line(&block[line_start..]) {
        block.truncate(line_start);
        return true;
    }
    if block.ends_with(['\\', '(', '!']) {
        block.pop();
        return true;
    }
    // A hard break's backslash, until the line it breaks to comes.
    if block.ends_with("\\\n") && !is_escaped(block, block.len() - 2) {
        block.truncate(block.len() - 2);
        return true;
    }
    if let Some(amp) = holds.ampersand.then(|| block.find_last(b'&')).flatten() {
        let rest = &block[amp + 1..];
        if rest.len() <= 32 && rest.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'#') {
            block.truncate(amp);
            return true;
        }
    }
    if let Some(lt) = holds
        .angle_bracket
        .then(|| unclosed_tag(block, scratch.held_tag))
        .flatten()
    {
        block.truncate(lt);
        scratch.held_tag = Some(lt);
        return true;
    }
    if hide_unfinished_bracket(block, holds, &mut scratch.brackets) {
        return true;
    }
    if let Some(open) = unfinished_file_search_marker(block) {
        block.truncate(open);
        return true;
    }
    if let Some(open) = unfinished_math(block) {
        block.truncate(open);
        return true;
    }
    // A line of only `-`, `=`, `*` or `_` may be a rule or a setext
    // underline. After a line of its block, so may a single one, and a line
    // that is only a list item's marker (`-`, `+`, `1.`, after any quote
    // markers) may be an item or the text going on: until more comes it
    // shows nothing, so that `Steps:\n-` does not flash the paragraph as a
    // heading, nor `Steps:\n1.` show its marker as text.
    let line = &block[line_start..];
    let content = line.trim_start_matches([' ', '>']).trim_end_matches(' ');
    let rule_chars = content
        .bytes()
        .all(|b| matches!(b, b'-' | b'=' | b'*' | b'_' | b' '));
    let rule_or_underline = rule_chars && content.len() > 1;
    let after_a_line = (line_start > 0 || follows_a_line)
        && (rule_chars && content.len() == 1
            || item_marker(content).is_some_and(|(_, rest)| rest.is_empty()));
    // A heading's `#`s before its text would show an empty heading (or
    // turn out to be a `#hashtag`).
    let bare_heading = (1..=6).contains(&content.len()) && content.bytes().all(|b| b == b'#');
    if rule_or_underline || after_a_line || bare_heading {
        block.truncate(line_start);
        return true;
    }
    // Whitespace may be wider than a byte (U+00A0, U+3000): the token starts
    // after the whole character.
    let token_start = line
        .char_indices()
        .rfind(|(_, c)| c.is_whitespace())
        .map_or(line_start, |(i, c)| line_start + i + c.len_utf8());
    let token_at = token_start + url_word_start(&block[token_start..]);
    let token = &block[token_at..];
    // A line that is only digits may be an ordered list item's number.
    let list_number =
        token_start == line_start && !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit());
    if url_being_typed(token) || list_number {
        block.truncate(token_at);
    }
    // (Trailing blanks may have gone with the brackets' look.)
    block.len() != len
}

/// Where a code span opened and not closed yet starts.
fn open_code_span(text: &str) -> Option<usize> {
    memchr::memchr(b'`', text.as_bytes())?;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'`' => match code_span_at(text, i) {
                (_, Some(end)) => i = end,
                (_, None) => return Some(i),
            },
            _ => i += 1,
        }
    }
    None
}

/// Where a tag still being typed at the end of `text` starts: a `<` (then
/// nothing, or a tag's first character) whose `>` has not come, outside the
/// quotes of an earlier tag's attributes (`<cite id='"><img …>` is one
/// unfinished tag, not a complete `<img>`). A `<` ending the text just
/// before `held_tag`, where a tag held back in an earlier round started, was
/// followed by that `<`, so starts none: `<<<` is not held one `<` a round
/// (4 KiB of `<` took sixteen rounds a push).
pub(super) fn unclosed_tag(text: &str, held_tag: Option<usize>) -> Option<usize> {
    let mut at = 0;
    while let Some(lt) = memchr::memchr(b'<', &text.as_bytes()[at..]).map(|i| at + i) {
        let rest = &text[lt + 1..];
        let tag_like = rest.bytes().next().map_or(held_tag != Some(lt + 1), |b| {
            b.is_ascii_alphabetic() || b == b'/' || b == b'!'
        });
        match tag_end(rest) {
            _ if !tag_like => at = lt + 1,
            Some(end) => at = lt + 1 + end,
            None => return Some(lt),
        }
    }
    None
}

/// Where the tag starting just before `rest` ends (after its `>`), if it
/// is a tag and is complete.
pub(super) fn tag_end(rest: &str) -> Option<usize> {
    let first = rest.bytes().next()?;
    if !(first.is_ascii_alphabetic() || first == b'/' || first == b'!') {
        return None;
    }
    // The first `>` outside quotes.
    let bytes = rest.as_bytes();
    let mut at = 0;
    loop {
        let stop = at + memchr::memchr3(b'>', b'"', b'\'', &bytes[at..])?;
        match bytes[stop] {
            b'>' => return Some(stop + 1),
            quote => at = stop + 1 + memchr::memchr(quote, &bytes[stop + 1..])? + 1,
        }
    }
}

/// The last `[` not closed by a `]`, outside code spans; a code span that
/// nothing closes yet runs to the end of `text`, as the preview closes it
/// there (`` [`a]b `` shows `` `a]b` `` after a label's hidden `[`).
/// (`open`: room for the brackets.)
fn unmatched_bracket(text: &str, open: &mut Vec<usize>) -> Option<usize> {
    memchr::memchr(b'[', text.as_bytes())?;
    let bytes = text.as_bytes();
    open.clear();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 1,
            b'`' => match code_span_at(text, i) {
                (_, Some(end)) => i = end - 1,
                (_, None) => break,
            },
            b'[' => open.push(i),
            b']' => {
                open.pop();
            }
            _ => {}
        }
        i += 1;
    }
    open.pop()
}

/// Whether `line` is a link reference definition being typed (an unclosed
/// title would show it as text), or a footnote definition before its text:
/// their labels are no references, and the preview shows nothing of them.
pub(super) fn is_definition_line(line: &str) -> bool {
    // (The label ends at the first `]`, which `:` must follow: most lines
    // starting with `[` are a link's, and end their label soon.)
    let Some(rest) = line.trim_start_matches(' ').strip_prefix('[') else {
        return false;
    };
    let Some(end) = memchr::memchr(b']', rest.as_bytes()) else {
        return false;
    };
    let (label, text) = (&rest[..end], &rest[end + 1..]);
    text.strip_prefix(':')
        .is_some_and(|text| !label.starts_with('^') || text.trim().is_empty())
}

/// Whether `text` (a line's content, after its block markers) starts with
/// an inline link's or image's label, a `(` and a destination of URL
/// characters so far, up to its `)` if typed, `[Docs](h` or `![CI](./`:
/// no link reference definition (whose label a `:` follows), no task box,
/// and text that starts no block of its own once the preview drops its
/// `[`. The label starts with a letter, of any script, and holds no
/// bracket, code, tag or escape, which may move its end. The preview shows
/// the label of such a link, at a line's start as after text. (Not before
/// the destination's first character, a letter, digit, `/`, `.` or `#`:
/// the preview holds back a `(` ending the text, or one before a `[` or
/// `!`, and then the label at the line's start, which may yet be a
/// definition's. Nor once the destination holds what no URL does, a space
/// or a backtick, which the preview may read otherwise at the line's
/// start than after text.)
pub(super) fn starts_inline_link(text: &str) -> bool {
    let label = text.strip_prefix('!').unwrap_or(text).strip_prefix('[');
    label.is_some_and(|label| {
        let Some((label, destination)) = label.split_once("](") else {
            return false;
        };
        let destination = destination.split(')').next().unwrap_or_default();
        label.starts_with(char::is_alphabetic)
            && !has_any_byte(label, b"[]`<\\")
            && destination
                .bytes()
                .next()
                .is_some_and(|b| b.is_ascii_alphanumeric() || b"/.#".contains(&b))
            && destination.bytes().all(is_held_url_byte)
    })
}

/// Whether the preview shows nothing of `open`'s last line (from
/// `line_start`) whatever text without a line break is typed on it: a link
/// reference definition's line (not a footnote's, which shows once its
/// text comes), outside a fence, where no indentation makes it code. (The
/// preview drops it before anything else it holds back.)
pub(super) fn hides_definition_line(open: &str, line_start: usize) -> bool {
    let line = &open[line_start..];
    let content = line.trim_start_matches(' ');
    line.len() - content.len() <= 3
        && !content.starts_with("[^")
        && is_definition_line(content)
        && !has_any_byte(line, b"\r\0")
        && next_fence(open_fence(&open[..line_start]).0, line).is_none()
}

/// `[label](https://…` shows `label`; `[label` and `[label]` at the end
/// show `label`; `[1` and `[1,` are held. Whether anything changed.
/// (Trailing spaces go in any case. `open`: room for the brackets.)
fn hide_unfinished_bracket(block: &mut String, holds: Holds, open: &mut Vec<usize>) -> bool {
    if holds.backtick {
        // Brackets in code are shown as typed; but a link's label may hold
        // code (`` [`serde_json::Value` ``): what opened before it is no
        // code.
        let code = open_code_span(block).or_else(|| {
            block
                .len()
                .checked_sub(1)
                .filter(|&last| block.as_bytes()[last] == b'`')
        });
        if code.is_some_and(|at| unmatched_bracket(&block[..at], open).is_none()) {
            return false;
        }
    }
    trim_trailing_blanks(block);
    if !holds.square_bracket {
        return false;
    }
    if let Some(open) = unmatched_bracket(block, open) {
        let inner = &block[open + 1..];
        let held = inner.is_empty()
            || matches!(inner, " " | "x" | "X")
            || inner.starts_with('^')
            || block[..open].ends_with(']')
            || is_marker_link_start(inner)
            || is_prompt_marker_start(inner)
            || (inner.as_bytes()[0].is_ascii_digit()
                && inner.bytes().all(|b| {
                    b.is_ascii_alphanumeric() || matches!(b, b',' | b' ' | b'-' | b'#' | b'=')
                }));
        if held {
            block.truncate(open);
        } else {
            // (A `](` in a code span that nothing closes yet is code, as
            // the preview shows it.)
            let label = open_code_span(inner).map_or(inner, |at| &inner[..at]);
            let label_end = label_ends(label)
                .next()
                .map_or(block.len(), |i| open + 1 + i);
            show_label(block, open, label_end);
        }
        return true;
    }
    // `[label](` … with the `]` typed: a link whose URL is still coming.
    let last_label_end = label_ends(block).next_back();
    if let Some(paren) = last_label_end {
        if !destination_is_closed(&block[paren + 2..]) {
            // `[[2]](https://…`: a marker link, which shows its number.
            if let Some((open, number)) = bracketed_number_label(&block[..paren]) {
                block.replace_range(open.., &number);
                return true;
            }
            if let Some(open) = matching_open(block, paren) {
                show_label(block, open, paren);
                return true;
            }
        }
    }
    // `[[2]]` may become a marker link (`[[2]](https://…)`, shown as `2`)
    // or stay `[` and `]` around a marker: it waits.
    let outer = block.strip_suffix(']').filter(|inner| inner.ends_with(']'));
    if let Some((open, _)) = outer.and_then(bracketed_number_label) {
        block.truncate(open);
        return true;
    }
    // (Not an escaped `\]`.)
    if block.ends_with(']') && !block.ends_with("\\]") {
        if let Some(open) = matching_open(block, block.len() - 1) {
            if block[..open].ends_with(']') {
                // A full reference's label: it shows as the link's text.
                block.truncate(open);
                return true;
            }
            let inner = &block[open + 1..block.len() - 1];
            if matches!(inner, " " | "x" | "X") {
                // A task box shows as one once its item has text.
                block.truncate(open);
                return true;
            }
            let marker = inner.bytes().next().is_some_and(|b| b.is_ascii_digit())
                || is_prompt_marker_start(inner);
            if !marker && !inner.starts_with('^') {
                show_label(block, open, block.len() - 1);
                return true;
            }
        }
    }
    false
}

/// `[[2]` ending `label` (a link's label up to its `]`): where it starts,
/// and the number.
fn bracketed_number_label(label: &str) -> Option<(usize, String)> {
    let inner = label.strip_suffix(']')?;
    let open = inner.find_last(b'[')?;
    let digits = &inner[open + 1..];
    let numeric = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    (numeric && inner[..open].ends_with('[')).then(|| (open - 1, digits.to_owned()))
}

/// Whether `inner` (after a `[`) starts as a marker link, `[2]` of
/// `[[2]](https://…)`, which shows as its number: held like `[2`.
fn is_marker_link_start(inner: &str) -> bool {
    inner.strip_prefix('[').is_some_and(|rest| {
        let digits = rest.split(']').next().unwrap_or_default();
        !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
    })
}

/// Whether `inner` (after a `[`) may be a prompt template's marker being
/// typed, `[citation:1` or `[Source: 1, 2`: held like `[1`, not shown as
/// a label that then turns into a citation.
fn is_prompt_marker_start(inner: &str) -> bool {
    let Some((word, numbers)) = inner.split_once(':') else {
        return false;
    };
    PROMPT_WORDS.iter().any(|w| w.eq_ignore_ascii_case(word))
        && numbers
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b',' | b' '))
}

/// Whether `label` (after a `[`), typed on, may yet become a prompt
/// template's marker ([`is_prompt_marker_start`]), which the preview holds
/// back: a prompt word or the start of one, as far as it is typed.
pub(super) fn may_become_prompt_marker(label: &str) -> bool {
    let word = label.split_once(':').map_or(label, |(word, _)| word);
    PROMPT_WORDS.iter().any(|w| {
        w.len() >= word.len()
            && w.is_char_boundary(word.len())
            && w[..word.len()].eq_ignore_ascii_case(word)
    })
}

/// OpenAI file search's `【3†source】` being typed at the end of `block`:
/// where its `【` is. (Its label is a file name, held to its `】`.)
fn unfinished_file_search_marker(block: &str) -> Option<usize> {
    let open = block.rfind(FILE_SEARCH_OPEN)?;
    let rest = &block[open + FILE_SEARCH_OPEN.len_utf8()..];
    let (number, label) = rest.split_once(FILE_SEARCH_DAGGER).unwrap_or((rest, ""));
    let number_like = number.bytes().all(|b| b.is_ascii_digit() || b == b':');
    (number_like && !label.contains([FILE_SEARCH_CLOSE, '\n'])).then_some(open)
}

/// How far back an inline `$` that nothing closed yet is held: further,
/// it is more likely a price or a variable in prose than math being typed.
const MATH_HOLD: usize = 200;

/// Math being typed at the end of `block`: where its opener is, when it
/// has no closer yet. `$$` and `\[` (display math) and `\(` are held to
/// their closers; a `$` before a letter or `\` only within [`MATH_HOLD`]
/// bytes, and not before a digit or a space (`$5`, `$ 5`: currency). Math
/// does not cross a block boundary: only the inline text that ends the
/// block is read (a `$5` in a paragraph pairs with no `$` in the heading
/// after it).
fn unfinished_math(block: &str) -> Option<usize> {
    if !has_any_byte(block, b"$\\") {
        return None;
    }
    let start = match has_byte(block, b'\n') {
        true => last_inline_start(block),
        false => 0,
    };
    unfinished_math_in(&block[start..]).map(|at| start + at)
}

/// Where the inline text that ends `block` starts: after the last line
/// that a block boundary follows (see [`block_boundary`]).
fn last_inline_start(block: &str) -> usize {
    let (mut start, mut line_start) = (0, 0);
    for newline in memchr::memchr_iter(b'\n', block.as_bytes()) {
        if block_boundary(&block[line_start..newline], &block[newline + 1..]) {
            start = newline + 1;
        }
        line_start = newline + 1;
    }
    start
}

/// [`unfinished_math`] in inline text.
fn unfinished_math_in(block: &str) -> Option<usize> {
    let bytes = block.as_bytes();
    let escaped = |at: usize| is_escaped(block, at);
    let display = block
        .match_indices("$$")
        .filter(|(at, _)| !escaped(*at))
        .count();
    if display % 2 == 1 {
        return block.rfind("$$");
    }
    for (open, close) in [("\\(", "\\)"), ("\\[", "\\]")] {
        let opener = block.rfind(open).filter(|&at| !escaped(at));
        if let Some(at) = opener.filter(|&at| !block[at..].contains(close)) {
            let marker_like = open == "\\["
                && block[at + 2..]
                    .bytes()
                    .all(|b| b.is_ascii_digit() || b == b',' || b == b' ');
            if !marker_like || at + 2 == block.len() {
                return Some(at);
            }
        }
    }
    let dollar = block.rfind('$').filter(|&at| !escaped(at))?;
    let single = (dollar == 0 || bytes[dollar - 1] != b'$') && bytes.get(dollar + 1) != Some(&b'$');
    let opens = bytes
        .get(dollar + 1)
        .is_none_or(|&b| b.is_ascii_alphabetic() || b == b'\\' || b == b'{');
    (single
        && opens
        && block.len() - dollar <= MATH_HOLD
        && block[..dollar].matches('$').count() % 2 == 0)
        .then_some(dollar)
}

/// Where the destination of the link being typed at the end of `text`
/// starts (after its `](`), when the preview shows its label alone: the
/// last `](` has a `[` before it and no `)` after.
pub(super) fn open_destination(text: &str) -> Option<usize> {
    let paren = label_ends(text).next_back()?;
    let at = paren + 2;
    (!destination_is_closed(&text[at..]) && has_byte(&text[..paren], b'[')).then_some(at)
}

/// Whether `text` holds a `](`, a link's label ending and its destination
/// starting.
pub(super) fn has_label_end(text: &str) -> bool {
    label_ends(text).next().is_some()
}

/// Whether every link destination in `text` (after a `](`) is closed.
pub(super) fn destinations_closed(text: &str) -> bool {
    label_ends(text).all(|at| destination_is_closed(&text[at + 2..]))
}

/// Whether a link destination (after its `(`) has its closing `)`:
/// parentheses inside it nest (`javascript:alert(1)` is not closed by its
/// own `)`).
fn destination_is_closed(destination: &str) -> bool {
    destination_len(destination.as_bytes()).is_some()
}

/// How long a link destination and title (after their `(`) are, up to and
/// with the `)` that closes them, as [`destination_is_closed`] reads them.
fn destination_len(destination: &[u8]) -> Option<usize> {
    let mut depth = 1usize;
    destination
        .iter()
        .position(|&b| {
            match b {
                b'(' => depth += 1,
                b')' => depth -= 1,
                _ => {}
            }
            depth == 0
        })
        .map(|at| at + 1)
}

/// A link being typed, its label from `open` (the `[`) to `label_end`:
/// the label shows alone. An image shows nothing yet (its alt text shows
/// only if its URL is refused), nor does a link in `(…)`, whose
/// parentheses go if it turns out to be a citation.
fn show_label(block: &mut String, open: usize, label_end: usize) {
    if block[..open].ends_with(['!', '(']) {
        block.truncate(open - 1);
        return;
    }
    // A link around an image (a badge, `[![alt]…`) shows no text either.
    if block[open + 1..label_end].starts_with("![") {
        block.truncate(open);
        return;
    }
    // Where a block's content starts, without its `[` a label could open
    // a block of its own (`[- a` a list item, `[# a` a heading): unless it
    // starts with a letter, it waits; and so does one that may yet be a
    // definition's (`[label]:`), until what follows its `]` says.
    let line_start = block[..open].find_last(b'\n').map_or(0, |i| i + 1);
    let at_content_start = block[line_start..open].bytes().all(|b| {
        matches!(
            b,
            b' ' | b'>' | b'-' | b'+' | b'*' | b'.' | b')' | b'0'..=b'9'
        )
    });
    let undecided = label_end + 1 >= block.len();
    if at_content_start
        && (undecided || !block[open + 1..label_end].starts_with(char::is_alphabetic))
    {
        block.truncate(open);
        return;
    }
    // (Brackets in a link's text are text: `[5]` there is no marker. In
    // a code span they are code, where a backslash would show:
    // `` [`#[derive]`](h ``; one that nothing closes yet runs to the
    // label's end, where the preview closes it.)
    let label = &block[open + 1..label_end];
    let mut shown = String::with_capacity(label.len() + 4);
    let mut code_end = 0;
    for (i, c) in label.char_indices() {
        if i >= code_end && c == '`' && !is_escaped(label, i) {
            code_end = code_span_at(label, i).1.unwrap_or(label.len());
        }
        if i >= code_end && matches!(c, '[' | ']') && !is_escaped(label, i) {
            shown.push('\\');
        }
        shown.push(c);
    }
    block.truncate(open);
    block.push_str(&shown);
}

/// Where the `[` is that the `]` at `close` closes (brackets escaped or in
/// code spans aside: a label holds none that matter here).
fn matching_open(block: &str, close: usize) -> Option<usize> {
    let bytes = block.as_bytes();
    let mut depth = 0usize;
    for i in (0..close).rev() {
        match bytes[i] {
            b'[' | b']' if is_escaped(block, i) => {}
            b']' => depth += 1,
            b'[' if depth == 0 => return Some(i),
            b'[' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// Whether `text` ends in a line's quote markers alone (`> >`), after
/// which a delimiter run starts the quote's line, as at the margin.
fn after_quote_markers(text: &str) -> bool {
    let markers = text
        .bytes()
        .rev()
        .take_while(|&b| b == b'>' || b == b' ')
        .count();
    text[..text.len() - markers].ends_with('\n') || markers == text.len()
}

/// Closes code spans and emphasis left open at the end, innermost first;
/// an opener with nothing after it yet is dropped instead. Whether
/// anything was cut (an opener dropped, or spaces ending the text), or
/// what was added may make the end read otherwise: then the text needs
/// another look.
/// (`open`: room for the openers, empty.)
fn close_open_spans(block: &mut String, open: &mut Vec<Delimiter>) -> bool {
    let unedited = block.len();
    let bytes = block.as_bytes();
    // Each unclosed opener: where it is, and its delimiter (a run of one
    // character).
    open.clear();
    // The bytes the loop looks at; others are skipped.
    const SPAN_BYTES: [bool; 256] = {
        let mut span_bytes = [false; 256];
        let mut i = 0;
        while i < 8 {
            span_bytes[b"\\`<*_~\n]"[i] as usize] = true;
            i += 1;
        }
        span_bytes
    };
    // How many openers of `*`, `_` and `~` the stack holds: a closer with
    // none of its own looks no further (a line of `*a_ ` would look
    // through every `*` at each `_`, its square in all).
    let mut openers = [0usize; 3];
    let slot = |b: u8| match b {
        b'*' => 0,
        b'_' => 1,
        _ => 2,
    };
    let mut i = 0;
    // Where the destination and title of the last link seen end.
    let mut no_emphasis_before = 0;
    // The backticks ending the text that wait (see below).
    let mut partial_closer = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if !SPAN_BYTES[usize::from(c)] {
            i += 1;
            continue;
        }
        if c == b'\n' {
            // No span opened before a block boundary closes after it.
            let line_start = block[..i].find_last(b'\n').map_or(0, |at| at + 1);
            if block_boundary(&block[line_start..i], &block[i + 1..]) {
                open.clear();
                openers = [0; 3];
            }
            i += 1;
            continue;
        }
        if c == b'\\' {
            // (A backslash ending a line escapes nothing: the line ends.)
            i += if bytes.get(i + 1) == Some(&b'\n') {
                1
            } else {
                2
            };
            continue;
        }
        if c == b'`' {
            let (n, end) = code_span_at(block, i);
            match end {
                Some(end) => i = end,
                None => {
                    // A shorter run ending the text may be its closer,
                    // typed in part: it waits (a closer added to it would
                    // make a run of another length, which closes nothing).
                    let partial = bytes.iter().rev().take_while(|&&b| b == b'`').count();
                    if partial < n && i + n + partial < bytes.len() {
                        partial_closer = partial;
                    }
                    open.push(Delimiter {
                        at: i,
                        byte: c,
                        len: n,
                        run: n,
                        both: false,
                    });
                    break;
                }
            }
            continue;
        }
        if c == b'<' {
            // Delimiters inside a tag (`target="_blank"`) are not emphasis.
            if let Some(end) = tag_end(&block[i + 1..]) {
                i += 1 + end;
                continue;
            }
        }
        if c == b']' {
            // Nor are those in a link's destination and title
            // (`](https://docs.rs/manual/_04_features/)`), read as the tail
            // reads them, whose settled text closes every one it opens
            // (`destinations_closed`): what follows it is previewed alike
            // alone. (A backtick there opens a code span to the rest of the
            // preview, which holds nothing back after it: it does here
            // too.)
            if bytes.get(i + 1) == Some(&b'(') {
                let rest = &bytes[i + 2..];
                no_emphasis_before = i + 2 + destination_len(rest).unwrap_or(rest.len());
            }
            i += 1;
            continue;
        }
        if matches!(c, b'*' | b'_' | b'~') {
            let n = run_length(bytes, i);
            if i < no_emphasis_before {
                i += n;
                continue;
            }
            // (After a line's quote markers a run starts the quote's line.)
            let before = block[..i]
                .chars()
                .next_back()
                .filter(|&b| b != '>' || !after_quote_markers(&block[..i]));
            let after = block[i + n..].chars().next();
            let (can_open, can_close) = flanking(c, before, after);
            let both = can_open && can_close;
            // A closer takes what it can from the nearest openers of its
            // character, as CommonMark pairs them: `**` closes two `*`
            // (`*a *b**`), a `*` one of `**` (the rest stays open); but
            // for the rule of 3 (runs that may both open and close pair
            // only when their lengths do not add up to a multiple of 3,
            // unless both are one), and `~` only with its own length.
            // Openers between the two are left as text.
            let mut count = n;
            while can_close && count > 0 && openers[slot(c)] > 0 {
                let Some(at) = open.iter().rposition(|d| {
                    d.byte == c
                        && (c != b'~' || d.run == n)
                        && (!both && !d.both || (n + d.run) % 3 != 0 || n % 3 == 0)
                }) else {
                    break;
                };
                let used = count.min(open[at].len);
                open[at].len -= used;
                count -= used;
                let kept = at + usize::from(open[at].len > 0);
                for gone in &open[kept..] {
                    openers[slot(gone.byte)] = openers[slot(gone.byte)].saturating_sub(1);
                }
                open.truncate(kept);
            }
            // (Only whitespace before it on its line, read back from it:
            // not the whole line at every run.)
            let bullet = c != b'~'
                && n == 1
                && after == Some(' ')
                && block[..i]
                    .chars()
                    .rev()
                    .find(|&b| b == '\n' || !b.is_whitespace())
                    .is_none_or(|b| b == '\n');
            // (What a closer leaves, its last characters, may open.)
            if count > 0
                && (can_open || after.is_none())
                && !bullet
                && (c != b'~' || n == 2 || after.is_none())
            {
                open.push(Delimiter {
                    at: i + n - count,
                    byte: c,
                    len: count,
                    run: n,
                    both,
                });
                openers[slot(c)] += 1;
            }
            i += n;
            continue;
        }
        i += 1;
    }
    block.truncate(block.len() - partial_closer);
    // Innermost first: an opener with nothing after it (once the openers
    // inside it are gone) goes, with everything closed inside it; the
    // openers outside the outermost one that goes are closed.
    let mut end = block.len();
    let mut closed = open.len();
    for (index, delimiter) in open.iter().enumerate().rev() {
        if block[delimiter.at + delimiter.len..end].trim().is_empty() {
            end = delimiter.at;
            closed = index;
        }
    }
    block.truncate(end);
    let trimmed = block.trim_end_matches([' ', '\t']).len();
    block.truncate(trimmed);
    // The closers go after the last line's text: not after the line ending
    // that ends it (on a line of their own, `*` starts a list item and
    // `` ``` `` a fence), nor after its trailing spaces (they could not
    // close there; those of a hard break stay).
    let at = block
        .trim_end_matches(['\n', '\r'])
        .trim_end_matches([' ', '\t'])
        .len();
    let ended_in_delimiter = block[..at].ends_with(['`', '*', '_', '~']);
    let mut closers_end = at;
    for delimiter in open[..closed].iter().rev() {
        for _ in 0..delimiter.len {
            block.insert(closers_end, char::from(delimiter.byte));
            closers_end += 1;
        }
    }
    // (Closers added may run into a delimiter ending the text or into each
    // other, and the run read again closes otherwise; brackets before a backtick ending the
    // text are left as typed, not once a closer follows it; closers may
    // make their line one of only `-`, `=`, `*` or `_`, a rule or an
    // underline.)
    let closers = &open[..closed];
    let runs_merge = closed > 0 && ended_in_delimiter
        || closers.iter().any(|d| d.byte == b'`')
        || closers.windows(2).any(|pair| pair[0].byte == pair[1].byte);
    let line_start = block[..closers_end].find_last(b'\n').map_or(0, |i| i + 1);
    let rule_made = closed > 0
        && block[line_start..closers_end]
            .bytes()
            .all(|b| matches!(b, b'-' | b'=' | b'*' | b'_' | b' '));
    open.clear();
    trimmed != unedited || runs_merge || rule_made
}

/// Whether a run of `delimiter` between `before` and `after` (`None`: the
/// block's start or end) can open and close emphasis. `*` and `_` go by
/// CommonMark's flanking rules where the inline subset knows the
/// neighbours' classes (a `*` after a letter and before `[` opens
/// nothing); otherwise, and for `~`, a run opens before anything but
/// whitespace and closes after anything but whitespace (a `_` not inside
/// a word).
fn flanking(delimiter: u8, before: Option<char>, after: Option<char>) -> (bool, bool) {
    let class = |c: Option<char>| match c {
        Some(c) if c.is_whitespace() => Class::Space,
        c => Class::of(c),
    };
    if delimiter != b'~' {
        if let Some(known) = can_open_close(delimiter, class(before), class(after)) {
            return known;
        }
    }
    let can_open = after.is_some_and(|a| !a.is_whitespace())
        && !(delimiter == b'_' && before.is_some_and(char::is_alphanumeric));
    let can_close = before.is_some_and(|b| !b.is_whitespace())
        && !(delimiter == b'_' && after.is_some_and(char::is_alphanumeric));
    (can_open, can_close)
}

/// Whether a block ends between `line` and the text `next` that starts on
/// the line after it, as far as spans go: `line` is a heading or a rule
/// (one-line blocks), or `next` starts one, or a block quote after a line
/// outside it, or a list item that can interrupt a paragraph (a bullet, or
/// `1.`/`1)`, with content: CommonMark lets no other item do so).
fn block_boundary(line: &str, next: &str) -> bool {
    let next = next.split('\n').next().unwrap_or_default();
    let quote = |line: &str| line.trim_start_matches(' ').starts_with('>');
    let item = item_marker(next).is_some_and(|(mark, rest)| {
        let numbered_one = next.starts_with("1.") || next.starts_with("1)");
        (matches!(mark, ItemMark::Bullet(_)) || numbered_one) && !rest.trim().is_empty()
    });
    one_line_block(line) || one_line_block(next) || (quote(next) && !quote(line)) || item
}

/// Whether `line` is an ATX heading or a thematic break (up to three
/// spaces in), a block of one line.
fn one_line_block(line: &str) -> bool {
    let content = line.trim_start_matches(' ');
    if line.len() - content.len() > 3 {
        return false;
    }
    let hashes = content.bytes().take_while(|&b| b == b'#').count();
    let heading = (1..=6).contains(&hashes)
        && content[hashes..]
            .chars()
            .next()
            .is_none_or(|c| c == ' ' || c == '\t');
    let rule = content.bytes().next().is_some_and(|first| {
        matches!(first, b'*' | b'-' | b'_')
            && content
                .bytes()
                .all(|b| b == first || b == b' ' || b == b'\t')
            && content.bytes().filter(|&b| b == first).count() >= 3
    });
    heading || rule
}

/// An emphasis or code span opener: where it is, its character and how
/// many of it are still open, of a run of `run` that may also close
/// (`both`).
struct Delimiter {
    at: usize,
    byte: u8,
    len: usize,
    run: usize,
    both: bool,
}

/// How many times the byte at `i` repeats from there.
fn run_length(bytes: &[u8], i: usize) -> usize {
    bytes[i..].iter().take_while(|&&b| b == bytes[i]).count()
}

/// The backtick run at `at` in `text`: its length, and where the code span
/// it opens ends (after its closing run) when a run of the same length
/// comes later. As CommonMark reads code spans: the first later run of
/// exactly that length closes it, and a longer or shorter run is code
/// (`` ``a```b`` `` is one span).
pub(super) fn code_span_at(text: &str, at: usize) -> (usize, Option<usize>) {
    let bytes = text.as_bytes();
    let n = run_length(bytes, at);
    let mut from = at + n;
    while let Some(found) = memchr::memchr(b'`', &bytes[from..]) {
        let run_at = from + found;
        let run = run_length(bytes, run_at);
        if run == n {
            return (n, Some(run_at + n));
        }
        from = run_at + run;
    }
    (n, None)
}

/// Where `](` stands in `text`: a link's label ending and its destination
/// starting. (By `]`, rare in prose: this runs at every push.)
fn label_ends(text: &str) -> impl DoubleEndedIterator<Item = usize> + '_ {
    let bytes = text.as_bytes();
    memchr::memchr_iter(b']', bytes).filter(move |&at| bytes.get(at + 1) == Some(&b'('))
}

#[cfg(test)]
mod tests {
    use super::preview;

    #[track_caller]
    fn shows(open: &str, expected: &str) {
        assert_eq!(preview(open).text, expected, "{open:?}");
    }

    #[test]
    fn unclosed_spans_render_closed() {
        shows("some **bol", "some **bol**");
        shows("a *it", "a *it*");
        shows("x `co", "x `co`");
        // (Only a run of the opening run's length closes a code span.)
        shows("x ``a```b", "x ``a```b``");
        shows("x ``a```b`` c `d", "x ``a```b`` c `d`");
        // (A shorter run ending the text may be the closer, typed in part.)
        shows("x ``a`", "x ``a``");
        shows("x ``a`b", "x ``a`b``");
        shows("~~gone", "~~gone~~");
        shows("**a _b", "**a _b_**");
        shows("done **", "done");
        shows("snake_case and", "snake_case and");
        shows("* item", "* item");
        shows("**a** b", "**a** b");
        // (A closer takes what it can from the openers of its character.)
        shows("*q *w** z", "*q *w** z");
        shows("**q *w* z", "**q *w* z**");
        shows("***q* z", "***q* z**");
        shows("*q **w* z", "*q **w* z**");
        // (Closers go after the last line's text, and by the flanking
        // rules: a `*` after a letter, before `(`, opens nothing.)
        shows("a *b\n", "a *b*\n");
        shows("a *b  \r\n", "a *b*  \r\n");
        shows("2*(x+1) now", "2*(x+1) now");
        // (A link's destination and title hold no delimiters, closed or
        // being typed: corpus README `rustls` flashed `features_`.)
        shows(
            "[a](https://h/_04_b/i.html). P",
            "[a](https://h/_04_b/i.html). P",
        );
        shows("[a](/u_(x)_ \"*t\") *b", "[a](/u_(x)_ \"*t\") *b*");
        shows("[a](/u_) x\n*b", "[a](/u_) x\n*b*");
    }

    #[test]
    fn half_written_links_and_markers() {
        shows("see [1", "see");
        shows("see [1, 2", "see");
        shows("see [the docs](https://exa", "see the docs");
        shows("[here](javascript:alert(1)", "here");
        shows("a <cite id='\"><img src=x>", "a");
        shows("see [the docs", "see the docs");
        shows("see [the docs]", "see the docs");
        shows(
            "see [the table [5]](https://fx.exa",
            "see the table \\[5\\]",
        );
        shows("see [the table [5]]", "see the table \\[5\\]");
        // (Corpus README `serde`: no backslash in a code span.)
        shows(
            "- [Setting up `#[derive(A)]` [x]](http",
            "- Setting up `#[derive(A)]` \\[x\\]",
        );
        shows("higher [3].\\\n", "higher [3].");
        shows("a\\\\\n", "a\\\\\n");
        shows("a\n\n[^1]:", "a\n\n");
        shows("a\n\n[^note]: ", "a\n\n");
        shows("a\n\n[^note]: b", "a\n\n[^note]: b");
        shows("a\n\n[1]:", "a\n\n");
        shows("a\n\n[1]: https://x.example/ \"Tit", "a\n\n");
        shows("see [[2]", "see");
        shows("\\(n\\) [[2]", "\\(n\\)");
        // (At a block's start, a label may yet be a definition's.)
        shows("[the docs", "");
        shows("[the docs]", "");
        shows("[the docs](https://x.exa", "the docs");
        shows("see [Q2 deck][de", "see Q2 deck");
        shows("see [Q2 deck][deck]", "see Q2 deck");
        shows("# Serde [![Build Status]", "# Serde");
        shows("is [`serde_json::Val", "is `serde_json::Val`");
        shows("x `a[0` and [1", "x `a[0` and");
        shows("# Serde [![Build Status]](https://ci.exa", "# Serde");
        shows("a\n\n[- [ ] b", "a\n\n");
        shows("- [1. step", "-");
        shows("> [# title](https://", ">");
        shows("done [1]", "done [1]");
        shows("- [ ]", "-");
        shows("see [^fo", "see");
        shows("see [^1^", "see");
        shows("see [citation:1", "see");
        shows("see [Source: 1, ", "see");
        shows("see [citation:1]", "see [citation:1]");
        shows("see [source: the report", "see source: the report");
        shows("see \u{3010}3", "see");
        shows("see \u{3010}3:0\u{2020}report.p", "see");
        shows(
            "see \u{3010}3\u{2020}source\u{3011}",
            "see \u{3010}3\u{2020}source\u{3011}",
        );
        shows(
            "\u{3010}note\u{3011} \u{3010}title",
            "\u{3010}note\u{3011} \u{3010}title",
        );
        shows("half ([open query](https://app/-/open-q", "half");
        shows("see [[2]](https://x.example/a", "see 2");
        shows("see [[2]](", "see");
        shows("see [[2]]", "see");
        shows("so $x^2", "so");
        shows("so $x^2$ and $", "so $x^2$ and");
        shows("costs $5\n# Why $x", "costs $5\n# Why");
        shows("costs $5 and", "costs $5 and");
        shows("so $$\nE = mc", "so");
        shows("so \\(a_1", "so");
        shows("so \\[ \\frac", "so");
        shows("so \\(a\\) b", "so \\(a\\) b");
        shows("see \\[1", "see \\[1");
        shows("see \\[1\\] more", "see \\[1\\] more");
        shows("half (", "half");
        // (Shown as its label, escaped, the text keeps its length: the
        // `((` it bares goes all the same.)
        shows("x [([[1](]((](h", "x (\\[\\[1\\](\\]");
        shows(
            "([l](https://a.example/)) [\\]",
            "([l](https://a.example/)) \\]",
        );
    }

    #[test]
    fn half_written_tags_urls_entities() {
        shows("by <cite id=\"ca", "by");
        shows("by <cite id=\"a\">rev</ci", "by <cite id=\"a\">rev");
        shows("at https://app/-/ai/conv", "at");
        shows("at http", "at");
        shows("a &am", "a");
        shows("a \\", "a");
        shows("fine: !", "fine:");
        shows("above.\n\n--", "above.\n\n");
        shows("here: h", "here:");
        shows("<a target=\"_blank\">a link", "<a target=\"_blank\">a link");
        shows("odd <cite id='\">", "odd");
        shows("however", "however");
        shows("March:\n1", "March:\n");
        shows("an ![lo", "an");
        shows("  - [ ] `", "  -");
        shows("x `[a](b", "x `[a](b`");
        shows("That ~2.8", "That ~2.8");
    }

    #[test]
    fn a_bare_marker_shows_nothing_yet() {
        // (After a line, an underline would make the paragraph a heading;
        // an item's marker, or the text going on, shows when more comes;
        // a heading's `#`s show when its text does.)
        for marker in ["-", "- ", "=", "+", "*", "1.", "2) ", "--", "***"] {
            shows(&format!("Steps:\n{marker}"), "Steps:\n");
            shows(&format!("> Steps:\n> {marker}"), "> Steps:\n");
        }
        shows("- a\n  -", "- a\n");
        shows("Steps:\n- a", "Steps:\n- a");
        shows("Steps:\n1. a", "Steps:\n1. a");
        shows("Steps:\n-a", "Steps:\n-a");
        shows("In\n1984", "In\n");
        shows("In\n1984.", "In\n");
        shows("In\n1984. It", "In\n1984. It");
        for heading in ["#", "## ", "Intro\n\n###", "Intro\n#", "> ##"] {
            let line_start = heading.rfind('\n').map_or(0, |i| i + 1);
            shows(heading, &heading[..line_start]);
        }
        shows("#hashtag", "#hashtag");
        shows("####### seven", "####### seven");
    }

    #[test]
    fn wide_whitespace_ends_a_word() {
        shows("see [1]\u{a0}x", "see [1]\u{a0}x");
        shows("at\u{3000}http", "at\u{3000}");
        shows("at\u{a0}\u{a0}https://app/-/ai", "at\u{a0}\u{a0}");
    }

    #[test]
    fn tables_wait_for_their_delimiter_row() {
        shows("Intro\n\n| a | b |\n", "Intro\n\n");
        shows("Intro\n\n| a | b |\n|--", "Intro\n\n");
        shows("Intro\n\n|", "Intro\n\n");
        shows("| a | b |\n|---|---|\n| 1 |", "| a | b |\n|---|---|\n");
        // (`- |` after a header is its delimiter row, not a list item.)
        shows("| a |\n- |\nb", "| a |\n- |\n");
    }

    #[test]
    fn open_fences_stay_code() {
        shows("```rust\nlet a = `x", "```rust\nlet a = `x");
        shows("```\ncode\n``", "```\ncode\n");
        shows("```\ncode\n```\n\nmore *x", "```\ncode\n```\n\nmore *x*");
    }
}
