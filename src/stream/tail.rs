//! The tail, rendered incrementally: a push re-renders what it changed,
//! not the whole open text.
//!
//! Rendering the open text whole on every push would cost (open size ÷
//! chunk size) per byte of the message. Instead the tail keeps what it
//! knows about the last line, which is where pushes land:
//! - [`State::Inline`]: the last line's text up to a word boundary is
//!   settled — no emphasis, code span, link, tag or citation before the
//!   boundary can still change — so its HTML (`head`) and the tags closing
//!   its blocks (`closers`) are kept. Plain words (no markdown syntax) are
//!   added to `head` as they come, without parsing; anything else
//!   re-renders only the words since the boundary, behind a stand-in word
//!   (`x `) so that they parse as the same inline text. That rendering is
//!   also made once with a stand-in character at its end ([`TYPING`]):
//!   plain text typed next, inside a span still open (`**bold wor…`),
//!   goes where the character came out, again without parsing. A line
//!   whose words cannot settle yet (`1. **Make the…`) is settled at the
//!   start of its inline content instead, its blocks' HTML found by
//!   rendering the text before with a stand-in letter. While the preview
//!   shows the same text (a tag or a URL being typed, held back), the last
//!   rendering is reused.
//! - [`State::Code`]: inside a code fence at the margin, lines that cannot
//!   close the fence are escaped onto the block.
//! - [`State::HeldRow`]: a table row shows only once it is whole, so the
//!   tail stays the same until its line ends.
//!
//! A newline, or anything a state cannot vouch for, renders the open text
//! whole and sets up a state again. Tests check push by push that the
//! cached tail equals the whole render.

use pulldown_cmark_escape::escape_html_body_text;

use super::preview::{last_block_start, preview, Preview, RowHold};
use crate::cite::index::IndexBuilder;

/// Renders text of the open part as HTML, continuing the citation state
/// `after` (`None`: after the committed part); returns the HTML and the
/// state after it.
pub(super) type Render<'r> = dyn Fn(&str, Option<&IndexBuilder>) -> (String, IndexBuilder) + 'r;

/// What the tail remembers between pushes (positions are in the open text).
#[derive(Debug, Clone, Default)]
pub(super) struct Tail {
    state: Option<State>,
    /// The last line and length at which setting up [`State::Inline`]
    /// failed after rendering: retried only once the line has grown.
    failed_at: Option<(usize, usize)>,
    /// The last whole rendering: what the preview showed, and its HTML.
    /// While the preview shows the same (a row or a tag held back), so
    /// does the tail.
    last_whole: Option<Rendering>,
}

/// What the preview showed, and its HTML.
#[derive(Debug, Clone)]
struct Rendering {
    shown: String,
    html: String,
}

impl Rendering {
    /// `shown` rendered, or the HTML kept for it.
    fn of(
        kept: &mut Option<Rendering>,
        shown: &str,
        render: impl FnOnce(&str) -> String,
    ) -> String {
        match kept {
            Some(kept) if kept.shown == shown => kept.html.clone(),
            _ => {
                let html = render(shown);
                *kept = Some(Rendering {
                    shown: shown.to_owned(),
                    html: html.clone(),
                });
                html
            }
        }
    }
}

#[derive(Debug, Clone)]
enum State {
    HeldRow {
        line_start: usize,
        hold: RowHold,
        html: String,
    },
    Inline(Box<SettledLine>),
    Code {
        at: usize,
        head: String,
        fence_char: u8,
    },
}

/// A line whose text up to `at` is settled.
#[derive(Debug, Clone)]
struct SettledLine {
    line_start: usize,
    /// Where the settled text ends (after a space).
    at: usize,
    /// The HTML up to `at`, and the tags closing its blocks.
    head: String,
    /// The spaces ending `head` as typed: they end the paragraph, and go,
    /// if nothing follows them.
    typed_spaces: usize,
    closers: String,
    /// A heading's line: `#` may be its closing sequence.
    heading: bool,
    /// Settled up to the start of the line's content, with nothing of it:
    /// if all of it is held back, its block renders differently.
    at_content_start: bool,
    /// The citation state after `at`.
    index: IndexBuilder,
    /// The open text's length when the text since `at` was last rendered.
    rendered_to: usize,
    /// That text rendered with [`TYPING`] at its end.
    typing: Typing,
    /// The last rendering of the text since `at`, behind the stand-in.
    last_piece: Option<Rendering>,
}

