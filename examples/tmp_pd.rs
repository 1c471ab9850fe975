use pulldown_cmark::{html::push_html, Options, Parser};
fn main() {
    let n: usize = std::env::args().nth(1).unwrap().parse().unwrap();
    let answer = std::fs::read_to_string("examples/answer.md").unwrap();
    let mut text = String::new();
    while text.len() < n {
        text.push_str(&answer);
        text.push('\n');
    }
    let mut o = Options::empty();
    o.insert(
        Options::ENABLE_TABLES
            | Options::ENABLE_STRIKETHROUGH
            | Options::ENABLE_TASKLISTS
            | Options::ENABLE_FOOTNOTES
            | Options::ENABLE_GFM,
    );
    let mut out = String::new();
    if n > 0 {
        push_html(&mut out, Parser::new_ext(&text, o));
    }
    std::hint::black_box(out);
}
