//! The markdown dialect: pulldown-cmark set up for CommonMark + GFM.
//!
//! Only this module names pulldown-cmark's options, so the dialect is
//! decided in one place.

use std::borrow::Cow;

use pulldown_cmark::{BrokenLink, CowStr, Event, Options as ParserOptions, Parser, Tag, TagEnd};

/// GFM on top of CommonMark: tables, strikethrough, task lists, footnotes
/// and GitHub's blockquote alerts. (Extended autolinks are citemark's own;
/// see the `autolink` module.)
pub(crate) fn parser_options() -> ParserOptions {
    ParserOptions::ENABLE_TABLES
        | ParserOptions::ENABLE_STRIKETHROUGH
        | ParserOptions::ENABLE_TASKLISTS
        | ParserOptions::ENABLE_FOOTNOTES
        | ParserOptions::ENABLE_GFM
}

/// The one broken-link callback type of every parser here. pulldown-cmark's
/// parser is generic over its callback, so a second type (its
/// `DefaultBrokenLinkCallback` for [`parse`]) would compile the whole inline
/// parser twice (~20 KB of the npm package's wasm); a boxed closure, absent
/// where nothing is noted, keeps it to one copy.
pub(crate) type OnBrokenLink<'c, 'a> =
    Box<dyn FnMut(BrokenLink<'a>) -> Option<(CowStr<'a>, CowStr<'a>)> + 'c>;

/// `markdown` with every carriage return that is not part of a CRLF made a
/// line feed. CommonMark reads the three line endings alike, but
/// pulldown-cmark 0.13 does not after an indented code block: there a lone
/// CR loses the line after it (`"    c\n\n\rtext"` renders no `text`) or
/// joins it to the code (`"    c\r\rtext"`). The length is kept, so byte
/// ranges still point into the input. Every parser here reads text made by
/// this.
pub(crate) fn unix_line_endings(markdown: &str) -> Cow<'_, str> {
    let bytes = markdown.as_bytes();
    let lone_cr = |i: usize| bytes.get(i + 1) != Some(&b'\n');
    if !memchr::memchr_iter(b'\r', bytes).any(lone_cr) {
        return Cow::Borrowed(markdown);
    }
    let mut text = String::with_capacity(markdown.len());
    let mut copied = 0;
    for cr in memchr::memchr_iter(b'\r', bytes).filter(|&i| lone_cr(i)) {
        text.push_str(&markdown[copied..cr]);
        text.push('\n');
        copied = cr + 1;
    }
    text.push_str(&markdown[copied..]);
    Cow::Owned(text)
}

/// `markdown` without the byte-order mark it may start with, and that
/// mark's length in bytes (to move ranges back to the input). A BOM is
/// encoding metadata, not text: kept, it would make a first `# heading`
/// a paragraph.
pub(crate) fn without_byte_order_mark(markdown: &str) -> (&str, usize) {
    match markdown.strip_prefix(BYTE_ORDER_MARK) {
        Some(rest) => (rest, BYTE_ORDER_MARK.len_utf8()),
        None => (markdown, 0),
    }
}

const BYTE_ORDER_MARK: char = '\u{FEFF}';

/// Whether the character at `at` in `text` is backslash-escaped: an odd
/// number of backslashes right before it.
pub(crate) fn is_escaped(text: &str, at: usize) -> bool {
    let before = &text.as_bytes()[..at.min(text.len())];
    before.iter().rev().take_while(|&&b| b == b'\\').count() % 2 == 1
}

/// A parser over `markdown` whose events carry their source byte ranges.
pub(crate) fn parse(markdown: &str) -> pulldown_cmark::OffsetIter<'_, OnBrokenLink<'static, '_>> {
    // No callback: what `Parser::new_ext` does.
    Parser::new_with_broken_link_callback(markdown, parser_options(), None).into_offset_iter()
}