/// The text since a settled line's end rendered with [`TYPING`] after it.
#[derive(Debug, Clone)]
enum Typing {
    NotRendered,
    /// The HTML before and after it: plain text typed since goes in
    /// between, without rendering again.
    Split(String, String),
    /// Not found where typed text would be.
    Unusable,
}

/// Stands for text typed after a rendering: it parses as a letter would,
/// and is found in the HTML by being unlike anything else.
const TYPING: &str = "\u{E000}";

/// How far the line must grow before setting up a state is tried again.
const RETRY_AFTER: usize = 32;
/// The stand-in word rendered before unsettled text.
const STAND_IN: &str = "x ";
/// The tags that close a code block at the margin.
const CODE_CLOSERS: &str = "</code></pre>\n";

impl Tail {
    /// Forgets everything: the open text was cut or replaced.
    pub(super) fn reset(&mut self) {
        *self = Tail::default();
    }

    /// The tail's HTML for `open`, which extends the open text of the last
    /// call (or anything, after [`Tail::reset`]).
    /// `line_start`: where the last line of `open` starts.
    pub(super) fn render(&mut self, open: &str, line_start: usize, render: &Render<'_>) -> String {
        let cached = match &self.state {
            Some(State::HeldRow {
                line_start: held,
                hold,
                html,
            }) if *held == line_start && still_held(*hold, &open[line_start..]) => {
                Some(html.clone())
            }
            Some(State::Inline(line)) if line.line_start == line_start => self.inline(open, render),
            Some(State::Inline(_)) => self.line_ended(open, line_start, render),
            Some(State::Code { .. }) => self.code(open),
            _ => None,
        };
        if let Some(html) = cached {
            return html;
        }
        self.state = None;
        if let Some(html) = self.settle_inline(open, line_start, render) {
            return html;
        }
        let shown = preview(open);
        let html = Rendering::of(&mut self.last_whole, &shown.text, |text| {
            render(text, None).0
        });
        self.remember(open, line_start, &shown, &html);
        html
    }

    /// After a whole render: a held table row or a code block at the margin.
    fn remember(&mut self, open: &str, line_start: usize, shown: &Preview<'_>, html: &str) {
        if let Some(hold) = shown.holds_row {
            self.state = Some(State::HeldRow {
                line_start,
                hold,
                html: html.to_owned(),
            });
        } else if let Some(fence_char) = shown
            .in_margin_fence
            .filter(|_| shown.text == open && !has_html_line(open))
        {
            // The block must be the fence the preview sees open (an HTML
            // block can hide a fence from it, and then its HTML may hold
            // the same lines by chance): the HTML's code block holds
            // exactly the lines since the fence's.
            let fence = char::from(fence_char).to_string().repeat(3);
            let content_start = open[..line_start]
                .split_inclusive('\n')
                .scan(0, |at, line| {
                    *at += line.len();
                    Some((*at, line))
                })
                .filter(|(_, line)| line.trim_start_matches(' ').starts_with(&fence))
                .last()
                .map(|(end, _)| end);
            let mut content = String::new();
            let _ = escape_html_body_text(&mut content, &open[content_start.unwrap_or(0)..]);
            let head = html
                .strip_suffix(CODE_CLOSERS)
                .filter(|_| content_start.is_some())
                .and_then(|code| {
                    let code_start = code
                        .rfind("<code")
                        .and_then(|i| code[i..].find('>').map(|j| i + j + 1))?;
                    (code[code_start..] == content).then_some(code)
                })
                .and_then(|code| {
                    let mut partial = String::new();
                    let _ = escape_html_body_text(&mut partial, &open[line_start..]);
                    code.strip_suffix(partial.as_str())
                });
            if let Some(head) = head {
                self.state = Some(State::Code {
                    at: line_start,
                    head: head.to_owned(),
                    fence_char,
                });
            }
        }
    }

