//! The wasm-bindgen shell of the provider adapters (feature `wasm-adapters`):
//! `adapt`. The npm package's default wasm is built with it (beside `wasm`);
//! the lite wasm without it, 29 KB gzipped less (docs/performance.md), and
//! the lite entries re-export `adapt` from `citemark/adapters`, a wasm of
//! this shell alone, which a bundle holds only when `adapt` is used. As thin as
//! [`wasm`](crate::wasm): JSON text in and out, an `Err` is a one-line
//! message naming the bad value, thrown by the glue as a JS `TypeError`.

use wasm_bindgen::prelude::wasm_bindgen;

use crate::adapters::{adapt as adapt_response, Provider};

/// `adapt(provider, responseJson)`: the `Adapted` (markdown, sources,
/// aliases, warnings) as JSON.
#[wasm_bindgen]
pub fn adapt(provider: &str, response_json: &str) -> Result<String, String> {
    let provider: Provider = provider.parse().map_err(|e: crate::Error| match e {
        crate::Error::InvalidOption { reason, .. } => format!("provider: {reason}"),
    })?;
    let response: serde_json::Value =
        serde_json::from_str(response_json).map_err(|e| format!("response: not JSON: {e}"))?;
    serde_json::to_string(&adapt_response(provider, &response))
        .map_err(|e| format!("cannot write JSON: {e}"))
}
