//! The tail as a change: what a host must do to the tail it shows to make
//! it the new one, found by comparing the two.
//!
//! A push mostly adds a few characters where the reader is typing: the
//! code line, the paragraph's last word, the bold text still open. Handing
//! the whole tail over after every push costs the host the tail's length
//! per push (copied out of wasm, parsed again into the DOM); handing the
//! change costs what changed. One comparison finds it, whatever made the
//! tail (docs/streaming.md, "The tail as a change"): the new tail is the
//! old one with HTML inserted at its *typing point*, where the old tail is
//! followed only by end tags, or else it replaces the old one.
//!
//! The typing point is where a DOM host can find it without reading the
//! HTML: at the end of the element `depth` levels into the tail, each
//! level being the last element of the one before (the end tags after the
//! typing point close exactly those elements, and nothing but line feeds
//! between them follows any of them).

use std::ops::Range;

use crate::html::is_void_element;

/// How the tail changed since the last one a host was handed through
/// [`Stream::tail_change`](super::Stream::tail_change).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum TailChange<'t> {
    /// The tail is the same.
    Same,
    /// Insert `html`, balanced, at the typing point of the tail shown:
    /// inside the element `depth` levels into it (0: the innermost element
    /// the stream leaves open, after the tail's nodes; 1: its last element,
    /// which is the tail's; and so on, each the last element of the one
    /// before), after what it holds. In the tail's HTML, that is before its
    /// last `before` bytes, which are end tags (and line feeds after them).
    Insert {
        /// The HTML to insert.
        html: &'t str,
        /// How many elements deep into the tail it goes.
        depth: usize,
        /// How many bytes of the tail shown come after it.
        before: usize,
    },
    /// Replace the tail shown with this.
    Replace(&'t str),
}

impl<'t> TailChange<'t> {
    /// The HTML the change hands over: what it inserts, or the new tail;
    /// empty when the tail is the same.
    pub fn html(&self) -> &'t str {
        match *self {
            TailChange::Same => "",
            TailChange::Insert { html, .. } | TailChange::Replace(html) => html,
        }
    }

    /// Applies the change to `tail`, the tail shown so far as a string:
    /// it becomes the stream's tail.
    ///
    /// # Examples
    /// ```
    /// use citemark::{Options, Stream};
    ///
    /// let mut stream = Stream::new(Options::default());
    /// let mut shown = String::new();
    /// for chunk in ["Revenue **gr", "ew** by a", " third [1", "]."] {
    ///     stream.push_deferred(chunk);
    ///     stream.tail_change().apply_to(&mut shown);
    ///     assert_eq!(shown, stream.tail());
    /// }
    /// ```
    pub fn apply_to(&self, tail: &mut String) {
        match *self {
            TailChange::Same => {}
            TailChange::Insert { html, before, .. } => {
                tail.insert_str(tail.len().saturating_sub(before), html);
            }
            TailChange::Replace(html) => html.clone_into(tail),
        }
    }
}

/// A [`TailChange`] as ranges of the new tail, so that the tail can be
/// kept while the change borrows from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Found {
    Same,
    Insert {
        html: Range<usize>,
        depth: usize,
        before: usize,
    },
    Replace,
}

impl Found {
    /// The change, borrowing from `new`, the tail it was found for.
    pub(super) fn in_tail(self, new: &str) -> TailChange<'_> {
        match self {
            Found::Same => TailChange::Same,
            Found::Insert {
                html,
                depth,
                before,
            } => TailChange::Insert {
                html: &new[html],
                depth,
                before,
            },
            Found::Replace => TailChange::Replace(new),
        }
    }
}

/// How `new` differs from `old`, both tails of balanced HTML.
///
/// The typing point can only be where the end tags ending `old` start, or
/// after one of them: each such place, from the last, is tried (the text
/// before it must start `new`, the end tags after it end `new`, and what
/// is in between must be balanced).
pub(super) fn between(old: &str, new: &str) -> Found {
    if old == new {
        return Found::Same;
    }
    if new.len() > old.len() {
        let mut depth = 0;
        let mut at = old.len();
        loop {
            let (before, after) = old.split_at(at);
            if new.starts_with(before) && new.ends_with(after) {
                let html = at..new.len() - after.len();
                if is_balanced(&new[html.clone()]) {
                    return Found::Insert {
                        html,
                        depth,
                        before: after.len(),
                    };
                }
            }
            match end_tag_before(before) {
                Some(start) => (at, depth) = (start, depth + 1),
                None => break,
            }
        }
    }
    Found::Replace
}

/// The typing point at the end of `tail`'s text, before the end tags that
/// end it (and the line feeds after them): how many elements deep it is,
/// and how many bytes come after it.
pub(super) fn typing_point(tail: &str) -> (usize, usize) {
    let (mut at, mut depth) = (tail.len(), 0);
    while let Some(start) = end_tag_before(&tail[..at]) {
        (at, depth) = (start, depth + 1);
    }
    (depth, tail.len() - at)
}

