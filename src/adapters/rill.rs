//! Rill-style conversations, where the answer cites the assistant's own tool
//! calls: `<cite id="CALL_ID">…</cite>` tags and short links
//! `…/-/ai/conversations/{conversation}/call/{CALL_ID}`.
//!
//! Accepted shape: `{"id": …, "messages": [...]}` or a bare array of
//! messages. A message has `id`, `type` and:
//!
//! - `type: "tool_call"` (or `"call"`): `tool` (the tool's name) and
//!   `content_data`, the call's arguments as a JSON string or object. Each
//!   becomes a source with `id` = the message id, `title` = the tool name plus
//!   what it queried (`metrics_view`, `query`, `sql`, `table` or `name`, the
//!   first one present), and `data` = `{tool, arguments}`.
//! - `type: "tool_result"` (or `"result"`) with `parent_id`/`call_id`: its
//!   `content_data` goes into the call's `data.result`.
//! - any other type with `role: "assistant"`: text. The answer is the last
//!   such message's `content` (or its `content_data` when that is a string).
//!
//! Forked conversations copy messages under new ids; a copied message names
//! its original in `forked_from` (or `original_id`), and each such pair
//! becomes an alias, so citations written before the fork still resolve.
//!
//! # Example
//! ```
//! use citemark::adapters::rill;
//! use serde_json::json;
//!
//! let conversation = json!({"id": "conv_1", "messages": [
//!     {"id": "call_7", "type": "tool_call", "tool": "query_metrics_view",
//!      "content_data": "{\"metrics_view\": \"sales\", \"measures\": [\"revenue\"]}"},
//!     {"id": "msg_2", "type": "text", "role": "assistant",
//!      "content": "Revenue is up <cite id=\"call_7\">12%</cite>."}
//! ]});
//! let adapted = rill::adapt(&conversation);
//! assert_eq!(adapted.markdown, "Revenue is up <cite id=\"call_7\">12%</cite>.");
//! assert_eq!(adapted.sources[0].title.as_deref(), Some("query_metrics_view: sales"));
//! let out = citemark::render(&adapted.markdown, &adapted.options());
//! assert!(out.citations.occurrences[0].resolved);
//! ```

use serde_json::{Map, Value};

use super::json::{
    array_field, element_path, expect_object, object, string_field, type_name, ROOT,
};
use super::Adapted;
use crate::source::Source;

/// Argument fields that say what a tool call looked at, in order of
/// preference for its title.
const SUBJECT_FIELDS: [&str; 5] = ["metrics_view", "query", "sql", "table", "name"];

/// Turns a conversation into the last answer's markdown and its tool calls
/// as sources.
///
/// Never fails: unusable messages are skipped, and each problem is reported
/// in [`Adapted::warnings`](super::Adapted::warnings).
pub fn adapt(response: &Value) -> Adapted {
    let mut adapted = Adapted::default();
    let (messages, list_path) = match response {
        Value::Array(messages) => (messages.as_slice(), ROOT),
        Value::Object(conversation) => (
            array_field(conversation, "messages", ROOT, &mut adapted),
            "messages",
        ),
        other => {
            adapted.warn(
                ROOT,
                format!(
                    "expected a conversation or a list of messages, found {}",
                    type_name(other)
                ),
            );
            return adapted;
        }
    };
    let mut answer = None;
    for (i, message) in messages.iter().enumerate() {
        let path = element_path(list_path, i);
        let Some(message) = expect_object(message, &path, "a message", &mut adapted) else {
            continue;
        };
        match message.get("type").and_then(Value::as_str) {
            Some("tool_call" | "call") => add_call(message, &path, &mut adapted),
            Some("tool_result" | "result") => add_result(message, &path, &mut adapted),
            _ if message.get("role").and_then(Value::as_str) == Some("assistant") => {
                answer = message_text(message).or(answer);
            }
            _ => {}
        }
    }
    match answer {
        Some(text) => adapted.markdown = text,
        None => adapted.warn(list_path, "no assistant text message: the answer is empty"),
    }
    adapted
}

fn add_call(message: &Map<String, Value>, path: &str, adapted: &mut Adapted) {
    let Some(id) = string_field(message, "id", path, adapted) else {
        adapted.warn(path, "tool call without an `id`: nothing can cite it");
        return;
    };
    if adapted
        .sources
        .iter()
        .any(|s| s.id.as_deref() == Some(id.as_str()))
    {
        adapted.warn(
            path,
            format!("duplicate id {id:?}: the first call keeps it"),
        );
        return;
    }
    for key in ["forked_from", "original_id"] {
        if let Some(original) = string_field(message, key, path, adapted) {
            adapted.aliases.insert(original, id.clone());
        }
    }
    let tool = string_field(message, "tool", path, adapted);
    let arguments = content_data(message, path, adapted);
    let subject = SUBJECT_FIELDS
        .iter()
        .find_map(|field| arguments.get(*field)?.as_str());
    let title = match (&tool, subject) {
        (Some(tool), Some(subject)) => Some(format!("{tool}: {subject}")),
        (Some(tool), None) => Some(tool.clone()),
        (None, subject) => subject.map(str::to_owned),
    };
    adapted.sources.push(Source {
        id: Some(id),
        title,
        data: object(vec![("tool", tool.into()), ("arguments", arguments)]),
        ..Source::default()
    });
}

