//! The text a reader sees in HTML, for the prefix rate: shared by
//! `tests/streaming.rs` and `benches/corpus.rs`.

/// The text a reader sees in `html`: tags dropped, entities decoded,
/// whitespace runs read as one space.
pub fn visible(html: &str) -> String {
    let mut text = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    let text = text
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&");
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
