//! The host's sources and how a citation key finds one.
//!
//! A `[n]` marker looks a source up by number (`index`, by default its
//! position + 1); cite tags and short links look one up by `id`, after
//! following [`Options::aliases`](crate::Options::aliases).

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::options::Options;
use crate::sort::sort_positions;

/// One thing the answer may cite: a tool call, a retrieved document, a web
/// result.
///
/// # Examples
/// ```
/// use citemark::Source;
///
/// let s = Source::with_id("call_1").with_title("Sales by region").with_href("https://app/q/1");
/// assert_eq!(s.id.as_deref(), Some("call_1"));
/// let json = serde_json::to_string(&s).unwrap();
/// assert_eq!(json, r#"{"id":"call_1","title":"Sales by region","href":"https://app/q/1"}"#);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
#[non_exhaustive]
pub struct Source {
    /// The key cite tags and short links use (a tool-call id, a document id).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The number `[n]` markers use; defaults to the position in the list + 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<u32>,
    /// Display title (link `title`, tooltip, source list).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Where a click should go; scheme-checked before it is written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub href: Option<String>,
    /// A quoted passage, for hover previews.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub excerpt: Option<String>,
    /// Anything else the host wants back in the citation index.
    #[serde(skip_serializing_if = "serde_json::Value::is_null")]
    pub data: serde_json::Value,
}

impl Source {
    /// A source with only an `id`.
    pub fn with_id(id: impl Into<String>) -> Self {
        Source {
            id: Some(id.into()),
            ..Source::default()
        }
    }

    /// A source with only an explicit `index`.
    pub fn with_index(index: u32) -> Self {
        Source {
            index: Some(index),
            ..Source::default()
        }
    }

    /// Sets the title.
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Sets the href.
    pub fn with_href(mut self, href: impl Into<String>) -> Self {
        self.href = Some(href.into());
        self
    }

    /// Sets the excerpt.
    pub fn with_excerpt(mut self, excerpt: impl Into<String>) -> Self {
        self.excerpt = Some(excerpt.into());
        self
    }

    /// Sets the free-form data.
    pub fn with_data(mut self, data: serde_json::Value) -> Self {
        self.data = data;
        self
    }
}

/// The order a list of sources is looked up in: by id and by number.
/// It depends on the list alone, so a stream builds it once per list, not
/// once per rendered piece.
#[derive(Debug, Clone, Default)]
pub(crate) struct SourceOrder {
    /// Positions of the sources with an id, sorted by id (the first source
    /// with an id only): cheaper to build than a hash map for the few
    /// sources a message has.
    by_id: Vec<usize>,
    /// (number, position), sorted by number: markers look up here a lot,
    /// and a binary search over a few numbers beats hashing.
    by_index: Vec<(u32, usize)>,
}

impl SourceOrder {
    pub(crate) fn new(sources: Option<&[Source]>) -> Self {
        let sources = sources.unwrap_or_default();
        let id = |position: usize| sources[position].id.as_deref();
        let mut by_id: Vec<usize> = (0..sources.len()).filter(|&p| id(p).is_some()).collect();
        // The first source with an id wins (equal ids stay in position order).
        sort_positions(&mut by_id, &|a, b| id(a).cmp(&id(b)));
        by_id.dedup_by_key(|&mut p| id(p));
        // By (number, written explicitly?, position): an explicit `index`
        // wins over another source's default one, and among equals the first.
        let number = |position: usize| {
            let default = u32::try_from(position + 1).unwrap_or(u32::MAX);
            sources[position].index.unwrap_or(default)
        };
        let implicit = |position: usize| sources[position].index.is_none();
        let mut numbered: Vec<usize> = (0..sources.len()).collect();
        sort_positions(&mut numbered, &|a, b| {
            (number(a), implicit(a)).cmp(&(number(b), implicit(b)))
        });
        numbered.dedup_by_key(|&mut p| number(p));
        let by_index = numbered.into_iter().map(|p| (number(p), p)).collect();
        SourceOrder { by_id, by_index }
    }
}

