//! Provider adapters: a model API's or chat backend's raw response in,
//! citemark's input out — the markdown (with `[n]` markers inserted where the
//! provider gives positions) and the `sources` list — so that [`render`]
//! does the rest.
//!
//! Every adapter is a pure function of the response JSON. A partial or
//! malformed payload is never an error: the adapter returns what it could
//! use plus a [`Warning`] for each thing it skipped.
//!
//! # Example
//! ```
//! use citemark::adapters::{adapt, Provider};
//! use serde_json::json;
//!
//! let response = json!({
//!     "choices": [{"message": {"content": "Rust 1.80 shipped [1]."}}],
//!     "search_results": [{"title": "Rust blog", "url": "https://blog.rust-lang.org/"}]
//! });
//! let adapted = adapt(Provider::Perplexity, &response);
//! assert_eq!(adapted.markdown, "Rust 1.80 shipped [1].");
//! assert_eq!(adapted.sources[0].title.as_deref(), Some("Rust blog"));
//! let out = citemark::render(&adapted.markdown, &adapted.options());
//! assert_eq!(out.citations.occurrences.len(), 1);
//! ```
//!
//! [`render`]: crate::render

use std::collections::BTreeMap;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::options::Options;
use crate::source::Source;

/// What an adapter made of a provider's response.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Adapted {
    /// The answer's markdown, with citation markers where the provider
    /// placed citations.
    pub markdown: String,
    /// The sources the markers and ids refer to.
    pub sources: Vec<Source>,
    /// Old citation keys mapped to new ones (forked conversations).
    pub aliases: BTreeMap<String, String>,
    /// What was skipped or guessed, one entry per problem.
    pub warnings: Vec<Warning>,
}

impl Adapted {
    /// Default [`Options`] with these sources and aliases.
    pub fn options(&self) -> Options {
        let mut options = Options::default().with_sources(self.sources.clone());
        options.aliases.extend(self.aliases.clone());
        options
    }

    pub(crate) fn warn(&mut self, path: impl Into<String>, message: impl Into<String>) {
        self.warnings.push(Warning {
            path: path.into(),
            message: message.into(),
        });
    }
}

/// Something in the response an adapter could not use.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Warning {
    /// Where in the response, as a JSON path (`candidates[0].groundingMetadata`).
    pub path: String,
    /// What was wrong, in words.
    pub message: String,
}

/// The response formats citemark reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Provider {
    /// An Open WebUI message's `sources`/`citations`, or its source events.
    OpenWebUi,
    /// A RAG backend's `source_chunks`.
    Rag,
    /// Gemini `generateContent` with grounding metadata.
    Gemini,
    /// The OpenAI Responses API.
    OpenAi,
    /// The Anthropic Messages API.
    Anthropic,
    /// Perplexity chat completions.
    Perplexity,
    /// A Rill-style conversation whose tool calls are the sources.
    Rill,
}

impl Provider {
    /// Every provider, in CLI order.
    pub const ALL: [Provider; 7] = [
        Provider::OpenWebUi,
        Provider::Rag,
        Provider::Gemini,
        Provider::OpenAi,
        Provider::Anthropic,
        Provider::Perplexity,
        Provider::Rill,
    ];

    /// The name the CLI and the npm package use.
    pub fn name(self) -> &'static str {
        match self {
            Provider::OpenWebUi => "openwebui",
            Provider::Rag => "rag",
            Provider::Gemini => "gemini",
            Provider::OpenAi => "openai",
            Provider::Anthropic => "anthropic",
            Provider::Perplexity => "perplexity",
            Provider::Rill => "rill",
        }
    }
}

impl FromStr for Provider {
    type Err = Error;

    /// # Errors
    /// [`Error::InvalidOption`] naming `from` for an unknown name.
    fn from_str(name: &str) -> Result<Self, Error> {
        Provider::ALL
            .into_iter()
            .find(|p| p.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = Provider::ALL.iter().map(|p| p.name()).collect();
                Error::invalid(
                    "from",
                    format!(
                        "unknown format {name:?}, expected one of {}",
                        names.join(", ")
                    ),
                )
            })
    }
}

/// Turns `response` (the provider's raw JSON) into citemark's input.
pub fn adapt(provider: Provider, response: &serde_json::Value) -> Adapted {
    match provider {
        Provider::OpenWebUi => openwebui::adapt(response),
        Provider::Rag => rag::adapt(response),
        Provider::Gemini => gemini::adapt(response),
        Provider::OpenAi => openai::adapt(response),
        Provider::Anthropic => anthropic::adapt(response),
        Provider::Perplexity => perplexity::adapt(response),
        Provider::Rill => rill::adapt(response),
    }
}

pub mod anthropic;
pub mod gemini;
mod insert;
mod json;
pub mod openai;
pub mod openwebui;
pub mod perplexity;
pub mod rag;
pub mod rill;
