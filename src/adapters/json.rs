//! Reading provider JSON defensively: the few accessors every adapter
//! shares, each of which reports a value of the wrong type as a
//! [`Warning`](super::Warning) instead of failing.

use serde_json::{Map, Value};

use super::Adapted;

/// How warnings name the response itself.
pub(crate) const ROOT: &str = "$";

/// How a JSON value's kind reads in a warning.
pub(crate) fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// `[3]` for an element of the response itself, `sources[3]` otherwise.
pub(crate) fn element_path(list_path: &str, i: usize) -> String {
    if list_path == ROOT {
        format!("[{i}]")
    } else {
        format!("{list_path}[{i}]")
    }
}

/// `path.key`, or just `key` under the root.
pub(crate) fn field_path(path: &str, key: &str) -> String {
    if path == ROOT {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

/// The string at `object[key]`; absent and `null` are `None` silently, any
/// other type is `None` with a warning.
pub(crate) fn string_field(
    object: &Map<String, Value>,
    key: &str,
    path: &str,
    adapted: &mut Adapted,
) -> Option<String> {
    match object.get(key) {
        None | Some(Value::Null) => None,
        Some(Value::String(text)) => Some(text.clone()),
        Some(other) => {
            adapted.warn(
                field_path(path, key),
                format!("expected a string, found {}", type_name(other)),
            );
            None
        }
    }
}

/// The array at `object[key]`; absent and `null` are empty silently, any
/// other type is empty with a warning.
pub(crate) fn array_field<'a>(
    object: &'a Map<String, Value>,
    key: &str,
    path: &str,
    adapted: &mut Adapted,
) -> &'a [Value] {
    match object.get(key) {
        None | Some(Value::Null) => &[],
        Some(Value::Array(items)) => items,
        Some(other) => {
            adapted.warn(
                field_path(path, key),
                format!("expected an array, found {}", type_name(other)),
            );
            &[]
        }
    }
}

/// `value` as an object, or `None` with a warning naming `path`.
pub(crate) fn expect_object<'a>(
    value: &'a Value,
    path: &str,
    what: &str,
    adapted: &mut Adapted,
) -> Option<&'a Map<String, Value>> {
    let object = value.as_object();
    if object.is_none() {
        adapted.warn(
            path,
            format!("expected {what} (an object), found {}", type_name(value)),
        );
    }
    object
}

/// An object of the `fields` that are `Some`. (Inserted one by
/// one: collecting pairs into a `Map` compiles a sort into each call site.)
pub(crate) fn object_of(fields: &[(&str, Option<&Value>)]) -> Map<String, Value> {
    let mut object = Map::new();
    for &(key, value) in fields {
        if let Some(value) = value {
            object.insert(key.to_owned(), value.clone());
        }
    }
    object
}

/// The fields of `map` named in `keys` that are present and not `null`,
/// in `keys`' order.
pub(crate) fn non_null_fields(map: &Map<String, Value>, keys: &[&str]) -> Map<String, Value> {
    let mut object = Map::new();
    for &key in keys {
        if let Some(value) = map.get(key).filter(|v| !v.is_null()) {
            object.insert(key.to_owned(), value.clone());
        }
    }
    object
}

/// An object of `fields`, in one copy of the code: `json!` with values in
/// it compiles a `to_value` (a serializer into `Value`) per value type.
pub(crate) fn object(fields: Vec<(&str, Value)>) -> Value {
    let mut object = Map::new();
    for (key, value) in fields {
        object.insert(key.to_owned(), value);
    }
    Value::Object(object)
}

/// A non-negative integer offset or index; `None` for anything else.
pub(crate) fn as_index(value: &Value) -> Option<usize> {
    value.as_u64().and_then(|n| usize::try_from(n).ok())
}
