//! The open leaf: a code block committed line by line inside its element,
//! rather than re-sent whole at every push.
//!
//! What makes it exact (docs/streaming.md, "The frontier"): a finished
//! line of a code block renders the same whatever other lines the block
//! holds. Its HTML depends only on the line that opened the block, the
//! *opener* (a fence line, or an indented code block's first line). So the
//! block's element is handed to the host open ([`Step::Open`]); each later
//! batch of finished lines is parsed after the opener alone, and what the
//! lines add inside the element is handed over ([`Step::Html`]); the same
//! parse says where the block ends ([`Step::Close`]). Only the line being
//! typed, and blank lines that the next line may still make part of the
//! block or not, are the tail.

use std::ops::Range;

use pulldown_cmark::Event;

use super::{preview, FindLast, RenderContext};
use crate::cite::index::Offset;
use crate::html::html_capacity;
use crate::parse::{is_inline_end, is_inline_tag, parse};

/// A change to the elements the committed HTML leaves open, as a
/// [`Patch`](super::Patch) hands it to a host that builds a DOM.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum Step {
    /// The next `n` bytes of `append` open an element (`<pre><code>`),
    /// and may hold its first content: later steps and
    /// the tail go inside its innermost element (reached from the new
    /// nodes through each last child that is an element).
    Open(usize),
    /// The next `n` bytes of `append` are balanced HTML, appended inside
    /// the innermost open element (the document itself when none is open).
    Html(usize),
    /// The next `n` bytes of `append` are the end tags of the innermost
    /// open element (`</code></pre>`): it is finished.
    Close(usize),
}

/// The code block committed line by line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Code {
    /// A fenced code block: the fence's character.
    Fenced(u8),
    /// An indented code block.
    Indented,
}

/// The end tags that close a code block's element.
pub(super) const END_TAGS: &str = "</code></pre>";

/// An open code block whose element the host already has.
#[derive(Debug, Clone)]
pub(super) struct Frontier {
    code: Code,
    /// The line that opened the block, as written.
    opener: String,
    /// The HTML of the opener, the element's start (and an indented code
    /// block's first line): what a render of the opener then lines starts
    /// with. (Code is text, escaped character by character: the lines'
    /// HTML follows it unchanged.)
    skeleton: String,
}

/// What [`Frontier::commit`] takes from the open text.
#[derive(Debug, Default)]
pub(super) struct Committed {
    /// The bytes of the open text taken.
    pub(super) taken: usize,
    /// Their HTML inside the element.
    pub(super) html: String,
    /// The block ended with them.
    pub(super) closed: bool,
}

/// A render of lines after an opener.
struct Inside {
    html: String,
    /// Where, in the lines, the block ended, when the lines hold something
    /// after it.
    closed_at: Option<usize>,
}

/// The code block that `open` starts with, when its first line (a fence,
/// or a line indented as code) is complete: its kind and the line's
/// length.
fn opener_at(open: &str, complete: usize) -> Option<(Code, usize)> {
    let first_end = open[..complete].find('\n')? + 1;
    let first = &open[..first_end];
    if let Some(fence) = preview::fence_char(first) {
        return Some((Code::Fenced(fence), first_end));
    }
    (first.starts_with("    ") && !first.trim().is_empty()).then_some((Code::Indented, first_end))
}

/// The start of the first complete line of `open`, at or after `from` (a
/// line start), that is a code fence following a line that is not blank:
/// a fence interrupts a paragraph, so no blank line comes before it to
/// cut at.
pub(super) fn fence_after_text(open: &str, from: usize, complete: usize) -> Option<usize> {
    let mut start = from;
    while start < complete {
        let end = start + open[start..complete].find('\n')? + 1;
        if start > 0 && preview::fence_char(&open[start..end]).is_some() {
            let before_start = open[..start - 1].find_last(b'\n').map_or(0, |i| i + 1);
            if !open[before_start..start].trim().is_empty() {
                return Some(start);
            }
        }
        start = end;
    }
    None
}

impl Frontier {
    /// Opens the code block that starts `open` (whose complete lines end
    /// at `complete`), when its first line is complete: the HTML that opens
    /// its element (the [`Step::Open`]), the first line's length, and the
    /// frontier.
    pub(super) fn enter(
        context: &RenderContext<'_>,
        open: &str,
        complete: usize,
    ) -> Option<(String, usize, Frontier)> {
        let (code, opener_len) = opener_at(open, complete)?;
        let opener = &open[..opener_len];
        // The first line as the message renders it: a code block's start,
        // still open after it.
        let rendered = render_inside(context, opener, "");
        let skeleton = element_start(&rendered.html)?;
        if !skeleton.starts_with("<pre><code") || rendered.closed_at.is_some() {
            return None;
        }
        let frontier = Frontier {
            code,
            opener: opener.to_owned(),
            skeleton: skeleton.to_owned(),
        };
        Some((frontier.skeleton.clone(), opener_len, frontier))
    }