fn add_result(message: &Map<String, Value>, path: &str, adapted: &mut Adapted) {
    let call = ["parent_id", "call_id"]
        .iter()
        .find_map(|key| message.get(*key)?.as_str());
    let Some(call) = call else {
        return;
    };
    let result = content_data(message, path, adapted);
    let source = adapted
        .sources
        .iter_mut()
        .find(|s| s.id.as_deref() == Some(call));
    match source {
        Some(source) => {
            if let Value::Object(data) = &mut source.data {
                data.insert("result".into(), result);
            }
        }
        None => adapted.warn(path, format!("result for unknown call {call:?}")),
    }
}

/// `content_data` as JSON: parsed when it is a string holding JSON.
fn content_data(message: &Map<String, Value>, path: &str, adapted: &mut Adapted) -> Value {
    match message.get("content_data") {
        None | Some(Value::Null) => Value::Null,
        Some(Value::String(text)) => serde_json::from_str(text).unwrap_or_else(|e| {
            adapted.warn(
                format!("{path}.content_data"),
                format!("not JSON ({e}): kept as text"),
            );
            Value::String(text.clone())
        }),
        Some(other) => other.clone(),
    }
}

fn message_text(message: &Map<String, Value>) -> Option<String> {
    ["content", "content_data"]
        .iter()
        .find_map(|key| message.get(*key)?.as_str())
        .map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn conversation() -> Value {
        json!({"id": "conv_9", "messages": [
            {"id": "u1", "type": "text", "role": "user", "content": "Why did EMEA revenue drop?"},
            {"id": "call_a", "type": "tool_call", "role": "assistant", "tool": "query_metrics_view",
             "content_data": "{\"metrics_view\":\"revenue\",\"dimensions\":[\"region\"]}"},
            {"id": "res_a", "type": "tool_result", "parent_id": "call_a", "content_data": "{\"rows\":3}"},
            {"id": "call_b", "type": "tool_call", "tool": "list_metrics_views", "content_data": {}},
            {"id": "m1", "type": "text", "role": "assistant", "content": "Draft."},
            {"id": "m2", "type": "text", "role": "assistant", "content":
             "EMEA fell 8% <cite id=\"call_a\">by region</cite>; see [views](https://app.example/acme/sales/-/ai/conversations/conv_9/call/call_b). Größer in DACH."}
        ]})
    }

    #[test]
    fn tool_calls_become_sources_that_tags_and_short_links_resolve_to() {
        let adapted = adapt(&conversation());
        assert!(
            adapted.markdown.starts_with("EMEA fell 8%"),
            "the last assistant text wins"
        );
        assert_eq!(adapted.warnings, []);
        assert_eq!(adapted.sources[0].id.as_deref(), Some("call_a"));
        assert_eq!(
            adapted.sources[0].title.as_deref(),
            Some("query_metrics_view: revenue")
        );
        assert_eq!(
            adapted.sources[0].data["arguments"]["dimensions"][0],
            "region"
        );
        assert_eq!(adapted.sources[0].data["result"]["rows"], 3);
        assert_eq!(
            adapted.sources[1].title.as_deref(),
            Some("list_metrics_views")
        );
        let out = crate::render(&adapted.markdown, &adapted.options());
        let keys: Vec<(&str, bool)> = out
            .citations
            .occurrences
            .iter()
            .map(|o| (o.key.as_str(), o.resolved))
            .collect();
        assert_eq!(keys, [("call_a", true), ("call_b", true)]);
    }

    #[test]
    fn forked_calls_alias_their_original_ids() {
        let adapted = adapt(&json!([
            {"id": "call_new", "type": "call", "tool": "sql", "forked_from": "call_old",
             "content_data": {"sql": "SELECT 1"}},
            {"id": "m", "type": "text", "role": "assistant", "content": "One <cite id=\"call_old\">row</cite>."}
        ]));
        assert_eq!(
            adapted.aliases.get("call_old").map(String::as_str),
            Some("call_new")
        );
        assert_eq!(adapted.sources[0].title.as_deref(), Some("sql: SELECT 1"));
        let out = crate::render(&adapted.markdown, &adapted.options());
        assert!(out.citations.occurrences[0].resolved);
        assert_eq!(out.citations.occurrences[0].key, "call_new");
    }

    #[test]
    fn malformed_messages_warn_and_the_rest_survive() {
        let adapted = adapt(&json!({"messages": [
            {"type": "tool_call", "tool": "x"},
            {"id": "c1", "type": "tool_call", "tool": "q", "content_data": "{not json"},
            {"id": "c1", "type": "tool_call", "tool": "dup"},
            {"id": "r", "type": "tool_result", "parent_id": "nope", "content_data": "{}"},
            7,
            {"id": "m", "type": "text", "role": "assistant", "content": "Done <cite id=\"c1\">here</cite>."}
        ]}));
        assert_eq!(adapted.sources.len(), 1);
        assert_eq!(adapted.sources[0].data["arguments"], "{not json");
        let paths: Vec<&str> = adapted.warnings.iter().map(|w| w.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "messages[0]",
                "messages[1].content_data",
                "messages[2]",
                "messages[3]",
                "messages[4]"
            ]
        );
        for wrong in [json!(null), json!("x"), json!({"messages": 3}), json!([])] {
            let adapted = adapt(&wrong);
            assert_eq!(adapted.markdown, "");
            assert!(!adapted.warnings.is_empty(), "{wrong}");
        }
    }
}