/// Lookups over the supplied sources.
pub(crate) struct SourceTable<'o> {
    pub(crate) sources: Option<&'o [Source]>,
    order: Cow<'o, SourceOrder>,
    aliases: &'o BTreeMap<String, String>,
}

/// The longest alias chain followed; longer chains are cycles or mistakes.
const MAX_ALIAS_HOPS: usize = 16;

impl<'o> SourceTable<'o> {
    pub(crate) fn new(
        sources: Option<&'o [Source]>,
        aliases: &'o BTreeMap<String, String>,
    ) -> Self {
        SourceTable {
            sources,
            order: Cow::Owned(SourceOrder::new(sources)),
            aliases,
        }
    }

    /// The table over the sources and aliases of `options`, in `order`
    /// (built for them) when given.
    pub(crate) fn of(options: &'o Options, order: Option<&'o SourceOrder>) -> Self {
        match order {
            Some(order) => SourceTable {
                sources: options.sources.as_deref(),
                order: Cow::Borrowed(order),
                aliases: &options.aliases,
            },
            None => SourceTable::new(options.sources.as_deref(), &options.aliases),
        }
    }

    /// Whether the host has said what its sources are (even none).
    pub(crate) fn known(&self) -> bool {
        self.sources.is_some()
    }

    /// Follows aliases from `key`; returns the final key.
    pub(crate) fn unalias<'k>(&'k self, key: &'k str) -> &'k str {
        let mut current = key;
        for _ in 0..MAX_ALIAS_HOPS {
            match self.aliases.get(current) {
                Some(next) if next != current => current = next,
                _ => break,
            }
        }
        current
    }

    /// The position of the source with this id, if any.
    pub(crate) fn by_id(&self, id: &str) -> Option<usize> {
        let sources = self.sources?;
        let by_id = &self.order.by_id;
        let at = by_id
            .binary_search_by_key(&Some(id), |&p| sources.get(p).and_then(|s| s.id.as_deref()))
            .ok()?;
        Some(by_id[at])
    }

    /// The position of the source with this number, if any.
    pub(crate) fn by_index(&self, number: u32) -> Option<usize> {
        let by_index = &self.order.by_index;
        let at = by_index.binary_search_by_key(&number, |&(n, _)| n).ok()?;
        Some(by_index[at].1)
    }

    pub(crate) fn get(&self, position: usize) -> Option<&'o Source> {
        self.sources?.get(position)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_explicit_index_beats_another_sources_default() {
        let sources = vec![Source::with_id("a"), Source::with_index(1)];
        let aliases = BTreeMap::new();
        let t = SourceTable::new(Some(&sources), &aliases);
        assert_eq!(t.by_index(1), Some(1));
    }

    #[test]
    fn index_defaults_to_position_and_explicit_index_wins() {
        let sources = vec![
            Source::with_id("a"),
            Source::with_index(7),
            Source::with_id("c"),
        ];
        let aliases = BTreeMap::new();
        let t = SourceTable::new(Some(&sources), &aliases);
        assert_eq!(t.by_index(1), Some(0));
        assert_eq!(t.by_index(7), Some(1));
        assert_eq!(t.by_index(2), None);
        assert_eq!(t.by_index(3), Some(2));
        assert_eq!(t.by_id("c"), Some(2));
    }

    #[test]
    fn the_first_source_with_an_id_wins() {
        let sources = vec![
            Source::with_id("b"),
            Source::with_id("a"),
            Source::with_id("b"),
        ];
        let aliases = BTreeMap::new();
        let t = SourceTable::new(Some(&sources), &aliases);
        assert_eq!(t.by_id("b"), Some(0));
        assert_eq!(t.by_id("a"), Some(1));
        assert_eq!(t.by_id("c"), None);
    }

    #[test]
    fn alias_chains_are_followed_and_cycles_stop() {
        let aliases: BTreeMap<String, String> = [("a", "b"), ("b", "c"), ("x", "y"), ("y", "x")]
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .collect();
        let t = SourceTable::new(None, &aliases);
        assert_eq!(t.unalias("a"), "c");
        assert_eq!(t.unalias("z"), "z");
        let end = t.unalias("x");
        assert!(end == "x" || end == "y");
    }
}