    /// In a code block: the new text escaped onto it, unless one of its
    /// lines might be the closing fence.
    fn code(&mut self, open: &str) -> Option<String> {
        let Some(State::Code {
            at,
            head,
            fence_char,
        }) = &mut self.state
        else {
            return None;
        };
        let from_line = open.get(..*at)?.rfind('\n').map_or(0, |i| i + 1);
        let may_close = open[from_line..]
            .split('\n')
            .any(|line| line.trim_start_matches(' ').as_bytes().first() == Some(fence_char));
        if may_close || open[*at..].contains(['\r', '\0']) {
            return None;
        }
        // Whole lines join the block. (How a last line of only spaces
        // shows depends on its length: left to the whole render.)
        let complete = open.rfind('\n').map_or(*at, |i| (i + 1).max(*at));
        let partial = &open[complete..];
        if !partial.is_empty() && partial.trim_start_matches(' ').is_empty() {
            return None;
        }
        let _ = escape_html_body_text(&mut *head, &open[*at..complete]);
        *at = complete;
        let mut html = head.clone();
        let _ = escape_html_body_text(&mut html, partial);
        html.push_str(CODE_CLOSERS);
        Some(html)
    }

    /// Sets up [`State::Inline`] at the last word boundary of the last
    /// line, if the text before it is settled; returns the tail.
    fn settle_inline(
        &mut self,
        open: &str,
        line_start: usize,
        render: &Render<'_>,
    ) -> Option<String> {
        let line = &open[line_start..];
        if self.failed_at.is_some_and(|(failed_line, len)| {
            failed_line == line_start && open.len() < len + RETRY_AFTER
        }) {
            return None;
        }
        // Tables, footnotes and definitions in the open text, and raw HTML
        // blocks change how a line renders in ways a word cannot show.
        // Raw HTML anywhere in the block is balanced by the sanitizer at
        // its end, wherever that is. (So do fences: the preview may see
        // one open where the parser sees raw HTML; and pipes: the preview
        // may hold a row of a table the parser does not see.)
        let block = &open[last_block_start(open)..];
        if line.contains(['\t', '\r'])
            || block.contains('|')
            || open.contains("[^")
            || open.contains("]:")
            || open.contains("```")
            || open.contains("~~~")
            || !tags_are_cites(block)
        {
            return None;
        }
        // Settled up to the line's last word boundary; else, when its
        // content starts as inline text, up to that start (an item or a
        // heading opening with `**Bold`).
        // The preview edits the last block from its end, and may reach
        // back (hiding `[1` can bare a URL, which is held too; a `**` left
        // open earlier in the block is closed at its end): the block up to
        // the settled end must be left as it is.
        // (A cite tag left open on an earlier line of the block takes in
        // what comes after it.)
        let block_is_settled = |at: usize| {
            let block = &open[last_block_start(&open[..at])..at];
            cite_tags(block) == Some(0) && is_settled(block)
        };
        let by_words = word_boundary(line)
            .map(|boundary| line_start + boundary)
            .filter(|&at| line_is_settled(&open[line_start..at]) && block_is_settled(at));
        let (at, stand_in) = match by_words {
            Some(at) => (at, ""),
            None => {
                let at = line_start + inline_content_start(line)?;
                (at, "x")
            }
        };
        if stand_in == "x" && !block_is_settled(at) {
            return None;
        }
        let settled = &open[..at];
        let (html, index) = render(&[settled, stand_in].concat(), None);
        let split = split_closers(&html).and_then(|(head, closers, heading)| {
            Some((head.strip_suffix(stand_in)?, closers, heading))
        });
        let Some((head, closers, heading)) = split else {
            self.failed_at = Some((line_start, open.len()));
            return None;
        };
        // (A space the rendering kept, after a tag that rendered nothing,
        // is one the preview would trim: the spaces must be the typed ones.
        // A heading's text ending in `#` ended in its closing sequence,
        // which text after it turns back into text.)
        let closing_sequence = heading && stand_in.is_empty() && settled.trim_end().ends_with('#');
        if !text_is_settled(innermost_block(head))
            || head.ends_with(' ')
            || closing_sequence
            || !cites_paired(settled, head)
        {
            self.failed_at = Some((line_start, open.len()));
            return None;
        }
        let spaces = match stand_in {
            "" => &settled[settled.trim_end_matches(' ').len()..],
            _ => "",
        };
        self.state = Some(State::Inline(Box::new(SettledLine {
            line_start,
            at,
            head: [head, spaces].concat(),
            typed_spaces: spaces.len(),
            closers: closers.to_owned(),
            heading,
            at_content_start: !stand_in.is_empty(),
            index,
            rendered_to: at,
            typing: Typing::NotRendered,
            last_piece: None,
        })));
        self.inline(open, render)
    }

