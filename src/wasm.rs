//! The wasm-bindgen shell the npm package is built from (feature `wasm`).
//!
//! A thin layer with no logic of its own: values cross the boundary as JSON
//! text (the package's JavaScript glue runs `JSON.stringify` on the way in
//! and `JSON.parse` on the way out), and every function maps to one crate
//! call. An `Err` is a one-line message naming the bad value's path
//! ([`Error::message_at`](crate::Error::message_at)); the glue throws it as
//! a JS `TypeError`. Nothing here panics.

use wasm_bindgen::prelude::wasm_bindgen;

use crate::adapters::{adapt as adapt_response, Provider};
use crate::{Options, Stream};

fn to_json<T: serde::Serialize>(value: &T) -> Result<String, String> {
    serde_json::to_string(value).map_err(|e| format!("cannot write JSON: {e}"))
}

fn options(options_json: &str) -> Result<Options, String> {
    Options::from_json(options_json).map_err(|e| e.message_at("options"))
}

/// `render(markdown, optionsJson)`: `{"html", "citations"}` as JSON.
#[wasm_bindgen]
pub fn render(markdown: &str, options_json: &str) -> Result<String, String> {
    to_json(&crate::render(markdown, &options(options_json)?))
}

/// `adapt(provider, responseJson)`: the `Adapted` (markdown, sources,
/// aliases, warnings) as JSON.
#[wasm_bindgen]
pub fn adapt(provider: &str, response_json: &str) -> Result<String, String> {
    let provider: Provider = provider
        .parse()
        .map_err(|e: crate::Error| e.message_at("provider"))?;
    let response: serde_json::Value =
        serde_json::from_str(response_json).map_err(|e| format!("response: not JSON: {e}"))?;
    to_json(&adapt_response(provider, &response))
}

/// A [`Stream`] for JS.
#[wasm_bindgen]
pub struct WasmStream {
    inner: Stream,
}

#[wasm_bindgen]
impl WasmStream {
    /// `new WasmStream(optionsJson)`.
    #[wasm_bindgen(constructor)]
    pub fn new(options_json: &str) -> Result<WasmStream, String> {
        Ok(WasmStream {
            inner: Stream::new(options(options_json)?),
        })
    }

    /// [`Stream::push`]: the `Patch` as JSON.
    pub fn push(&mut self, chunk: &str) -> Result<String, String> {
        to_json(&self.inner.push(chunk))
    }

    /// [`Stream::push_deferred`]: the `Patch` (without `tail`) as JSON.
    #[wasm_bindgen(js_name = pushDeferred)]
    pub fn push_deferred(&mut self, chunk: &str) -> Result<String, String> {
        to_json(&self.inner.push_deferred(chunk))
    }

    /// [`Stream::tail`].
    pub fn tail(&self) -> String {
        self.inner.tail()
    }

    /// [`Stream::finish`]: the last `Patch` as JSON.
    pub fn finish(&mut self) -> Result<String, String> {
        to_json(&self.inner.finish())
    }

    /// [`Stream::set_sources`] from a JSON array of sources, or `null`.
    #[wasm_bindgen(js_name = setSources)]
    pub fn set_sources(&mut self, sources_json: &str) -> Result<(), String> {
        let sources =
            Options::sources_from_json(sources_json).map_err(|e| e.message_at("sources"))?;
        self.inner.set_sources(sources);
        Ok(())
    }

    /// [`Stream::citation_index`] as JSON.
    #[wasm_bindgen(js_name = citationIndex)]
    pub fn citation_index(&self) -> Result<String, String> {
        to_json(&self.inner.citation_index())
    }
}
