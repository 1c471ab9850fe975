//! Numeric markers: `[1]`, `[1, 3]`, `[1,2,3]`, `[1-3]` and Open WebUI's
//! `[1#page=3]`.
//!
//! The scanner works on one run of plain text. Whether that text may hold
//! markers at all (not code, not link text, not escaped) is the adaptor's
//! concern.

use std::ops::Range;

/// The widest range `[a-b]` expanded into citations; a wider one is text.
const MAX_RANGE_SPAN: u32 = 20;
/// The most digits read as a number (keeps it inside `u32`).
pub(crate) const MAX_DIGITS: usize = 9;

/// One bracketed marker group, such as `[1, 3]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Marker {
    /// Byte range of `[…]` in the scanned text.
    pub(crate) range: Range<usize>,
    /// `first..=last` for `[n]` and `[a-b]`; a comma list is in `more`.
    first: u32,
    last: u32,
    /// The numbers after the first in `[1, 3, 5]` (empty otherwise, so the
    /// common single marker allocates nothing).
    more: Vec<u32>,
    /// The fragment of `[n#fragment]`, without `#`.
    pub(crate) fragment: Option<String>,
}

impl Marker {
    /// The numbers cited, in written order (a range expanded).
    pub(crate) fn numbers(&self) -> impl Iterator<Item = u32> + '_ {
        (self.first..=self.last).chain(self.more.iter().copied())
    }
}

/// Every marker group in `text`, in order (found as they are taken: most
/// texts hold one or two, and no list is built for them).
pub(crate) fn find_markers(text: &str) -> impl Iterator<Item = Marker> + '_ {
    let bytes = text.as_bytes();
    let mut from = 0;
    std::iter::from_fn(move || {
        while let Some(offset) = memchr::memchr(b'[', bytes.get(from..)?) {
            let start = from + offset;
            match parse_marker(text, start) {
                Some(marker) => {
                    from = marker.range.end;
                    return Some(marker);
                }
                None => from = start + 1,
            }
        }
        from = bytes.len();
        None
    })
}

/// The marker groups of `text` when it is nothing but marker groups (and
/// spaces), like `[1][2]`; otherwise none.
pub(crate) fn only_markers(text: &str) -> Vec<Marker> {
    let markers: Vec<Marker> = find_markers(text).collect();
    let mut end = 0;
    for marker in &markers {
        if !text[end..marker.range.start].trim().is_empty() {
            return Vec::new();
        }
        end = marker.range.end;
    }
    if end == 0 || !text[end..].trim().is_empty() {
        return Vec::new();
    }
    markers
}

/// Parses the marker group opening at `text[start] == '['`.
fn parse_marker(text: &str, start: usize) -> Option<Marker> {
    let mut cursor = Cursor {
        bytes: text.as_bytes(),
        pos: start + 1,
    };
    let first = cursor.number()?;
    let mut last = first;
    let mut more = Vec::new();
    let mut fragment = None;
    match cursor.peek()? {
        b']' => {}
        b'#' => {
            cursor.pos += 1;
            let frag_start = cursor.pos;
            cursor.skip_while(|b| b.is_ascii_alphanumeric() || b"=&_.:-".contains(&b));
            if cursor.pos == frag_start {
                return None;
            }
            fragment = Some(text[frag_start..cursor.pos].to_owned());
        }
        b'-' | b'\xE2' => {
            cursor.dash()?;
            last = cursor.number()?;
            if last < first || last - first > MAX_RANGE_SPAN {
                return None;
            }
        }
        _ => loop {
            cursor.skip_spaces();
            match cursor.peek()? {
                b']' => break,
                b',' => {
                    cursor.pos += 1;
                    cursor.skip_spaces();
                    more.push(cursor.number()?);
                }
                _ => return None,
            }
        },
    }
    cursor.skip_spaces();
    (cursor.peek()? == b']').then(|| Marker {
        range: start..cursor.pos + 1,
        first,
        last,
        more,
        fragment,
    })
}

struct Cursor<'t> {
    bytes: &'t [u8],
    pos: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip_while(&mut self, keep: impl Fn(u8) -> bool) {
        while self.peek().is_some_and(&keep) {
            self.pos += 1;
        }
    }

    fn skip_spaces(&mut self) {
        self.skip_while(|b| b == b' ');
    }

    fn number(&mut self) -> Option<u32> {
        let start = self.pos;
        self.skip_while(|b| b.is_ascii_digit());
        let digits = &self.bytes[start..self.pos];
        if digits.is_empty() || digits.len() > MAX_DIGITS {
            return None;
        }
        std::str::from_utf8(digits).ok()?.parse().ok()
    }

    /// `-`, or the en dash `–` LLMs like to write in ranges.
    fn dash(&mut self) -> Option<()> {
        for dash in ["-", "\u{2013}"] {
            if self.bytes[self.pos..].starts_with(dash.as_bytes()) {
                self.pos += dash.len();
                return Some(());
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbers(text: &str) -> Vec<Vec<u32>> {
        find_markers(text).map(|m| m.numbers().collect()).collect()
    }

    #[test]
    fn every_marker_form() {
        assert_eq!(numbers("a [1] b"), vec![vec![1]]);
        assert_eq!(numbers("[2][3]"), vec![vec![2], vec![3]]);
        assert_eq!(numbers("[1, 3]"), vec![vec![1, 3]]);
        assert_eq!(numbers("[1,2,3]"), vec![vec![1, 2, 3]]);
        assert_eq!(numbers("[1-3]"), vec![vec![1, 2, 3]]);
        assert_eq!(numbers("[2\u{2013}4]"), vec![vec![2, 3, 4]]);
        let m = find_markers("see [1#page=3].").next().unwrap();
        assert_eq!(
            (m.range.clone(), m.fragment.as_deref()),
            (4..14, Some("page=3"))
        );
    }

    #[test]
    fn things_that_are_not_markers() {
        for text in [
            "[]",
            "[a]",
            "[1a]",
            "[1,]",
            "[ 1]",
            "[^1]",
            "[1-]",
            "[3-1]",
            "[1-99]",
            "[1#]",
            "[1234567890]",
            "[1",
            "[1 2]",
            "[1, 2",
            "[-1]",
        ] {
            assert_eq!(numbers(text), Vec::<Vec<u32>>::new(), "{text}");
        }
    }

    #[test]
    fn text_of_only_markers() {
        assert_eq!(only_markers("[1]").len(), 1);
        assert_eq!(only_markers(" [1][2] [3, 4] ").len(), 3);
        assert!(only_markers("[1] note").is_empty());
        assert!(only_markers("").is_empty());
        assert!(only_markers("[a]").is_empty());
    }

    #[test]
    fn ranges_are_byte_offsets_in_non_ascii_text() {
        let text = "Überblick ✓ [12]";
        let m = find_markers(text).next().unwrap();
        assert_eq!(&text[m.range.clone()], "[12]");
    }
}
