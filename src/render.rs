//! One-shot rendering: the pipeline from markdown to [`Rendered`].

use serde::{Deserialize, Serialize};

use crate::cite::index::FootnoteNumbering;
use crate::cite::index::{CitationIndex, IndexBuilder, Offset};
use crate::cite::{marker_definitions, Citations};
use crate::html::{html_capacity, write_html, SourceAttributes};
use crate::options::Options;
use crate::parse::{parse, unix_line_endings, without_byte_order_mark};

/// The result of [`render`]: sanitized HTML and the citation index.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Rendered {
    /// The HTML, safe to insert with `innerHTML`.
    pub html: String,
    /// Every citation in the HTML, and the sources they cite.
    pub citations: CitationIndex,
}

/// Renders `markdown` to sanitized HTML and a citation index.
///
/// Never fails and never panics: any input renders.
///
/// # Examples
/// ```
/// use citemark::{render, Options};
///
/// let out = render("A claim [1] and <b onclick=x>bold</b> [evil](javascript:alert(1)).", &Options::default());
/// assert_eq!(
///     out.html,
///     concat!(
///         r#"<p>A claim <sup><a class="citation citation-unresolved" title="1" data-citation-key="1" "#,
///         r#"data-citation-kind="index" data-citation-ordinal="1">1</a></sup> and <b>bold</b> evil.</p>"#,
///         "\n"
///     )
/// );
/// assert!(!out.citations.occurrences[0].resolved);
/// ```
pub fn render(markdown: &str, options: &Options) -> Rendered {
    let (markdown, bom) = without_byte_order_mark(markdown);
    let markdown = unix_line_endings(markdown);
    let markdown = markdown.as_ref();
    let mut events = parse(markdown);
    let definitions = marker_definitions(events.reference_definitions());
    // Ranges point into the input, byte-order mark included.
    let index = IndexBuilder::new().part(Offset { add: bom, sub: 0 });
    let mut citations = Citations::resume(markdown, &mut events, options, index)
        .with_marker_definitions(definitions);
    let html = write_html(
        &mut citations,
        options,
        html_capacity(markdown.len()),
        &mut SourceAttributes::default(),
        &mut FootnoteNumbering::default(),
    )
    .html;
    Rendered {
        html,
        citations: citations.finish(),
    }
}
