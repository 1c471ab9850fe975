//! The raw element left open: an HTML block such as `<details>` (its
//! `<summary>` and all) whose element the markdown after it goes into,
//! until a later block closes it.
//!
//! Rendered whole, the element's start tag and the blocks inside it are
//! sanitized as one fragment, in which citemark's own HTML is put back as
//! written. So, once verified (docs/streaming.md, "A raw element left
//! open"), the element's start is handed to the host open, as a code
//! block's is, and the blocks inside it are committed one batch at a time,
//! as at the top level. A batch is verified by rendering it after the
//! element's opening block: it must give the element's start, the batch's
//! own HTML, then the end tag the sanitizer adds. A batch that closes the
//! element is rendered after the opening block; what comes before the end
//! tag goes inside, and what follows it after the element.

use super::boundary::is_blank;

/// The flow elements that markdown may go into. (Elements whose content
/// parses differently, or which the sanitizer drops, are left to the tail:
/// the verification would refuse them anyway.)
const CONTAINERS: &[&str] = &["details", "div", "section", "article", "aside"];

/// A raw element left open by the HTML block that opened it.
#[derive(Debug, Clone)]
pub(super) struct RawElement {
    /// The HTML block that opened it, as written, with the blank lines
    /// after it: what a batch inside is rendered after.
    pub(super) opener: String,
    /// What a render of the opener gives before the end tag: the element's
    /// start, handed to the host open.
    pub(super) start: String,
    /// The element's end tag, `</details>`.
    pub(super) end_tag: String,
    /// Where, in the message, the opener starts: which element this is.
    pub(super) at: usize,
}

impl RawElement {
    /// The element that `html`, a render of `opener` alone, leaves open
    /// (the sanitizer closes it at the end), when `opener` starts one of
    /// [`CONTAINERS`].
    pub(super) fn of(opener: &str, html: &str, at: usize) -> Option<RawElement> {
        let name = container_name(opener)?;
        let end_tag = format!("</{name}>");
        let start = html.strip_suffix(end_tag.as_str())?;
        (start.starts_with(&format!("<{name}")) && !start.contains(end_tag.as_str())).then(|| {
            RawElement {
                opener: opener.to_owned(),
                start: start.to_owned(),
                end_tag,
                at,
            }
        })
    }

    /// What `html`, a render of the opener then `batch_html` as rendered
    /// alone, must be for the batch to go inside the element as it is.
    pub(super) fn holds(&self, html: &str, batch_html: &str) -> bool {
        html.strip_prefix(self.start.as_str())
            .and_then(|rest| rest.strip_suffix(self.end_tag.as_str()))
            == Some(batch_html)
    }

    /// Whether `text` may close the element: it holds its end tag, in any
    /// case.
    pub(super) fn may_close(&self, text: &str) -> bool {
        let end_tag = self.end_tag.as_bytes();
        text.as_bytes()
            .windows(end_tag.len() - 1)
            .any(|w| w.eq_ignore_ascii_case(&end_tag[..end_tag.len() - 1]))
    }

    /// `html`, a render of the opener then a batch that closes the element,
    /// cut into what goes inside the element and what follows its end tag.
    pub(super) fn split_at_end<'h>(&self, html: &'h str) -> Option<(&'h str, &'h str)> {
        let inside = html.strip_prefix(self.start.as_str())?;
        let start_tag = self.end_tag.replacen("</", "<", 1);
        let start_tag = start_tag.trim_end_matches('>');
        // (The sanitizer writes tags in one form, and text escaped: the
        // element's own tags are found as written.)
        let mut depth = 0usize;
        let mut at = 0;
        while let Some(lt) = inside[at..].find('<') {
            let tag = &inside[at + lt..];
            if tag.starts_with(self.end_tag.as_str()) {
                if depth == 0 {
                    let end = at + lt;
                    return Some((&inside[..end], &inside[end + self.end_tag.len()..]));
                }
                depth -= 1;
            } else if tag.starts_with(start_tag)
                && tag[start_tag.len()..].starts_with([' ', '>', '/'])
            {
                depth += 1;
            }
            at += lt + 1;
        }
        None
    }
}

/// The name of the container that `opener` (an HTML block) starts with:
/// up to three spaces, then `<name` and a space, `>` or the line's end.
fn container_name(opener: &str) -> Option<&'static str> {
    let tag = opener.trim_start_matches(' ');
    if opener.len() - tag.len() > 3 {
        return None;
    }
    let rest = tag.strip_prefix('<')?;
    CONTAINERS.iter().copied().find(|name| {
        rest.get(..name.len())
            .is_some_and(|n| n.eq_ignore_ascii_case(name))
            && rest[name.len()..].starts_with([' ', '\t', '>', '\n'])
    })
}

/// Where the HTML block that starts `open` ends with the blank lines after
/// it: the start of the first complete line after them (before `complete`),
/// when `open` starts with a container's start tag.
pub(super) fn opener_end(open: &str, complete: usize) -> Option<usize> {
    container_name(open)?;
    let mut at = 0;
    let mut after_blank = false;
    for line in open[..complete].split_inclusive('\n') {
        let blank = is_blank(line);
        if after_blank && !blank {
            return Some(at);
        }
        after_blank |= blank;
        at += line.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_opener_ends_before_the_first_line_after_its_blank_lines() {
        let open = "<details><summary>S</summary>\n\n\nText.\n\nMore.\n";
        assert_eq!(opener_end(open, open.len()), Some(32));
        assert_eq!(
            opener_end("<details>\n\n", 11),
            None,
            "no line after it yet"
        );
        assert_eq!(opener_end("<span>\n\nx\n", 10), None, "not a container");
        assert_eq!(opener_end("<DIV class=x>\n\nx\n", 17), Some(15));
        assert_eq!(opener_end("<divx>\n\nx\n", 10), None);
    }

    #[test]
    fn the_end_tag_is_found_at_the_elements_depth() {
        let element = RawElement::of("<details>\n\n", "<details>\n</details>", 0).unwrap();
        assert_eq!(element.start, "<details>\n");
        let html = "<details>\n<details><p>a</p></details><p>b</p></details>\n<p>c</p>\n";
        assert_eq!(
            element.split_at_end(html),
            Some(("<details><p>a</p></details><p>b</p>", "\n<p>c</p>\n"))
        );
        assert!(element.holds("<details>\n<p>x</p>\n</details>", "<p>x</p>\n"));
        assert!(!element.holds("<details>\n<div><p>x</p>\n</div></details>", "<p>x</p>\n"));
        assert!(element.may_close("a </DETAILS> b"));
        assert!(!element.may_close("a <details> b"));
    }
}