    /// Just after the newline that ends a settled line whose text since
    /// the settled point has nothing unfinished (the preview leaves it as
    /// it is): the block shows as that text would at the line's end (a
    /// paragraph or an item ends the same way at a newline as at its last
    /// word), so only that text is rendered, not the open text.
    fn line_ended(&mut self, open: &str, line_start: usize, render: &Render<'_>) -> Option<String> {
        let Some(State::Inline(line)) = &mut self.state else {
            return None;
        };
        let newline = line_start.checked_sub(1)?;
        let ended_line_start = open[..newline].rfind('\n').map_or(0, |i| i + 1);
        if line_start != open.len() || ended_line_start != line.line_start {
            return None;
        }
        let pending = open.get(line.at..newline)?;
        if let Some(html) = line.plain(pending) {
            return Some(html);
        }
        let piece = [STAND_IN, pending].concat();
        if preview(&piece).text != piece {
            return None;
        }
        let html = Rendering::of(&mut line.last_piece, &piece, |text| {
            render(text, Some(&line.index)).0
        });
        let (inner, keep_spaces) = stand_in_content(&html)?;
        line.compose(inner, keep_spaces)
    }

    /// On a settled line: the head, the text since it, and the closers.
    fn inline(&mut self, open: &str, render: &Render<'_>) -> Option<String> {
        let Some(State::Inline(line)) = &mut self.state else {
            return None;
        };
        let pending = open.get(line.at..)?;
        // A heading's `#` may close it; a `]` or `)` without its opener
        // here may pair with one in the settled text (for the preview).
        if line.heading && pending.contains('#')
            || closes_before_opening(pending, b'[', b']')
            || closes_before_opening(pending, b'(', b')')
        {
            return None;
        }
        if let Some(html) = line.plain(pending) {
            return Some(html);
        }
        if let Some(html) = line.typed(open, render) {
            return Some(html);
        }
        // Settle the words before the last boundary first, so that the
        // next push re-renders less.
        if let Some(boundary) = word_boundary(pending) {
            let words = &pending[..boundary];
            let piece = [STAND_IN, words].concat();
            if line_is_settled(words) && may_be_settled(words) && is_settled(&piece) {
                let (html, after) = render(&piece, Some(&line.index));
                let settled = |(inner, _): &(&str, bool)| {
                    text_is_settled(inner) && !inner.ends_with(' ') && cites_paired(words, inner)
                };
                if let Some((inner, _)) = stand_in_content(&html).filter(settled) {
                    let spaces = &words[words.trim_end_matches(' ').len()..];
                    line.advance(&[inner, spaces].concat(), boundary, Some(after));
                    if let Some(html) = line.plain(&open[line.at..]) {
                        return Some(html);
                    }
                }
            }
        }
        let piece = [STAND_IN, &open[line.at..]].concat();
        let shown = preview(&piece);
        // (All of it held back, it shows nothing: no need to render.)
        let html = match shown.text.as_ref() {
            "x" => "<p>x</p>\n".to_owned(),
            text => Rendering::of(&mut line.last_piece, text, |text| {
                render(text, Some(&line.index)).0
            }),
        };
        let (inner, keep_spaces) = stand_in_content(&html)?;
        let html = line.compose(inner, keep_spaces)?;
        line.rendered_to = open.len();
        line.typing = Typing::NotRendered;
        Some(html)
    }
}

impl SettledLine {
    /// When `pending`, the text since `at`, has no syntax: the tail, with
    /// no rendering; the words before its last boundary settle.
    fn plain(&mut self, pending: &str) -> Option<String> {
        if !is_plain(pending) || has_url_like_word(pending) {
            return None;
        }
        let shown = pending.trim_end_matches(' ');
        let html = self.compose(shown, !shown.is_empty())?;
        if let Some(boundary) = word_boundary(pending) {
            self.advance(&pending[..boundary], boundary, None);
        }
        Some(html)
    }