    /// What the finished lines of `open` (its complete lines end at
    /// `complete`; at the message's end, all of it) add inside the block's
    /// element, and whether the block ended with them.
    pub(super) fn commit(
        &self,
        context: &RenderContext<'_>,
        open: &str,
        complete: usize,
        at_end: bool,
    ) -> Committed {
        if !at_end && self.typing_ends_block(open, complete) {
            // (If the parser does not agree, the complete lines are taken.)
            if let Some(end) = render_inside(context, &self.opener, open).closed_at {
                return self.closing(context, open, end);
            }
        }
        // Blank lines at the end may yet be part of the block or end it:
        // the next line that is not blank tells.
        let settled = if at_end {
            open.len()
        } else {
            without_blank_lines_at_end(&open[..complete]).len()
        };
        if settled == 0 {
            return Committed {
                closed: at_end,
                ..Committed::default()
            };
        }
        let inside = render_inside(context, &self.opener, &open[..settled]);
        match inside.closed_at {
            Some(end) if end < settled => self.closing(context, open, end),
            Some(end) => Committed {
                taken: end,
                html: self.lines_html(&inside.html),
                closed: true,
            },
            None => Committed {
                taken: settled,
                html: self.lines_html(&inside.html),
                closed: at_end,
            },
        }
    }

    /// The lines of `open` up to `end`, where the block ends.
    fn closing(&self, context: &RenderContext<'_>, open: &str, end: usize) -> Committed {
        let inside = render_inside(context, &self.opener, &open[..end]);
        Committed {
            taken: end,
            html: self.lines_html(&inside.html),
            closed: true,
        }
    }

    /// Whether the line being typed at the end of `open` already ends an
    /// indented code block: it starts at the margin, after blank lines or
    /// not. (A fence closes only with its line complete: "```x" is code.)
    fn typing_ends_block(&self, open: &str, complete: usize) -> bool {
        self.code == Code::Indented
            && open[complete..]
                .bytes()
                .take(4)
                .any(|b| !matches!(b, b' ' | b'\t'))
    }

    /// The part of `html` (a render of the opener then lines) that the
    /// lines add inside the element.
    fn lines_html(&self, html: &str) -> String {
        let inner = html
            .strip_prefix(self.skeleton.as_str())
            .unwrap_or_default();
        element_start(inner).unwrap_or_default().to_owned()
    }

    /// The HTML of `open`, the block's unfinished end, inside its element:
    /// code as typed, but for a closing fence being typed.
    pub(super) fn tail(&self, context: &RenderContext<'_>, open: &str) -> String {
        let line_start = open.find_last(b'\n').map_or(0, |i| i + 1);
        let typed = open[line_start..].trim_start_matches(' ');
        let shown = match self.code {
            Code::Fenced(fence) if !typed.is_empty() && typed.bytes().all(|b| b == fence) => {
                &open[..line_start]
            }
            _ => open,
        };
        let inside = render_inside(context, &self.opener, shown);
        match inside.closed_at {
            Some(end) => self.closing(context, shown, end).html,
            None => self.lines_html(&inside.html),
        }
    }
}

/// `html`, a code block's HTML, without its end: the element's start and
/// its content.
fn element_start(html: &str) -> Option<&str> {
    html.strip_suffix('\n')?.strip_suffix(END_TAGS)
}

/// `text` without the blank lines at its end.
fn without_blank_lines_at_end(text: &str) -> &str {
    let mut end = text.len();
    while end > 0 {
        let line_start = text[..end - 1].find_last(b'\n').map_or(0, |i| i + 1);
        if !text[line_start..end].trim().is_empty() {
            break;
        }
        end = line_start;
    }
    &text[..end]
}

/// Renders `lines` after `opener`, and tells where the block that the
/// opener starts ends. Code holds no citations: the stream's citation
/// state is not touched.
fn render_inside(context: &RenderContext<'_>, opener: &str, lines: &str) -> Inside {
    let text = [context.definitions, opener, lines].concat();
    let lines_start = context.definitions.len() + opener.len();
    let mut watch = BlockEnd::default();
    let events = parse(&text).inspect(|(event, range)| watch.see(event, range));
    let index = context.index.part(Offset {
        add: context.committed,
        sub: lines_start,
    });
    let (written, _) =
        context.write_part(&text, events, index, Vec::new(), html_capacity(lines.len()));
    Inside {
        html: written.html,
        closed_at: watch.closed_at(&text, lines_start),
    }
}

/// Where the first block of a parse ends, and whether anything follows.
#[derive(Default)]
struct BlockEnd {
    depth: usize,
    /// The end of the last event inside the block.
    content_end: usize,
    end: Option<usize>,
    followed: bool,
}

impl BlockEnd {
    fn see(&mut self, event: &Event<'_>, range: &Range<usize>) {
        if self.end.is_some() {
            self.followed = true;
            return;
        }
        match event {
            Event::Start(tag) if !is_inline_tag(tag) => {
                if self.depth > 0 {
                    self.content_end = self.content_end.max(range.end);
                }
                self.depth += 1;
            }
            Event::End(tag) if !is_inline_end(*tag) => {
                self.depth = self.depth.saturating_sub(1);
                if self.depth == 0 {
                    self.end = Some(range.end);
                } else {
                    self.content_end = self.content_end.max(range.end);
                }
            }
            _ if self.depth > 0 => self.content_end = self.content_end.max(range.end),
            _ => {}
        }
    }

    /// Where, after `lines_start`, the block ended, when something that is
    /// not its own follows it: a block, or text it did not take in (a
    /// closing fence, a link reference definition).
    fn closed_at(&self, text: &str, lines_start: usize) -> Option<usize> {
        let end = self.end?;
        let untaken = text
            .get(self.content_end.max(lines_start)..)
            .is_some_and(|rest| !rest.trim().is_empty());
        (self.followed || untaken).then(|| end.saturating_sub(lines_start))
    }
}
