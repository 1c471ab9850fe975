//! Security: no XSS corpus payload, placed anywhere citemark accepts input,
//! yields a script-capable construct in the HTML it writes.
//!
//! Every payload from the DOMPurify, OWASP, HTML5 Security Cheatsheet and
//! markdown-it corpora (plus a few handcrafted ones) is embedded in a set of
//! markdown documents ("variants": the payload as the whole document, as
//! inline and block raw HTML, as a link/image/reference URL, as autolink and
//! bare text, as a `<cite>` id and label, and as the fields of a host
//! [`Source`]). Each document is rendered with every raw-HTML policy and,
//! where citations are involved, every citation mode. The output is parsed
//! the way a browser would (`scraper`, i.e. html5ever) and checked
//! structurally by `violations` (tests/support/checks.rs); the expected HTML in the corpora is not
//! used, since each sanitizer legitimately differs in what it keeps.
//!
//! All failures are collected and reported together at the end, one line
//! per (payload, variant, options, offending construct).

#[path = "support/checks.rs"]
mod checks;
#[path = "support/corpora.rs"]
mod corpora;

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};

use citemark::{Mode, Options, RawHtml, Source};
use proptest::prelude::*;
use serde_json::Value;

use checks::violations;

// ---------------------------------------------------------------------------
// Payloads and the documents built from them
// ---------------------------------------------------------------------------

/// One attack string and where it came from.
struct Payload {
    corpus: &'static str,
    index: String,
    text: String,
}

/// A markdown document embedding a payload, plus the host sources to render
/// it with.
struct Variant {
    name: &'static str,
    markdown: String,
    sources: Vec<Source>,
    /// Whether the citation mode can change the output (citations present).
    cites: bool,
}

/// A harmless source so that `[1]` markers and `<cite id="a">` in payloads
/// resolve and get rendered as citation links/buttons.
fn benign_sources() -> Vec<Source> {
    vec![Source::with_id("a")
        .with_title("Source A")
        .with_href("https://example.com/a")]
}

/// Sources whose every host-supplied field is the payload.
fn hostile_sources(payload: &str) -> Vec<Source> {
    vec![
        Source::with_id("a")
            .with_href(payload)
            .with_title(payload)
            .with_excerpt(payload),
        Source::with_id(payload)
            .with_href(payload)
            .with_title(payload),
    ]
}

fn variants(payload: &str) -> Vec<Variant> {
    let plain = |name, markdown: String| Variant {
        name,
        markdown,
        sources: benign_sources(),
        cites: false,
    };
    let citing = |name, markdown: String, sources| Variant {
        name,
        markdown,
        sources,
        cites: true,
    };
    vec![
        // (a) the payload is the whole document; it may contain citations.
        citing("markdown", payload.to_owned(), benign_sources()),
        // (b) raw HTML, inline and as an HTML block.
        plain("inline html", format!("text {payload} text")),
        plain("html block", format!("before\n\n{payload}\n\nafter\n")),
        // (c) URLs: link, image, reference definition, autolink, bare text.
        plain("link url <>", format!("[x](<{payload}>)")),
        plain("link url", format!("[x]({payload})")),
        plain("image url", format!("![x](<{payload}>)")),
        plain("reference url", format!("[x][r]\n\n[r]: <{payload}>\n")),
        plain("autolink", format!("<{payload}>")),
        plain("bare text", format!("see {payload} here")),
        // (d) citation syntax.
        citing(
            "cite id",
            format!("<cite id=\"{payload}\">x</cite>"),
            benign_sources(),
        ),
        citing(
            "cite label",
            format!("<cite id=\"a\">{payload}</cite>"),
            benign_sources(),
        ),
        // (e) the host's sources.
        citing(
            "source fields",
            format!("[1] [2] <cite id=\"a\">x</cite> <cite id=\"{payload}\">y</cite>"),
            hostile_sources(payload),
        ),
    ]
}

const RAW_HTML_POLICIES: [RawHtml; 3] = [RawHtml::Sanitize, RawHtml::Escape, RawHtml::Strip];

/// (mode, embedded): every way a citation can be written.
const CITATION_MODES: [(Mode, bool); 4] = [
    (Mode::Link, false),
    (Mode::Button, false),
    (Mode::Icon, false),
    (Mode::Icon, true),
];