    /// Moves the settled end `by` bytes on, its HTML being `html`.
    fn advance(&mut self, html: &str, by: usize, index: Option<IndexBuilder>) {
        self.head.push_str(html);
        self.typed_spaces = html.len() - html.trim_end_matches(' ').len();
        self.at += by;
        self.at_content_start = false;
        self.last_piece = None;
        if let Some(index) = index {
            self.index.absorb(index);
        }
        self.rendered_to = self.rendered_to.max(self.at);
        self.typing = Typing::NotRendered;
    }

    /// When only plain text was typed since the last rendering: that
    /// rendering with the text put where [`TYPING`] was.
    fn typed(&mut self, open: &str, render: &Render<'_>) -> Option<String> {
        let typed = open.get(self.rendered_to..)?;
        let before = open[..self.rendered_to].chars().next_back()?;
        // The words typed text goes on or starts.
        let words = &open[open[..self.rendered_to].rfind(' ').map_or(0, |i| i + 1)..];
        let plain = !typed.trim_end_matches(' ').is_empty()
            && is_plain(typed)
            && !has_url_like_word(words)
            // Raw HTML is balanced by the sanitizer around the end of the
            // rendered text, wherever that is.
            && tags_are_cites(&open[self.at..])
            // Typed text must go on as the stand-in would: after `<`, `&`
            // or `\` a letter starts a tag, entity or escape; next to a
            // delimiter a letter and a space differ (`**x` opens, `** `
            // does not). (After `_`, a letter and the stand-in differ too:
            // the preview reads `_é` as opening, `_` + stand-in as closing.)
            && (before.is_alphanumeric()
                || before == ' '
                || (matches!(before, '*' | '~' | '`' | '[' | '(')
                    && typed.starts_with(char::is_alphanumeric)))
            // In a word with `&`, `<` or `\`, letters make an entity, a tag
            // name or an escape.
            && !words.contains(['&', '<', '\\'])
            // After `[1`, digits and `,` `-` `#` go on a marker; letters
            // make it text, as the stand-in does.
            && (!open[self.at..].contains('[')
                || typed.chars().all(|c| c.is_alphabetic() || c == ' '));
        if !plain {
            return None;
        }
        if matches!(self.typing, Typing::NotRendered) {
            let piece = [STAND_IN, &open[self.at..self.rendered_to], TYPING].concat();
            let shown = preview(&piece);
            // (Held back, the stand-in shows nothing: no need to render.)
            let split = shown
                .text
                .contains(TYPING)
                .then(|| render(&shown.text, Some(&self.index)).0);
            let split = split
                .as_deref()
                .and_then(stand_in_content)
                .and_then(|(inner, _)| split_at_typing(inner));
            self.typing = match split {
                Some((before, after)) => Typing::Split(
                    [&self.head, before].concat(),
                    [after, &self.closers].concat(),
                ),
                None => Typing::Unusable,
            };
        }
        let Typing::Split(before, after) = &self.typing else {
            return None;
        };
        Some([before.as_str(), typed.trim_end_matches(' '), after].concat())
    }
}

/// `html` around its one [`TYPING`] character, which must be in text (not
/// in an attribute, and not repeated in one either).
fn split_at_typing(html: &str) -> Option<(&str, &str)> {
    let at = html.find(TYPING)?;
    let (before, after) = (&html[..at], &html[at + TYPING.len()..]);
    let in_text = before
        .rfind(['<', '>'])
        .is_none_or(|i| before.as_bytes()[i] == b'>');
    (in_text && !after.contains(TYPING)).then_some((before, after))
}

/// Whether `text` has a `close` with no `open` before it (both ASCII).
fn closes_before_opening(text: &str, open: u8, close: u8) -> bool {
    if memchr::memchr(close, text.as_bytes()).is_none() {
        return false;
    }
    let mut depth = 0usize;
    text.bytes().any(|b| {
        if b == open {
            depth += 1;
        } else if b == close {
            match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => return true,
            }
        }
        false
    })
}

impl SettledLine {
    /// `head` + `inner` + `closers`; unless `keep_spaces`, the spaces typed
    /// at the end of `head` end the paragraph and are dropped.
    fn compose(&self, inner: &str, keep_spaces: bool) -> Option<String> {
        if inner.is_empty() && self.at_content_start {
            return None;
        }
        let head = if keep_spaces {
            &self.head
        } else {
            &self.head[..self.head.len() - self.typed_spaces]
        };
        let mut html = String::with_capacity(head.len() + inner.len() + self.closers.len());
        html.push_str(head);
        html.push_str(inner);
        html.push_str(&self.closers);
        Some(html)
    }
}

