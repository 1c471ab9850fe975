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
//!   (`x `) so that they parse as the same inline text.
//! - [`State::Code`]: inside a code fence at the margin, lines that cannot
//!   close the fence are escaped onto the block.
//! - [`State::HeldRow`]: a table row shows only once it is whole, so the
//!   tail stays the same until its line ends.
//!
//! A newline, or anything a state cannot vouch for, renders the open text
//! whole and sets up a state again. Tests check push by push that the
//! cached tail equals the whole render.

use pulldown_cmark_escape::escape_html_body_text;

use super::preview::{preview, Preview, RowHold};
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
}

#[derive(Debug, Clone)]
enum State {
    HeldRow {
        line_start: usize,
        hold: RowHold,
        html: String,
    },
    Inline {
        line_start: usize,
        /// Where the settled text ends (after a space).
        at: usize,
        head: String,
        closers: String,
        /// A heading's line: `#` may be its closing sequence.
        heading: bool,
        index: IndexBuilder,
    },
    Code {
        at: usize,
        head: String,
        fence_char: u8,
    },
}

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
    pub(super) fn render(&mut self, open: &str, render: &Render<'_>) -> String {
        let line_start = open.rfind('\n').map_or(0, |i| i + 1);
        let cached = match &self.state {
            Some(State::HeldRow {
                line_start: held,
                hold,
                html,
            }) if *held == line_start && still_held(*hold, &open[line_start..]) => {
                Some(html.clone())
            }
            Some(State::Inline {
                line_start: settled,
                ..
            }) if *settled == line_start => self.inline(open, render),
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
        let (html, _) = render(&shown.text, None);
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
        } else if shown.in_margin_fence && shown.text == open {
            // The last line, partial, is shown at the block's end.
            let mut partial = String::new();
            let _ = escape_html_body_text(&mut partial, &open[line_start..]);
            let head = html
                .strip_suffix(CODE_CLOSERS)
                .and_then(|html| html.strip_suffix(partial.as_str()));
            if let Some(head) = head {
                let fence_char = open
                    .lines()
                    .rev()
                    .find_map(|line| line.bytes().next().filter(|b| matches!(b, b'`' | b'~')))
                    .unwrap_or(b'`');
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
        if line.contains(['|', '\t', '\r'])
            || open.contains("[^")
            || open.contains("]:")
            || in_html_block(open)
        {
            return None;
        }
        let at = line_start + word_boundary(line)?;
        let settled = &open[..at];
        if !line_is_settled(&open[line_start..at]) || !is_settled(settled) {
            return None;
        }
        let (html, index) = render(settled, None);
        let Some((head, closers, heading)) = split_closers(&html) else {
            self.failed_at = Some((line_start, open.len()));
            return None;
        };
        if !text_is_settled(innermost_block(head)) {
            self.failed_at = Some((line_start, open.len()));
            return None;
        }
        let spaces = &settled[settled.trim_end_matches(' ').len()..];
        self.state = Some(State::Inline {
            line_start,
            at,
            head: format!("{head}{spaces}"),
            closers: closers.to_owned(),
            heading,
            index,
        });
        self.inline(open, render)
    }

    /// On a settled line: the head, the text since it, and the closers.
    fn inline(&mut self, open: &str, render: &Render<'_>) -> Option<String> {
        let Some(State::Inline {
            at,
            head,
            closers,
            heading,
            index,
            ..
        }) = &mut self.state
        else {
            return None;
        };
        let pending = open.get(*at..)?;
        if *heading && pending.contains('#') {
            return None;
        }
        if is_plain(pending) && !has_url_like_word(pending) {
            let shown = pending.trim_end_matches(' ');
            let html = compose(head, shown, closers, !shown.is_empty());
            if let Some(boundary) = word_boundary(pending) {
                head.push_str(&pending[..boundary]);
                *at += boundary;
            }
            return Some(html);
        }
        // Settle the words before the last boundary first, so that the
        // next push re-renders less.
        if let Some(boundary) = word_boundary(pending) {
            let words = &pending[..boundary];
            let piece = format!("{STAND_IN}{words}");
            if line_is_settled(words) && is_settled(&piece) {
                let (html, after) = render(&piece, Some(index));
                if let Some((inner, _)) = stand_in_content(&html).filter(|i| text_is_settled(i.0)) {
                    head.push_str(inner);
                    head.push_str(&words[words.trim_end_matches(' ').len()..]);
                    index.absorb(after);
                    *at += boundary;
                }
            }
        }
        let piece = format!("{STAND_IN}{}", &open[*at..]);
        let shown = preview(&piece);
        let (html, _) = render(&shown.text, Some(index));
        let (inner, keep_spaces) = stand_in_content(&html)?;
        Some(compose(head, inner, closers, keep_spaces))
    }
}

/// `head` + `inner` + `closers`; unless `keep_spaces`, `head`'s trailing
/// spaces end the paragraph and are dropped.
fn compose(head: &str, inner: &str, closers: &str, keep_spaces: bool) -> String {
    let head = if keep_spaces {
        head
    } else {
        head.trim_end_matches(' ')
    };
    let mut html = String::with_capacity(head.len() + inner.len() + closers.len());
    html.push_str(head);
    html.push_str(inner);
    html.push_str(closers);
    html
}

/// After the last run of spaces that follows something else: where a new
/// word starts (or will).
fn word_boundary(text: &str) -> Option<usize> {
    let end = text.rfind(' ')? + 1;
    let before = text[..end].trim_end_matches(' ');
    (!before.is_empty()).then_some(end)
}

/// Whether the preview leaves `text` as it is (bar trailing spaces):
/// nothing in it is still being typed.
fn is_settled(text: &str) -> bool {
    preview(text).text == text.trim_end_matches(' ')
}

/// A line's settled part: it has a letter (so the line is not a rule, an
/// underline or a list marker still being typed) and any `<` in it belongs
/// to a complete cite tag pair (other inline HTML may pair up later).
fn line_is_settled(line: &str) -> bool {
    if !line.chars().any(char::is_alphabetic) {
        return false;
    }
    if !line.contains('<') {
        return true;
    }
    let lower = line.to_ascii_lowercase();
    let opening = lower.matches("<cite").count();
    let closing = lower.matches("</cite").count();
    opening == closing && lower.matches('<').count() == opening + closing
}

/// Whether text has no markdown syntax at all: it renders as itself.
fn is_plain(text: &str) -> bool {
    !text.contains([
        '*', '_', '`', '[', ']', '<', '>', '|', '&', '~', '(', ')', '!', '\\', '#', '$', '^', '\t',
        '\r', '\n', '\0',
    ])
}

/// Whether a word may be or become a link: a URL or an e-mail address,
/// or (the last word) the start of a URL, which the preview holds back.
fn has_url_like_word(text: &str) -> bool {
    let last = text
        .rsplit(' ')
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    text.split(' ')
        .any(|word| word.contains([':', '@']) || word.to_ascii_lowercase().contains("www."))
        || (!last.is_empty()
            && ["https://", "http://", "www."]
                .iter()
                .any(|start| start.starts_with(last.as_str())))
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
    let start = [
        "<p>", "<li>", "<h1>", "<h2>", "<h3>", "<h4>", "<h5>", "<h6>",
    ]
    .iter()
    .filter_map(|tag| head.rfind(tag).map(|i| i + tag.len()))
    .max()
    .unwrap_or(0);
    &head[start..]
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
    Some((&html[..end], &html[end..], heading))
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

/// Whether the last block holds raw HTML: a line opening with `<`.
fn in_html_block(open: &str) -> bool {
    open.lines()
        .rev()
        .take_while(|line| !line.trim().is_empty())
        .any(|line| line.trim_start_matches(' ').starts_with('<'))
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
    }
}