/// The option sets a variant is rendered with: every raw-HTML policy, and
/// every citation mode when the variant has citations.
fn option_sets(variant: &Variant) -> Vec<(String, Options)> {
    let modes: &[(Mode, bool)] = if variant.cites {
        &CITATION_MODES
    } else {
        &CITATION_MODES[..1]
    };
    let mut sets = Vec::new();
    for raw_html in RAW_HTML_POLICIES {
        for &(mode, embedded) in modes {
            let label = format!(
                "{raw_html:?}, {mode:?}{}",
                if embedded { ", embedded" } else { "" }
            );
            let options = Options::default()
                .with_raw_html(raw_html)
                .with_mode(mode)
                .with_embedded(embedded)
                .with_sources(variant.sources.clone());
            sets.push((label, options));
        }
    }
    sets
}

// ---------------------------------------------------------------------------
// Running a corpus
// ---------------------------------------------------------------------------

/// Renders and checks payloads, remembering failures and counts.
#[derive(Default)]
struct Audit {
    renderings: usize,
    payloads: usize,
    failures: Vec<String>,
    /// Parsing dominates the run time and many option sets produce the same
    /// HTML, so each distinct output is checked once.
    checked: HashMap<String, Vec<String>>,
}

impl Audit {
    fn check_payload(&mut self, payload: &Payload) {
        self.payloads += 1;
        for variant in variants(&payload.text) {
            for (label, options) in option_sets(&variant) {
                self.check_rendering(payload, &variant, &label, &options);
            }
        }
    }

    fn check_rendering(
        &mut self,
        payload: &Payload,
        variant: &Variant,
        label: &str,
        options: &Options,
    ) {
        self.renderings += 1;
        let context = format!(
            "{} #{} [{}; {label}]",
            payload.corpus, payload.index, variant.name
        );
        let rendered = catch_unwind(AssertUnwindSafe(|| {
            citemark::render(&variant.markdown, options)
        }));
        let html = match rendered {
            Ok(rendered) => rendered.html,
            Err(_) => {
                self.failures.push(format!(
                    "{context}: render panicked\n    markdown: {}",
                    shorten(&variant.markdown)
                ));
                return;
            }
        };
        let found = self
            .checked
            .entry(html.clone())
            .or_insert_with(|| violations(&html));
        for violation in found.iter() {
            self.failures.push(format!(
                "{context}: {violation}\n    markdown: {}\n    html:     {}",
                shorten(&variant.markdown),
                shorten(&html)
            ));
        }
    }

    /// Prints the counts and fails with every violation found.
    fn finish(self, what: &str) {
        println!(
            "xss ({what}): {} renderings of {} payloads checked",
            self.renderings, self.payloads
        );
        assert!(self.renderings > 0, "xss ({what}): no payloads were tried");
        if !self.failures.is_empty() {
            panic!(
                "xss ({what}): {} script-capable constructs in citemark's output:\n{}",
                self.failures.len(),
                self.failures.join("\n")
            );
        }
    }
}

/// Keeps failure reports readable when payloads are long.
fn shorten(text: &str) -> String {
    const LIMIT: usize = 300;
    if text.chars().count() <= LIMIT {
        return format!("{text:?}");
    }
    let head: String = text.chars().take(LIMIT).collect();
    format!("{head:?}… ({} chars)", text.chars().count())
}

fn audit(what: &str, payloads: Vec<Payload>) {
    let mut audit = Audit::default();
    for payload in &payloads {
        audit.check_payload(payload);
    }
    audit.finish(what);
}

fn payloads_from(
    corpus: &'static str,
    entries: &[Value],
    index_field: &str,
    text_fields: &[&str],
) -> Vec<Payload> {
    let mut payloads = Vec::new();
    for entry in entries {
        let index = entry[index_field].to_string();
        let mut seen: Vec<&str> = Vec::new();
        for field in text_fields {
            let text = corpora::str_field(entry, field);
            if text.is_empty() || seen.contains(&text) {
                continue;
            }
            seen.push(text);
            payloads.push(Payload {
                corpus,
                index: index.clone(),
                text: text.to_owned(),
            });
        }
    }
    payloads
}

// ---------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------

#[test]
fn dompurify_payloads_stay_inert() {
    let Some(json) = corpora::load_json("xss-dompurify.json") else {
        return;
    };
    audit(
        "xss-dompurify.json",
        payloads_from("dompurify", corpora::array(&json), "index", &["payload"]),
    );
}