/// After the last run of spaces that follows something else: where a new
/// word starts (or will).
fn word_boundary(text: &str) -> Option<usize> {
    let end = text.rfind(' ')? + 1;
    let before = text[..end].trim_end_matches(' ');
    (!before.is_empty()).then_some(end)
}

/// Where the inline content of `line` starts, after its block markers
/// (`>`, a list item's marker, a heading's `#`s), if what is typed of it
/// can only be inline text: it starts with a letter or an emphasis or
/// code span opening on one (`**Bold`), not with what could still open a
/// block of its own (`-`, `1.`, `>`, a fence, a table row), nor with `[`
/// (a link reference definition), nor with a digit (the preview holds a
/// number opening a line) but in a heading (`### 2. Costs`).
fn inline_content_start(line: &str) -> Option<usize> {
    let mut rest = line;
    let heading = loop {
        let unindented = rest.trim_start_matches(' ');
        if let Some(quoted) = unindented.strip_prefix('>') {
            rest = quoted;
        } else if let Some(item) = after_list_marker(unindented) {
            rest = item;
        } else {
            let hashes = unindented.bytes().take_while(|&b| b == b'#').count();
            let heading = (1..=6).contains(&hashes) && unindented[hashes..].starts_with(' ');
            rest = match heading {
                true => unindented[hashes..].trim_start_matches(' '),
                false => unindented,
            };
            break heading;
        }
    };
    let mut chars = rest.chars();
    let first = chars.next()?;
    let opens_span = |c: char| matches!(c, '*' | '_' | '~' | '`');
    let inline = first.is_alphabetic()
        || (heading && first.is_ascii_digit())
        || (opens_span(first) && {
            let second = chars.next()?;
            second.is_alphabetic() || (second == first && chars.next()?.is_alphabetic())
        });
    inline.then_some(line.len() - rest.len())
}

/// The text after a list item's marker and its space, if `line` starts
/// with one.
fn after_list_marker(line: &str) -> Option<&str> {
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    let marker = match digits {
        0 => line.strip_prefix(['-', '*', '+'])?,
        1..=9 => line[digits..].strip_prefix(['.', ')'])?,
        _ => return None,
    };
    marker.strip_prefix(' ')
}

/// A cheap first look for [`is_settled`]: words with an odd number of `*`
/// or backticks, or unmatched brackets, are most likely in a span or link
/// still open (when not, they only settle later).
fn may_be_settled(words: &str) -> bool {
    let count = |b: u8| memchr::memchr_iter(b, words.as_bytes()).count();
    count(b'*') % 2 == 0 && count(b'`') % 2 == 0 && count(b'[') == count(b']')
}

/// Whether the preview leaves `text` as it is (bar trailing spaces):
/// nothing at its end is still being typed.
fn is_settled(text: &str) -> bool {
    preview(text).text == text.trim_end_matches(' ')
}

/// A line's settled part: it has a letter (so the line is not a rule, an
/// underline or a list marker still being typed) and any `<` in it is a
/// cite tag, each opened one closed (other inline HTML may pair up later).
fn line_is_settled(line: &str) -> bool {
    line.chars().any(char::is_alphabetic) && cite_tags(line).is_some_and(|depth| depth == 0)
}

/// Whether every `<` in `text` is a cite tag.
fn tags_are_cites(text: &str) -> bool {
    cite_tags(text).is_some()
}

/// How many cite tags `text` leaves open, if its only tags are cite tags
/// and none closes before it opens.
fn cite_tags(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (at, _) in text.match_indices('<') {
        let tag = text.as_bytes().get(at + 1..)?;
        let starts = |name: &[u8]| {
            tag.get(..name.len())
                .is_some_and(|t| t.eq_ignore_ascii_case(name))
        };
        let self_closing = || {
            let tag = &text[at..];
            tag.find('>').is_some_and(|end| tag[..end].ends_with('/'))
        };
        if starts(b"cite") {
            if !self_closing() {
                depth += 1;
            }
        } else if starts(b"/cite") {
            depth = depth.checked_sub(1)?;
        } else {
            return None;
        }
    }
    Some(depth)
}

