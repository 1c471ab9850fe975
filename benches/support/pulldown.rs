//! The contender the render benchmarks measure citemark against:
//! pulldown-cmark's own `push_html`, with the dialect citemark parses
//! (tables, strikethrough, task lists, footnotes, GFM).

use pulldown_cmark::{html::push_html, Options, Parser};

/// `markdown` as pulldown-cmark's `push_html` writes it.
pub fn pulldown_html(markdown: &str) -> String {
    let mut html = String::with_capacity(markdown.len() + markdown.len() / 2);
    push_html(&mut html, Parser::new_ext(markdown, gfm_options()));
    html
}

/// citemark's dialect (`src/parse.rs`) in pulldown-cmark's options.
pub fn gfm_options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_GFM
}
