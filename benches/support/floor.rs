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
    let mut events = Parser::new_ext(markdown, crate::pulldown::gfm_options()).into_offset_iter();
    // pulldown-cmark hands a `[1]` over as three texts, `[`, `1` and `]`:
    // what may begin a marker is held back until it does or cannot.
    let mut held: Vec<(Event, Range<usize>)> = Vec::with_capacity(2);
    // Events to hand over before reading on, last first.
    let mut ready: Vec<Event> = Vec::with_capacity(3);
    let citation_aware = std::iter::from_fn(|| loop {
        if let Some(event) = ready.pop() {
            return Some(event);
        }
        let Some((event, range)) = events.next() else {
            ready.extend(held.drain(..).rev().map(|(event, _)| event));
            return ready.pop();
        };
        if let Event::Text(text) = &event {
            let extends_marker = match held.len() {
                0 => text.as_ref() == "[",
                1 => !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()),
                _ => false,
            };
            if extends_marker {
                held.push((event, range));
                continue;
            }
            if held.len() == 2 && text.as_ref() == "]" {
                let (open, digits) = (held[0].1.start, held.swap_remove(1).0);
                held.clear();
                let key = match &digits {
                    Event::Text(digits) => digits.as_ref(),
                    _ => "",
                };
                let html = element(&mut index, key, false, open..range.end);
                return Some(Event::InlineHtml(CowStr::from(html)));
            }
            if let Some(entry) = open_tag.and_then(|i| index.get_mut(i)) {
                entry.label.push_str(text);
            }
        }
        if !held.is_empty() {
            // Not a marker after all: what was held goes out first.
            ready.push(event);
            ready.extend(held.drain(..).rev().map(|(event, _)| event));
            continue;
        }
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
            event => return Some(event),
        }
    });
    let mut html = String::with_capacity(markdown.len() * 5 / 2);
    push_html(&mut html, citation_aware);
    (html, index)
}

/// `n` in decimal, without `core::fmt` (which costs hundreds of
/// instructions a number).
fn push_number(out: &mut String, n: u32) {
    if n >= 10 {
        push_number(out, n / 10);
    }
    out.push(char::from(b'0' + (n % 10) as u8));
}