/// Whether every cite tag in `text` became a citation in its `html`: a tag
/// left unpaired (its `</cite>` inside emphasis) may pair with a later one.
fn cites_paired(text: &str, html: &str) -> bool {
    let tags = text
        .match_indices('<')
        .filter(|&(at, _)| {
            text.as_bytes()
                .get(at + 1..at + 5)
                .is_some_and(|name| name.eq_ignore_ascii_case(b"cite"))
        })
        .count();
    tags == html.matches("data-citation-kind=\"cite\"").count()
}

/// Whether a line of `text` starts with `<`: it may open an HTML block,
/// which hides the fences inside it from the parser but not the preview.
fn has_html_line(text: &str) -> bool {
    text.split('\n')
        .any(|line| line.trim_start_matches(' ').starts_with('<'))
}

/// Whether text has no markdown syntax at all: it renders as itself.
fn is_plain(text: &str) -> bool {
    !text.bytes().any(|b| {
        matches!(
            b,
            b'*' | b'_'
                | b'`'
                | b'['
                | b']'
                | b'<'
                | b'>'
                | b'|'
                | b'&'
                | b'~'
                | b'('
                | b')'
                | b'!'
                | b'\\'
                | b'#'
                | b'$'
                | b'^'
                | b'\t'
                | b'\r'
                | b'\n'
                | b'\0'
        )
    })
}

/// Whether a word may be or become a link: a URL or an e-mail address,
/// or (the last word) the start of a URL, which the preview holds back.
fn has_url_like_word(text: &str) -> bool {
    // (Every URL starts with `h` or `w`, or has a `:` or `@`.)
    let may_be_url = |b: u8| matches!(b, b'h' | b'H' | b'w' | b'W' | b':' | b'@');
    if !text.bytes().any(may_be_url) {
        return false;
    }
    let contains_www = |word: &str| {
        word.as_bytes()
            .windows(4)
            .any(|w| w.eq_ignore_ascii_case(b"www."))
    };
    if text.contains([':', '@']) || text.split(' ').any(contains_www) {
        return true;
    }
    // (`*www.` and `(https://` are URLs being typed too.)
    let last = text
        .trim_end_matches(' ')
        .rsplit(' ')
        .next()
        .unwrap_or_default()
        .trim_start_matches(|c: char| !c.is_alphanumeric());
    !last.is_empty()
        && ["https://", "http://", "www."].iter().any(|start| {
            start
                .get(..last.len())
                .is_some_and(|prefix| prefix.eq_ignore_ascii_case(last))
        })
}

/// Whether the inline HTML `html` leaves nothing that a later delimiter
/// could pair with: no literal `*`, `_`, `~`, backtick, bracket or `<` in
/// its text (code spans aside).
fn text_is_settled(html: &str) -> bool {
    let mut rest = html;
    while let Some(lt) = rest.find('<') {
        if !text_run_is_settled(&rest[..lt]) {
            return false;
        }
        rest = &rest[lt..];
        let skip_to = if rest.starts_with("<code") {
            rest.find("</code>").map(|i| i + "</code>".len())
        } else {
            rest.find('>').map(|i| i + 1)
        };
        let Some(skip_to) = skip_to else {
            return false;
        };
        rest = &rest[skip_to..];
    }
    text_run_is_settled(rest)
}

fn text_run_is_settled(text: &str) -> bool {
    !text.contains(['*', '_', '~', '`', '[', ']']) && !text.contains("&lt;")
}

/// The inline content of the innermost block that `head` leaves open.
fn innermost_block(head: &str) -> &str {
    let mut end = head.len();
    while let Some(lt) = head[..end].rfind('<') {
        let tag = &head[lt..];
        let opens_block = ["<p>", "<li>"].iter().any(|t| tag.starts_with(t))
            || (tag.len() >= 4
                && tag.starts_with("<h")
                && matches!(tag.as_bytes()[2], b'1'..=b'6')
                && tag.as_bytes()[3] == b'>');
        if opens_block {
            return &head[head[lt..].find('>').map_or(lt, |i| lt + i + 1)..];
        }
        end = lt;
    }
    head
}

