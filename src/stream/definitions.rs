//! The committed part's link reference definitions, which the open text's
//! references resolve to as they would in the whole message.
//!
//! Each render of the open text used to parse them all again before it:
//! a document that links by reference (most READMEs) paid for its
//! definitions at every push, more the further it went. Kept by label,
//! they are handed to the parser through its broken-link callback instead,
//! at the price of a lookup per reference. Only open text that defines a
//! committed label again is parsed after them as written: the first
//! definition of a label wins, and the parser would take the open text's.

use std::collections::HashMap;

use pulldown_cmark::RefDefs;
use unicase::UniCase;

/// The committed link reference definitions, as written and by label.
#[derive(Debug, Clone, Default)]
pub(super) struct Definitions {
    /// Each as one line, ending in a newline, then a blank line: what is
    /// parsed before open text that redefines one of their labels.
    text: String,
    /// Each label's first definition, keyed as the parser matches labels
    /// (whitespace collapsed, which the parser has done, and case-folded).
    by_label: HashMap<UniCase<String>, Definition>,
}

/// A committed definition: what a reference to its label becomes.
#[derive(Debug, Clone)]
struct Definition {
    /// Where its line starts in [`Definitions::text`] (a rewind drops it
    /// with its line).
    at: usize,
    dest: String,
    title: String,
}

impl Definitions {
    /// Keeps `lines`, definitions each as one standalone line (see
    /// `standalone_definition`), committed after the others.
    pub(super) fn add(&mut self, lines: Vec<String>) {
        if lines.is_empty() {
            return;
        }
        let start = self.text.len();
        for line in lines {
            // (Its line break only: Unicode whitespace, `\u{a0}`, may be
            // its destination.)
            self.text.push_str(line.trim_end_matches(['\n', '\r']));
            self.text.push('\n');
        }
        self.text.push('\n');
        // (Parsed once, as they come: each stands alone, and what was
        // defined before keeps its label.)
        let parser = crate::parse::parse(&self.text[start..]);
        for (label, definition) in parser.reference_definitions().iter() {
            self.by_label
                .entry(UniCase::new(label.to_owned()))
                .or_insert_with(|| Definition {
                    at: start,
                    dest: definition.dest.to_string(),
                    title: definition.title.as_deref().unwrap_or_default().to_owned(),
                });
        }
    }

    /// The destination and title of a reference to `label` (as the parser
    /// gives it to its broken-link callback), when one is committed.
    pub(super) fn resolve(&self, label: &str) -> Option<(&str, &str)> {
        if self.by_label.is_empty() {
            return None;
        }
        let definition = self.by_label.get(&UniCase::new(label.to_owned()))?;
        Some((&definition.dest, &definition.title))
    }

    /// The definitions to parse before open text whose own definitions are
    /// `defined`: none, unless it defines a committed label again.
    pub(super) fn text_before(&self, defined: &RefDefs<'_>) -> &str {
        let redefines = !self.by_label.is_empty()
            && defined
                .iter()
                .any(|(label, _)| self.by_label.contains_key(&UniCase::new(label.to_owned())));
        match redefines {
            true => &self.text,
            false => "",
        }
    }

    /// Whether none is committed.
    pub(super) fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    /// How much is committed: a mark to [`Definitions::truncate`] back to.
    pub(super) fn len(&self) -> usize {
        self.text.len()
    }

    /// Drops the definitions committed after the mark `len`.
    pub(super) fn truncate(&mut self, len: usize) {
        self.text.truncate(len);
        self.by_label.retain(|_, definition| definition.at < len);
    }

    /// Drops them all.
    pub(super) fn clear(&mut self) {
        self.text.clear();
        self.by_label.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::Definitions;

    #[test]
    fn a_label_resolves_as_the_parser_matches_it_and_the_first_wins() {
        let mut definitions = Definitions::default();
        definitions.add(vec![
            "[Foo  Bar]: /one 't'\n".into(),
            "[foo bar]: /two".into(),
        ]);
        let mark = definitions.len();
        definitions.add(vec!["[ẞ]: /sharp".into()]);
        // (The parser collapses a reference's whitespace before asking.)
        assert_eq!(definitions.resolve("FOO BAR"), Some(("/one", "t")));
        assert_eq!(definitions.resolve("ss"), Some(("/sharp", "")));
        assert_eq!(definitions.resolve("baz"), None);
        definitions.truncate(mark);
        assert_eq!(definitions.resolve("ss"), None);
        assert_eq!(definitions.resolve("foo bar"), Some(("/one", "t")));
    }

    #[test]
    fn open_text_is_parsed_after_them_only_when_it_redefines_a_label() {
        let mut definitions = Definitions::default();
        definitions.add(vec!["[a]: /u".into()]);
        let before = |open: &str| {
            let parser = crate::parse::parse(open);
            definitions
                .text_before(parser.reference_definitions())
                .to_owned()
        };
        assert_eq!(before("[b]: /v\n\n[a]\n"), "");
        assert_eq!(before("[A]: /v\n"), "[a]: /u\n\n");
    }
}