#[test]
fn owasp_payloads_stay_inert() {
    let Some(json) = corpora::load_json("xss-owasp.json") else {
        return;
    };
    // `event_handler` entries are bare handler names (`onAbort`); make each
    // an attack by putting it on an element.
    let entries: Vec<Value> = corpora::array(&json)
        .iter()
        .map(|entry| {
            let mut entry = entry.clone();
            if corpora::str_field(&entry, "kind") == "event_handler" {
                let attack = event_handler_attack(corpora::str_field(&entry, "payload"));
                entry["payload"] = Value::String(attack);
            }
            entry
        })
        .collect();
    let payloads = payloads_from("owasp", &entries, "index", &["payload"]);
    audit("xss-owasp.json", payloads);
}

fn event_handler_attack(handler: &str) -> String {
    format!(
        "<img src=x {handler}=alert(1)><a href=\"#\" {handler}=\"alert(1)\">x</a> \
         <cite id=\"a\" {handler}=\"alert(1)\">y</cite>"
    )
}

#[test]
fn html5sec_payloads_stay_inert() {
    let Some(json) = corpora::load_json("xss-html5sec.json") else {
        return;
    };
    audit(
        "xss-html5sec.json",
        payloads_from(
            "html5sec",
            corpora::array(&json["items"]),
            "id",
            &["data_expanded", "data"],
        ),
    );
}

#[test]
fn markdown_payloads_stay_inert() {
    let Some(json) = corpora::load_json("xss-markdown.json") else {
        return;
    };
    audit(
        "xss-markdown.json",
        payloads_from("markdown-it", corpora::array(&json), "index", &["markdown"]),
    );
}

/// Obfuscations of dangerous schemes that URL parsers (not HTML parsers)
/// undo, and a few classic element/attribute vectors. These run without the
/// corpora.
const HANDCRAFTED: &[&str] = &[
    "javascript:alert(1)",
    "&#106;avascript:alert(1)",
    "&#x6A;avascript&#x3A;alert(1)",
    "javascript&colon;alert(1)",
    "java\tscript:alert(1)",
    "java&#9;script:alert(1)",
    "java\nscript:alert(1)",
    "java&#10;script:alert(1)",
    "JaVaScRiPt:alert(1)",
    "\x01javascript:alert(1)",
    "&#1;javascript:alert(1)",
    " javascript:alert(1)",
    "\u{0}javascript:alert(1)",
    "javascript:alert(1)//https://example.com",
    "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
    "DATA:text/html,<script>alert(1)</script>",
    "vbscript:msgbox(1)",
    "file:///etc/passwd",
    "<img src=x onerror=alert(1)>",
    "<a href=\"javascript:alert(1)\">x</a>",
    "<a href=\"jav&#x09;ascript:alert(1)\">x</a>",
    "<svg onload=alert(1)>",
    "<cite id=\"a\" onclick=\"alert(1)\">x</cite>",
    "<cite id=\"a\" href=\"javascript:alert(1)\">x</cite>",
    "[x](javascript:alert(1) \"t\")",
    "[x](java\\script:alert(1))",
    "www.example.com/\"onmouseover=\"alert(1)",
    "https://example.com/\"><script>alert(1)</script>",
];

#[test]
fn handcrafted_payloads_stay_inert() {
    let payloads = HANDCRAFTED
        .iter()
        .enumerate()
        .map(|(i, text)| Payload {
            corpus: "handcrafted",
            index: (i + 1).to_string(),
            text: (*text).to_owned(),
        })
        .collect();
    audit("handcrafted", payloads);
}