/// Where the end tag that ends `html` (before any line feeds) starts.
fn end_tag_before(html: &str) -> Option<usize> {
    let tag = html.trim_end_matches('\n').strip_suffix('>')?;
    let start = memchr::memrchr(b'<', tag.as_bytes())?;
    let name = tag[start..].strip_prefix("</")?;
    (!name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric())).then_some(start)
}

/// Whether `html` closes every element it opens and none it did not, so
/// that it can be inserted on its own.
fn is_balanced(html: &str) -> bool {
    let mut depth = 0usize;
    let bytes = html.as_bytes();
    for open in memchr::memchr_iter(b'<', bytes) {
        let tag = &html[open + 1..];
        let name_end = tag
            .find(|c: char| !c.is_ascii_alphanumeric() && c != '/')
            .unwrap_or(tag.len());
        let name = &tag[..name_end];
        if let Some(closed) = name.strip_prefix('/') {
            if closed.is_empty() {
                return false;
            }
            let Some(less) = depth.checked_sub(1) else {
                return false;
            };
            depth = less;
        } else if !name.is_empty() && !is_void_element(name) && !self_closed(tag) {
            depth += 1;
        }
    }
    depth == 0
}

/// Whether the tag `tag` (after its `<`) ends in `/>`.
fn self_closed(tag: &str) -> bool {
    tag.find('>').is_some_and(|end| tag[..end].ends_with('/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(old: &str, new: &str) -> Option<(String, usize)> {
        match between(old, new) {
            Found::Insert { html, depth, .. } => Some((new[html].to_owned(), depth)),
            _ => None,
        }
    }

    #[test]
    fn typed_text_goes_in_at_the_typing_point() {
        assert_eq!(between("<p>a</p>\n", "<p>a</p>\n"), Found::Same);
        assert_eq!(change("", "<p>a</p>\n"), Some(("<p>a</p>\n".into(), 0)));
        assert_eq!(change("<p>ab</p>\n", "<p>abc</p>\n"), Some(("c".into(), 1)));
        assert_eq!(
            change(
                "<p>x <strong>bol</strong></p>\n",
                "<p>x <strong>bold</strong></p>\n"
            ),
            Some(("d".into(), 2))
        );
        assert_eq!(
            change("<ul>\n<li>a</li>\n</ul>\n", "<ul>\n<li>a b</li>\n</ul>\n"),
            Some((" b".into(), 2))
        );
        // (Text before a new tag: the common part stops before `<`.)
        assert_eq!(
            change("<p>x</p>\n", "<p>x<em>y</em></p>\n"),
            Some(("<em>y</em>".into(), 1))
        );
        // (An entity is not cut.)
        assert_eq!(
            change("<p>a &amp;</p>", "<p>a &amp;&amp;</p>"),
            Some(("&amp;".into(), 1))
        );
        assert_eq!(change("a &lt;", "a &lt;b"), Some(("b".into(), 0)));
        // (A character is not cut.)
        assert_eq!(change("<p>é</p>", "<p>è</p>"), None);
        assert_eq!(
            change("<p>a</p>", "<p>a<br />b</p>"),
            Some(("<br />b".into(), 1))
        );
    }

    #[test]
    fn the_typing_point_is_before_the_end_tags() {
        assert_eq!(typing_point("<p>a</p>\n"), (1, 5));
        assert_eq!(typing_point("<li>a <em>b</em></li>\n</ul>\n"), (3, 17));
        assert_eq!(typing_point("a"), (0, 0));
        assert_eq!(typing_point(""), (0, 0));
    }

    #[test]
    fn other_changes_replace_the_tail() {
        assert_eq!(between("<p>ab</p>\n", "<p>ax</p>\n"), Found::Replace);
        assert_eq!(between("<p>ab</p>\n", "<p>a</p>\n"), Found::Replace);
        assert_eq!(between("<p>a</p>", "<h1>a</h1>"), Found::Replace);
        // (Text after the typing point is not an end tag.)
        assert_eq!(between("<p>a b</p>", "<p>a c b</p>"), Found::Replace);
        // (What would go in closes an element it did not open.)
        assert_eq!(
            between("<p>a</p>", "<p>a</p><p>b</p>"),
            Found::Insert {
                html: 8..16,
                depth: 0,
                before: 0
            }
        );
        assert_eq!(
            between("<p><em>a</em></p>", "<p><em>a</em></p></p>"),
            Found::Replace
        );
    }

    #[test]
    fn changes_applied_give_the_new_tail() {
        let tails = [
            "",
            "<p>a</p>\n",
            "<p>a <em>b</em></p>\n",
            "<p>a <em>b</em> c</p>\n",
            "<p>a <em>b</em> c</p>\n<p>d</p>\n",
            "<h2>x</h2>\n",
        ];
        for old in tails {
            for new in tails {
                let mut shown = old.to_owned();
                between(old, new).in_tail(new).apply_to(&mut shown);
                assert_eq!(shown, new, "{old:?} to {new:?}");
            }
        }
    }
}
