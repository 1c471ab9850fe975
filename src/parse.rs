//! The markdown dialect: pulldown-cmark set up for CommonMark + GFM.
//!
//! Only this module names pulldown-cmark's options, so the dialect is
//! decided in one place.

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

/// A parser over `markdown` whose events carry their source byte ranges.
pub(crate) fn parse(markdown: &str) -> pulldown_cmark::OffsetIter<'_, OnBrokenLink<'static, '_>> {
    // No callback: what `Parser::new_ext` does.
    Parser::new_with_broken_link_callback(markdown, parser_options(), None).into_offset_iter()
}

/// A parser over `markdown` that calls `on_broken_link` for every
/// reference-style link whose label has no definition.
pub(crate) fn parse_noting_broken_links<'c, 'a, F>(
    markdown: &'a str,
    mut on_broken_link: F,
) -> pulldown_cmark::OffsetIter<'a, OnBrokenLink<'c, 'a>>
where
    F: FnMut(BrokenLink<'a>) + 'c,
{
    let callback: OnBrokenLink<'c, 'a> = Box::new(move |link| {
        on_broken_link(link);
        None
    });
    Parser::new_with_broken_link_callback(markdown, parser_options(), Some(callback))
        .into_offset_iter()
}

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
