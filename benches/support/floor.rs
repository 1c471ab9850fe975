//! A floor for a one-shot render under citemark's output contract, to weigh
//! the 0.8× target against: pulldown-cmark's own `push_html`, fed the
//! contract's citation elements with as little work as writing them takes,
//! done plainly. Not citemark, and not a renderer to use: no sanitizing, no
//! URL checks, no bare-URL autolinks, no recovery, no `rel`; cite tags and
//! markers are recognized only in the simple forms the demo answer has
//! (`<cite id="…">label</cite>`, `[n]`, `[n][m]`), short links not at all
//! (so 12 of the answer's 13 citations). Each citation still does what the
//! contract cannot spare: the element with its attributes (escaped), the
//! source looked up, and an index entry with its key, label and source
//! range. (Included by `examples/render_cost.rs`, beside `pulldown.rs`.)

use std::collections::VecDeque;
use std::ops::Range;

use citemark::Options;
use pulldown_cmark::{html::push_html, CowStr, Event, Parser};
use pulldown_cmark_escape::escape_html;

/// One index entry, as lean as the contract allows.
#[allow(dead_code)] // Written, never read: what an index costs to build.
pub struct Entry {
    ordinal: u32,
    cite_tag: bool,
    key: String,
    label: String,
    range: Range<usize>,
    source: Option<usize>,
}

/// The floor's HTML and index for `markdown`.
pub fn floor_render(markdown: &str, options: &Options) -> (String, Vec<Entry>) {
    let sources = options.sources.as_deref().unwrap_or_default();
    // (A message cites a handful of sources: a scan beats hashing.)
    let by_id = |id: &str| sources.iter().position(|s| s.id.as_deref() == Some(id));
    let by_number = |n: u32| {
        (sources.iter().enumerate()).position(|(i, s)| s.index.unwrap_or(i as u32 + 1) == n)
    };
    let mut index = Vec::new();
    let mut open_tag: Option<usize> = None;
    let element = |index: &mut Vec<Entry>, key: &str, cite_tag: bool, range: Range<usize>| {
        let source = if cite_tag {
            by_id(key)
        } else {
            key.parse().ok().and_then(by_number)
        };
        let ordinal = index.len() as u32 + 1;
        let mut html = String::with_capacity(256);
        html.push_str(if cite_tag { "" } else { "<sup>" });
        html.push_str("<a class=\"citation");
        html.push_str(if source.is_some() {
            "\""
        } else {
            " citation-unresolved\""
        });
        if let Some(source) = source.map(|i| &sources[i]) {
            if let Some(href) = &source.href {
                html.push_str(" href=\"");
                let _ = escape_html(&mut html, href);
                html.push('"');
            }
            if let Some(title) = &source.title {
                html.push_str(" title=\"");
                let _ = escape_html(&mut html, title);
                html.push('"');
            }
        }
        html.push_str(" data-citation-key=\"");
        let _ = escape_html(&mut html, key);
        html.push_str(if cite_tag {
            "\" data-citation-kind=\"cite\""
        } else {
            "\" data-citation-kind=\"index\""
        });
        html.push_str(" data-citation-ordinal=\"");
        push_number(&mut html, ordinal);
        html.push_str("\">");
        if !cite_tag {
            html.push_str(key);
            html.push_str("</a></sup>");
        }
        index.push(Entry {
            ordinal,
            cite_tag,
            key: key.to_owned(),
            label: if cite_tag {
                String::new()
            } else {
                key.to_owned()
            },
            range,
            source,
        });
        html
    };
    let mut events = Parser::new_ext(markdown, crate::pulldown::gfm_options())
        .into_offset_iter()
        .peekable();
    let mut pending = VecDeque::new();
    let citation_aware = std::iter::from_fn(|| loop {
        if let Some(event) = pending.pop_front() {
            return Some(event);
        }
        let (event, range) = events.next()?;
        match event {
            Event::InlineHtml(tag) if tag.starts_with("<cite") => {
                let key = tag
                    .split_once("id=\"")
                    .and_then(|(_, rest)| rest.split_once('"'))
                    .map_or("", |(id, _)| id);
                let html = element(&mut index, key, true, range);
                open_tag = Some(index.len() - 1);
                return Some(Event::InlineHtml(CowStr::from(html)));
            }
            Event::InlineHtml(tag) if tag.starts_with("</cite") => {
                if let Some(entry) = open_tag.take().and_then(|i| index.get_mut(i)) {
                    entry.range.end = range.end;
                }
                return Some(Event::InlineHtml(CowStr::Borrowed("</a>")));
            }
            Event::Text(mut text) => {
                // pulldown-cmark splits text at every `[` and `]`: the
                // pieces that follow on in the source are read as one.
                let mut range = range;
                while let Some((Event::Text(_), next)) = events.peek() {
                    if next.start != range.end {
                        break;
                    }
                    range.end = next.end;
                    text = CowStr::Borrowed(&markdown[range.clone()]);
                    events.next();
                }
                if let Some(entry) = open_tag.and_then(|i| index.get_mut(i)) {
                    entry.label.push_str(&text);
                }
                write_markers(text, range, &mut index, &mut pending, &element);
            }
            event => return Some(event),
        }
    });
    let mut html = String::with_capacity(markdown.len() * 5 / 2);
    push_html(&mut html, citation_aware);
    (html, index)
}

/// `text` with each `[n]` in it made a citation element.
fn write_markers<'a>(
    text: CowStr<'a>,
    range: Range<usize>,
    index: &mut Vec<Entry>,
    out: &mut VecDeque<Event<'a>>,
    element: &impl Fn(&mut Vec<Entry>, &str, bool, Range<usize>) -> String,
) {
    let piece = |from: usize, to: usize| match &text {
        CowStr::Borrowed(text) => CowStr::Borrowed(&text[from..to]),
        text => CowStr::from(text[from..to].to_owned()),
    };
    let bytes = text.as_bytes();
    let mut written = 0;
    for open in memchr::memchr_iter(b'[', bytes) {
        let digits = bytes[open + 1..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        let close = open + 1 + digits;
        if open < written || digits == 0 || bytes.get(close) != Some(&b']') {
            continue;
        }
        if written < open {
            out.push_back(Event::Text(piece(written, open)));
        }
        let at = range.start + open;
        let html = element(index, &text[open + 1..close], false, at..at + digits + 2);
        out.push_back(Event::InlineHtml(CowStr::from(html)));
        written = close + 1;
    }
    if written == 0 {
        out.push_back(Event::Text(text));
    } else if written < text.len() {
        out.push_back(Event::Text(piece(written, text.len())));
    }
}

/// `n` in decimal, without `core::fmt` (which costs hundreds of
/// instructions a number).
fn push_number(out: &mut String, n: u32) {
    if n >= 10 {
        push_number(out, n / 10);
    }
    out.push(char::from(b'0' + (n % 10) as u8));
}