#[test]
fn checker_catches_what_it_should() {
    // The audit is only as good as the checker: make sure it flags the
    // constructs it claims to and passes the ones it must.
    for bad in [
        "<script>alert(1)</script>",
        "<p onclick=x>y</p>",
        "<a href=\"javascript:alert(1)\">x</a>",
        "<a href=\" \u{1}JaVa\tScRiPt:alert(1)\">x</a>",
        "<a href=\"&#106;avascript:x\">x</a>",
        "<img src=\"data:text/html,x\">",
        "<svg><a xlink:href=\"javascript:x\">x</a></svg>",
        "<button formaction=\"x\">x</button>",
        "<span style=\"x\">x</span>",
    ] {
        assert!(!violations(bad).is_empty(), "checker missed {bad:?}");
    }
    for good in [
        "<p><a href=\"https://x.example/a?b#c\" rel=\"noopener\">x</a></p>",
        "<a href=\"mailto:a@b.example\">m</a><a href=\"/rel/javascript:x\">r</a>",
        "<a href=\"#frag\">f</a><a href=\"?q=javascript:x\">q</a><a href=\"\">e</a>",
        "<img src=\"x.png\" alt=\"javascript:alert(1)\">",
        "<p>javascript:alert(1) &lt;script&gt;</p><button type=\"button\">1</button>",
    ] {
        assert_eq!(
            violations(good),
            Vec::<String>::new(),
            "checker flagged {good:?}"
        );
    }
}

#[test]
fn audit_sees_what_an_unsafe_renderer_writes() {
    // The same pipeline (render, parse, check) must notice script-capable
    // output when citemark is told to pass everything through; otherwise a
    // clean audit would mean nothing.
    let unsafe_options = Options::dangerous_commonmark();
    for markdown in [
        "<script>alert(1)</script>",
        "text <img src=x onerror=alert(1)> text",
        "[x](javascript:alert(1))",
        "<javascript:alert(1)>",
        "![x](data:text/html,x)",
    ] {
        let html = citemark::render(markdown, &unsafe_options).html;
        assert!(
            !violations(&html).is_empty(),
            "not flagged: {markdown:?} -> {html:?}"
        );
    }
}

// ---------------------------------------------------------------------------
// Property: random markdown/HTML soup
// ---------------------------------------------------------------------------

/// Pieces of markdown, HTML and URL syntax that combine into many attack
/// shapes: tags, attributes, handlers, schemes, entities, citation syntax.
const FRAGMENTS: &[&str] = &[
    "<",
    ">",
    "</",
    "/>",
    "\"",
    "'",
    "=",
    " ",
    "\n",
    "\n\n",
    "\t",
    "\u{1}",
    "`",
    "```\n",
    "*",
    "_",
    "[",
    "]",
    "(",
    ")",
    "![",
    "](",
    "[1]",
    "[^1]",
    "[^1]: ",
    "[r]: ",
    "> ",
    "- ",
    "| a |\n|---|\n",
    "&",
    "&#",
    "&#x",
    ";",
    "106",
    "6A",
    "&colon;",
    "&#58;",
    ":",
    "//",
    "#",
    "script",
    "img",
    "a",
    "svg",
    "math",
    "iframe",
    "style",
    "form",
    "cite",
    "button",
    "span",
    "href",
    "src",
    "id",
    "style",
    "onerror",
    "onclick",
    "onload",
    "formaction",
    "srcdoc",
    "xlink:href",
    "alert(1)",
    "javascript:",
    "JaVaScRiPt:",
    "java\tscript:",
    "vbscript:",
    "data:text/html,",
    "http://",
    "https://",
    "www.",
    "mailto:",
    "x@y.example",
    "<!--",
    "-->",
    "<![CDATA[",
    "]]>",
    "<cite id=\"a\">",
    "<cite id=\"",
    "</cite>",
    "/-/ai/conversations/c/call/k",
];

fn soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(FRAGMENTS), 0..48).prop_map(|parts| parts.concat())
}

fn any_options() -> impl Strategy<Value = Options> {
    (
        prop::sample::select(RAW_HTML_POLICIES.to_vec()),
        prop::sample::select(CITATION_MODES.to_vec()),
        soup(),
    )
        .prop_map(|(raw_html, (mode, embedded), field)| {
            Options::default()
                .with_raw_html(raw_html)
                .with_mode(mode)
                .with_embedded(embedded)
                .with_sources(hostile_sources(&field))
        })
}

proptest! {
    // Few cases, no regression files written into the source tree: this is
    // a fast smoke test next to the corpus audits above.
    #![proptest_config(ProptestConfig {
        cases: 300,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_soup_stays_inert(markdown in soup(), options in any_options()) {
        let html = citemark::render(&markdown, &options).html;
        let found = violations(&html);
        prop_assert!(found.is_empty(), "{:?}\nmarkdown: {:?}\nhtml: {:?}", found, markdown, html);
    }
}