/// Splits a rendering that ends in inline content into that content and
/// the tags closing its blocks; says whether the innermost is a heading.
fn split_closers(html: &str) -> Option<(&str, &str, bool)> {
    let mut end = html.len();
    let mut innermost = None;
    loop {
        let trimmed = html[..end].trim_end_matches('\n');
        let Some(tag_start) = trimmed.ends_with('>').then(|| trimmed.rfind('<')).flatten() else {
            break;
        };
        let tag = &trimmed[tag_start..];
        let inline_container = matches!(tag, "</p>" | "</li>")
            || (tag.len() == 5
                && tag.starts_with("</h")
                && matches!(tag.as_bytes()[3], b'1'..=b'6'));
        if !inline_container && !matches!(tag, "</ul>" | "</ol>" | "</blockquote>") {
            break;
        }
        innermost = Some(inline_container.then_some(tag.starts_with("</h")));
        end = tag_start;
    }
    let heading = innermost??;
    // Inline content runs up to its closer; a newline there ends a block
    // (an item holding a code block).
    (!html[..end].ends_with('\n')).then_some((&html[..end], &html[end..], heading))
}

/// The inline content of the rendering of [`STAND_IN`] + text, and
/// whether the space before it survived (it does not when the paragraph
/// ends with it).
fn stand_in_content(html: &str) -> Option<(&str, bool)> {
    let inner = html.strip_prefix("<p>x")?.strip_suffix("</p>\n")?;
    match inner.strip_prefix(' ') {
        Some(content) => Some((content, true)),
        None => inner.is_empty().then_some((inner, false)),
    }
}

/// Whether the preview still holds back the table row `line` (unless it
/// turns into a code fence).
fn still_held(hold: RowHold, line: &str) -> bool {
    let delimiter_only = || line.bytes().all(|b| matches!(b, b'|' | b'-' | b':' | b' '));
    !line.trim_start_matches(' ').starts_with(['`', '~'])
        && (hold == RowHold::UntilNewline || delimiter_only())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closers_are_split_off_inline_content() {
        assert_eq!(
            split_closers("<p>a <em>b</em></p>\n"),
            Some(("<p>a <em>b</em>", "</p>\n", false))
        );
        assert_eq!(
            split_closers("<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n"),
            Some(("<ul>\n<li>one</li>\n<li>two", "</li>\n</ul>\n", false))
        );
        assert_eq!(split_closers("<h2>Title</h2>\n").map(|s| s.2), Some(true));
        assert_eq!(split_closers("<pre><code>x</code></pre>\n"), None);
        assert_eq!(split_closers("<ul>\n</ul>\n"), None);
        assert_eq!(
            split_closers("<li>\n<pre><code>x\n</code></pre>\n</li>\n"),
            None
        );
    }

    #[test]
    fn settled_text_leaves_nothing_to_pair_with() {
        assert!(text_is_settled("a <strong>b</strong> <code>x_*y</code>"));
        assert!(text_is_settled(r#"<a data-citation-key="call_1">1</a>"#));
        assert!(!text_is_settled("a * b"));
        assert!(!text_is_settled("see [7] and"));
        assert!(!text_is_settled("a &lt;b"));
    }

    #[test]
    fn words_that_may_become_links_are_not_plain_text() {
        assert!(has_url_like_word("see htt"));
        assert!(has_url_like_word("see ww"));
        assert!(has_url_like_word("see *w"));
        assert!(
            has_url_like_word("é h    "),
            "the preview trims the spaces, then holds `h`"
        );
        assert!(has_url_like_word("see www.exa"));
        assert!(has_url_like_word("at https://x.example now"));
        assert!(has_url_like_word("mail me@host"));
        assert!(!has_url_like_word("see what"));
        assert!(!has_url_like_word("the end."));
    }

    #[test]
    fn settled_lines_have_words_and_whole_cite_tags() {
        assert!(line_is_settled("a <cite id=\"x\">b</cite> "));
        assert!(!line_is_settled("a <cite id=\"x\">b "));
        assert!(!line_is_settled("a <b>bold "));
        assert!(!line_is_settled("1. "));
        assert!(!line_is_settled("a </cite> b <cite> "));
        assert!(!line_is_settled("a <cite id='b'/> c </cite> "));
        assert_eq!(
            innermost_block("<ul>\n<li>a</li>\n<li>b <em>c</em>"),
            "b <em>c</em>"
        );
    }
}