/// A parser over `markdown` that asks `on_broken_link` about every
/// reference-style link whose label has no definition: it may give the
/// link a destination and title.
pub(crate) fn parse_with_broken_links<'c, 'a, F>(
    markdown: &'a str,
    on_broken_link: F,
) -> pulldown_cmark::OffsetIter<'a, OnBrokenLink<'c, 'a>>
where
    F: FnMut(BrokenLink<'a>) -> Option<(CowStr<'a>, CowStr<'a>)> + 'c,
{
    let callback: OnBrokenLink<'c, 'a> = Box::new(on_broken_link);
    Parser::new_with_broken_link_callback(markdown, parser_options(), Some(callback))
        .into_offset_iter()
}

/// The destination of a link whose definition is still to come in a
/// streamed message: the writer writes such a link as its text. (No
/// markdown can write it: the parser makes every NUL a U+FFFD.)
pub(crate) const AWAITED_DESTINATION: &str = "\0awaited";

/// Whether `event` lives inside a leaf block (paragraph, heading, cell, …)
/// rather than opening, closing or being a block itself.
pub(crate) fn is_inline(event: &Event<'_>) -> bool {
    match event {
        Event::Start(tag) => is_inline_tag(tag),
        Event::End(tag) => is_inline_end(*tag),
        Event::Html(_) | Event::Rule => false,
        Event::Text(_)
        | Event::Code(_)
        | Event::InlineMath(_)
        | Event::DisplayMath(_)
        | Event::InlineHtml(_)
        | Event::FootnoteReference(_)
        | Event::SoftBreak
        | Event::HardBreak
        | Event::TaskListMarker(_) => true,
    }
}

/// Whether `tag` is an inline container (emphasis, link, image, …).
pub(crate) fn is_inline_tag(tag: &Tag<'_>) -> bool {
    matches!(
        tag,
        Tag::Emphasis
            | Tag::Strong
            | Tag::Strikethrough
            | Tag::Superscript
            | Tag::Subscript
            | Tag::Link { .. }
            | Tag::Image { .. }
    )
}

/// Whether `tag` ends an inline container.
pub(crate) fn is_inline_end(tag: TagEnd) -> bool {
    matches!(
        tag,
        TagEnd::Emphasis
            | TagEnd::Strong
            | TagEnd::Strikethrough
            | TagEnd::Superscript
            | TagEnd::Subscript
            | TagEnd::Link
            | TagEnd::Image
    )
}

#[cfg(test)]
mod tests {
    use super::unix_line_endings;

    #[test]
    fn a_byte_order_mark_is_not_text_and_ranges_still_point_into_the_input() {
        let options = crate::Options::default();
        let input = "\u{FEFF}# Title [1]\n";
        let out = crate::render(input, &options);
        assert!(out.html.starts_with("<h1>Title "), "{}", out.html);
        let range = &out.citations.occurrences[0].range;
        assert_eq!(&input[range.start..range.end], "[1]");
        // Only the first one, and only at the start.
        let html = crate::render("\u{FEFF}\u{FEFF}x \u{FEFF}", &options).html;
        assert_eq!(html, "<p>\u{FEFF}x \u{FEFF}</p>\n");
    }

    #[test]
    fn lone_carriage_returns_become_line_feeds() {
        assert_eq!(unix_line_endings("a\rb\r\nc\r"), "a\nb\r\nc\n");
        assert_eq!(unix_line_endings("\r\r\n"), "\n\r\n");
        assert!(matches!(
            unix_line_endings("a\r\nb"),
            std::borrow::Cow::Borrowed(_)
        ));
    }

    #[test]
    fn text_after_a_lone_carriage_return_is_kept() {
        let options = crate::Options::default();
        for markdown in ["    c\n\n\rpara\n", "    c\r\rpara"] {
            let html = crate::render(markdown, &options).html;
            assert_eq!(
                html, "<pre><code>c\n</code></pre>\n<p>para</p>\n",
                "{markdown:?}"
            );
        }
    }
}
