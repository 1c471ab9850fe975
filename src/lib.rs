//! citemark renders the markdown an AI assistant writes — CommonMark + GFM —
//! to sanitized HTML, and turns the citations in it into elements a chat
//! front-end can hydrate, plus a [`CitationIndex`] describing them.
//!
//! # Brief overview
//! [`render`] takes markdown and [`Options`] and returns [`Rendered`]: the
//! HTML and the index. Inside, data flows one way: pulldown-cmark parses the
//! markdown into events; an iterator adaptor recognizes citations (cite tags,
//! `[n]` markers, short links, open-query links) and GFM's bare-URL
//! autolinks, turning them into citation-aware events; the HTML writer turns
//! those into HTML, sanitizing raw HTML and URLs as it goes.
//!
//! When citations arrive the way a model API or chat backend delivers them
//! (Gemini grounding, OpenAI annotations, Anthropic citations, Perplexity,
//! Open WebUI, RAG chunks, tool-call conversations), the [`adapters`] turn
//! the raw response into the markdown and sources `render` takes.
//!
//! # Features
//! - `sanitize` (default): raw HTML is cleaned with ammonia. Without it,
//!   [`RawHtml::Sanitize`] renders as [`RawHtml::Escape`] (see
//!   [`RawHtml::effective`]): raw HTML is never passed through.
//! - `cli` (default): the `citemark` command-line tool.
//! - `wasm`: the wasm-bindgen shell the npm package is built from (`wasm`
//!   module); `make pkg` builds it.
//! - `wasm-adapters`: the provider adapters' wasm-bindgen shell
//!   (`wasm_adapters` module), built by `make pkg` into a wasm of its own.
//!
//! # Example
//! ```
//! use citemark::{render, Options, Source};
//!
//! let sources = vec![Source::with_id("call_1").with_title("Q3 revenue").with_href("https://app.example/q/1")];
//! let md = r#"Revenue grew 4% <cite id="call_1">by region</cite> and **EMEA** led [1]."#;
//! let out = render(md, &Options::default().with_sources(sources));
//! assert_eq!(
//!     out.html,
//!     concat!(
//!         r#"<p>Revenue grew 4% <a class="citation" href="https://app.example/q/1" title="Q3 revenue" "#,
//!         r#"rel="noopener noreferrer nofollow" data-citation-key="call_1" data-citation-kind="cite" "#,
//!         r#"data-citation-ordinal="1">by region</a> and <strong>EMEA</strong> led "#,
//!         r#"<sup><a class="citation" href="https://app.example/q/1" title="Q3 revenue" "#,
//!         r#"rel="noopener noreferrer nofollow" data-citation-key="1" data-citation-kind="index" "#,
//!         r#"data-citation-ordinal="2">1</a></sup>.</p>"#,
//!         "\n"
//!     )
//! );
//! assert_eq!(out.citations.occurrences.len(), 2);
//! assert_eq!(out.citations.sources[0].uses, 2);
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

// Lets unit tests share `tests/common` with the integration tests.
#[cfg(test)]
extern crate self as citemark;

pub mod adapters;
mod autolink;
mod cite;
mod error;
mod html;
mod math;
mod options;
mod parse;
mod render;
mod sanitize;
mod sort;
mod source;
mod stream;
mod url;
#[cfg(feature = "wasm")]
pub mod wasm;
#[cfg(feature = "wasm-adapters")]
pub mod wasm_adapters;

pub use cite::index::{
    CitationIndex, CitationKind, Diagnostic, DiagnosticKind, Occurrence, SourceUse, Span,
};
pub use cite::shortlink::{ShortLinkMatch, ShortLinkPattern};
pub use error::Error;
pub use options::{
    Images, Mode, Options, RawHtml, Syntaxes, UrlPolicy, DEFAULT_ID_PREFIX, DEFAULT_LINK_REL,
};
pub use render::{render, Rendered};
pub use source::Source;
pub use stream::{
    CodeLine, HeldKind, ItemCode, ItemLine, Patch, Step, Stream, StreamedHtml, TailChange, Typing,
};
