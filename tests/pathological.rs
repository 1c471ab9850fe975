//! Pathological inputs (cmark's and markdown-it's stress cases): citemark
//! must finish every one and produce output.
//!
//! Each case runs on its own thread under a generous wall-clock guard. The
//! guard exists only so that a quadratic blow-up fails the test instead of
//! hanging CI; it is not a performance assertion (the cases themselves say
//! 5 s for cmark in release; debug builds of citemark are far slower).
//! Cases run one after another so that they do not compete for CPU and
//! trip each other's guard.
//!
//! Expected output: the cases carry Python regexes for cmark's output. Most
//! are a literal with counted repetitions (`(a\]){32500}`), which
//! [`literal_expansion`] turns into a plain string to search for — no regex
//! engine (and no new dependency) needed, and no risk of exceeding a regex
//! size limit. Regexes using optional, variable-length or anchored
//! constructs (`?`, `+`, `*`, `.`, `\w`, `^`, `$`) are not checked; their
//! cases are still run for termination. Because the regexes describe cmark,
//! not pulldown-cmark, a mismatch counts as a citemark failure only if
//! pulldown-cmark's own output matches. The one case whose expected output
//! is CommonMark rather than HTML ("nested inlines") is only run.

#[path = "support/corpora.rs"]
mod corpora;

use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use citemark::Options;
use serde_json::Value;

/// Long enough that only a hang (or a super-linear blow-up) reaches it.
const GUARD: Duration = if cfg!(debug_assertions) {
    Duration::from_secs(20)
} else {
    Duration::from_secs(10)
};

/// Pathological documents can nest tens of thousands of levels deep; give
/// the rendering thread the room a recursive consumer would need rather than
/// the 2 MiB default, so a stack overflow reflects citemark, not the test.
const RENDER_STACK: usize = 64 << 20;

#[test]
fn pathological_inputs_finish() {
    let Some(json) = corpora::load_json("pathological.json") else {
        return;
    };
    let cases = corpora::array(&json);
    assert!(!cases.is_empty(), "pathological.json has no cases");

    let mut failures = Vec::new();
    let mut ran = 0;
    for case in cases {
        let name = corpora::str_field(case, "name");
        if corpora::bool_field(case, "commented_out") {
            println!("skip  {name}: commented out in the original suite");
            continue;
        }
        ran += 1;
        if let Err(problem) = run_case(case) {
            failures.push(format!("{name}: {problem}"));
        }
    }
    println!("pathological: {ran} cases run, {} failed", failures.len());
    assert!(ran > 0, "no pathological case was run");
    assert!(
        failures.is_empty(),
        "{} pathological case(s) failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// citemark's own worst cases: citation syntax and raw HTML repeated in one
/// paragraph or document, each of which once took quadratic time.
#[test]
fn citation_stress_inputs_finish() {
    let cases: [(&str, &str); 8] = [
        ("markers in one paragraph", "[1][2] "),
        ("marker groups and ranges", "[1, 2-4] [3#p=1] "),
        ("unclosed cite tags", "<cite id=\"a\">x "),
        ("cite tags", "<cite id=\"a\">x</cite> "),
        (
            "link citations in parentheses",
            "([a](https://h/-/ai/conversations/c/call/a)",
        ),
        ("unbalanced raw HTML blocks", "<div>\n\n"),
        ("details around lists", "<details>\n\n- a [1]\n\n"),
        ("bare URLs with parentheses", "www.a.b/(((( "),
    ];
    let mut failures = Vec::new();
    for (name, unit) in cases {
        let input = unit.repeat(20_000);
        match render_guarded(input) {
            Ok(html) if !html.trim().is_empty() => {
                println!("ok    {name}: {} bytes out", html.len())
            }
            Ok(_) => failures.push(format!("{name}: empty output")),
            Err(problem) => failures.push(format!("{name}: {problem}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn run_case(case: &Value) -> Result<(), String> {
    let name = corpora::str_field(case, "name");
    let input = build_input(&case["input"])?;
    check_length(&case["input"], &input)?;

    let started = Instant::now();
    let html = render_guarded(input.clone())?;
    let elapsed = started.elapsed();
    if html.trim().is_empty() {
        return Err("citemark produced empty output".to_owned());
    }

    let note = check_expected_output(case, &input, &html)?;
    println!(
        "ok    {name}: {} chars in, {} bytes out, {elapsed:.2?}{note}",
        input.chars().count(),
        html.len()
    );
    Ok(())
}

/// Renders with the safe defaults on a separate thread, failing if it
/// panics or outlives [`GUARD`]. A thread that times out is left running
/// (it cannot be killed); the test fails regardless.
fn render_guarded(input: String) -> Result<String, String> {
    let (sender, receiver) = mpsc::channel();
    thread::Builder::new()
        .name("render".to_owned())
        .stack_size(RENDER_STACK)
        .spawn(move || {
            let html = citemark::render(&input, &Options::default()).html;
            // The receiver is gone only if the guard already fired.
            let _ = sender.send(html);
        })
        .map_err(|e| format!("cannot spawn render thread: {e}"))?;
    match receiver.recv_timeout(GUARD) {
        Ok(html) => Ok(html),
        Err(mpsc::RecvTimeoutError::Timeout) => {
            Err(format!("did not finish within the {GUARD:?} hang guard"))
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => Err("render panicked".to_owned()),
    }
}

// ---------------------------------------------------------------------------
// Building the input (see SOURCES.md, "pathological.json")
// ---------------------------------------------------------------------------

fn build_input(input: &Value) -> Result<String, String> {
    if corpora::bool_field(input, "generated") {
        return reference_collisions(input);
    }
    let parts = input["parts"]
        .as_array()
        .ok_or("input has neither `parts` nor `generated`")?;
    let mut out = String::new();
    for part in parts {
        append_part(&mut out, part, None)?;
    }
    Ok(out)
}

/// Appends one part; `i` is the loop variable when inside `for_i_in_range`.
fn append_part(out: &mut String, part: &Value, i: Option<u64>) -> Result<(), String> {
    if let Some(range) = part.get("for_i_in_range") {
        let (start, end) = (range[0].as_u64(), range[1].as_u64());
        let (Some(start), Some(end)) = (start, end) else {
            return Err(format!("bad for_i_in_range {range}"));
        };
        for i in start..end {
            for item in corpora::array(&part["item"]) {
                append_part(out, item, Some(i))?;
            }
        }
        return Ok(());
    }
    if corpora::bool_field(part, "decimal_i") {
        let i = i.ok_or("decimal_i outside for_i_in_range")?;
        out.push_str(&i.to_string());
        return Ok(());
    }
    let unit = part["repeat_unit"]
        .as_str()
        .ok_or_else(|| format!("part without repeat_unit: {part}"))?;
    let count = match &part["count"] {
        Value::String(s) if s == "i" => i.ok_or("count \"i\" outside for_i_in_range")?,
        other => other
            .as_u64()
            .ok_or_else(|| format!("bad count in {part}"))?,
    };
    out.push_str(&unit.repeat(count as usize));
    Ok(())
}

/// The "reference collisions" document, generated as its description says:
/// keys `x0`, `x1`, … whose cmark reference-map hash is 0 modulo the map
/// size; the first is the "bad key", and each other key K contributes
/// `[K]: /url\n\n[bad_key]\n\n`.
fn reference_collisions(input: &Value) -> Result<String, String> {
    let refmap_size = input["refmap_size"].as_u64().ok_or("no refmap_size")? as u32;
    let count = input["count"].as_u64().ok_or("no count")? as usize;
    let keys: Vec<String> = (0u64..)
        .map(|n| format!("x{n}"))
        .filter(|key| cmark_refmap_hash(key) % refmap_size == 0)
        .take(count)
        .collect();

    // Cheap cross-checks that the hash was transcribed correctly.
    let bad_key = corpora::str_field(input, "bad_key");
    let first_keys: Vec<&str> = corpora::array(&input["first_keys"])
        .iter()
        .filter_map(Value::as_str)
        .collect();
    if keys[0] != bad_key || !keys.iter().zip(&first_keys).all(|(a, b)| a == b) {
        return Err(format!(
            "generated keys {:?}… do not match the corpus's {first_keys:?}",
            &keys[..5]
        ));
    }
    if keys.last().map(String::as_str) != input["last_key"].as_str() {
        return Err(format!(
            "generated last key {:?} does not match the corpus",
            keys.last()
        ));
    }

    let mut out = String::new();
    for key in &keys[1..] {
        out.push_str(&format!("[{key}]: /url\n\n[{bad_key}]\n\n"));
    }
    Ok(out)
}

/// cmark's `refmap_hash`: `h = c + (h << 6) + (h << 16) - h` over the key,
/// in wrapping 32-bit arithmetic.
fn cmark_refmap_hash(key: &str) -> u32 {
    key.chars().fold(0u32, |h, c| {
        (c as u32)
            .wrapping_add(h << 6)
            .wrapping_add(h << 16)
            .wrapping_sub(h)
    })
}

/// The corpus records each input's length; a mismatch means the input was
/// built wrongly. (The SHA-256 is not checked: it would need a new
/// dependency, and the length plus the key cross-checks catch the mistakes
/// that matter here.)
fn check_length(input: &Value, built: &str) -> Result<(), String> {
    match input["length_chars"].as_u64() {
        Some(expected) if expected as usize != built.chars().count() => Err(format!(
            "built input has {} chars, corpus says {expected}",
            built.chars().count()
        )),
        _ => Ok(()),
    }
}

// ---------------------------------------------------------------------------
// Expected output
// ---------------------------------------------------------------------------

/// Checks the case's regex when it is a counted literal (see the module
/// docs). Returns a note for the progress line.
fn check_expected_output(case: &Value, input: &str, html: &str) -> Result<String, String> {
    let Some(regex) = case["expected_regex"].as_str() else {
        return Ok(String::new());
    };
    if corpora::str_field(case, "output_format") != "html" {
        return Ok("; expected output is CommonMark, not checked".to_owned());
    }
    let Some(literal) = literal_expansion(regex) else {
        return Ok("; regex not a counted literal, not checked".to_owned());
    };
    if html.contains(&literal) {
        return Ok("; expected output found".to_owned());
    }
    // The regex describes cmark. Blame citemark only if pulldown-cmark, which
    // citemark's output follows, matches.
    if pulldown_html(input).contains(&literal) {
        Err(format!(
            "expected output /{}/ not found although pulldown-cmark produces it; citemark output starts {:?}",
            shorten(regex),
            shorten(html)
        ))
    } else {
        Ok("; pulldown-cmark differs from cmark's expected output here, not checked".to_owned())
    }
}

fn pulldown_html(markdown: &str) -> String {
    use pulldown_cmark::{Options as PulldownOptions, Parser};
    let options = PulldownOptions::ENABLE_TABLES
        | PulldownOptions::ENABLE_STRIKETHROUGH
        | PulldownOptions::ENABLE_TASKLISTS
        | PulldownOptions::ENABLE_FOOTNOTES
        | PulldownOptions::ENABLE_GFM;
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, Parser::new_ext(markdown, options));
    html
}

fn shorten(text: &str) -> String {
    text.chars().take(120).collect()
}

/// The single string a regex matches, if it is built only from literal
/// characters, escapes of punctuation (`\[`, `\/`, `\n`), one-character
/// classes (`[_]`) and groups or atoms repeated an exact number of times
/// (`(…){N}`, `x{N}`). `None` for anything else.
fn literal_expansion(regex: &str) -> Option<String> {
    let chars: Vec<char> = regex.chars().collect();
    let mut pos = 0;
    let expansion = expand_sequence(&chars, &mut pos)?;
    (pos == chars.len()).then_some(expansion)
}

/// Expands atoms until the end of the regex or a closing `)`.
fn expand_sequence(chars: &[char], pos: &mut usize) -> Option<String> {
    let mut out = String::new();
    while *pos < chars.len() && chars[*pos] != ')' {
        let atom = expand_atom(chars, pos)?;
        let times = exact_repetition(chars, pos)?;
        out.push_str(&atom.repeat(times));
    }
    Some(out)
}

fn expand_atom(chars: &[char], pos: &mut usize) -> Option<String> {
    let c = chars[*pos];
    *pos += 1;
    match c {
        '(' => {
            let inner = expand_sequence(chars, pos)?;
            (chars.get(*pos) == Some(&')')).then_some(())?;
            *pos += 1;
            Some(inner)
        }
        '[' => {
            // Only a class with exactly one member, e.g. `[*]`.
            let member = class_member(chars, pos)?;
            (chars.get(*pos) == Some(&']')).then_some(())?;
            *pos += 1;
            Some(member.to_string())
        }
        '.' | '^' | '$' | '*' | '+' | '?' | '|' | '{' => None,
        '\\' => {
            *pos -= 1;
            literal_char(chars, pos).map(String::from)
        }
        other => Some(other.to_string()),
    }
}

/// One literal character, possibly escaped; `None` for character-class
/// escapes such as `\w` and for regex metacharacters.
fn literal_char(chars: &[char], pos: &mut usize) -> Option<char> {
    let c = *chars.get(*pos)?;
    *pos += 1;
    if c != '\\' {
        return (!"[]()\\.^$*+?|{}".contains(c)).then_some(c);
    }
    let escaped = *chars.get(*pos)?;
    *pos += 1;
    match escaped {
        'n' => Some('\n'),
        't' => Some('\t'),
        c if c.is_ascii_punctuation() => Some(c),
        _ => None,
    }
}

/// The single member of a character class: inside `[…]` the quantifier
/// characters are literal; `^` (negation) and `]` (an empty class) are not
/// supported.
fn class_member(chars: &[char], pos: &mut usize) -> Option<char> {
    match *chars.get(*pos)? {
        '\\' => literal_char(chars, pos),
        '^' | ']' => None,
        c => {
            *pos += 1;
            Some(c)
        }
    }
}

/// The `{N}` after an atom (1 when there is none); `None` for any other
/// quantifier.
fn exact_repetition(chars: &[char], pos: &mut usize) -> Option<usize> {
    match chars.get(*pos) {
        Some('?' | '*' | '+') => None,
        Some('{') => {
            let close = chars[*pos..].iter().position(|&c| c == '}')? + *pos;
            let digits: String = chars[*pos + 1..close].iter().collect();
            *pos = close + 1;
            digits.parse().ok()
        }
        _ => Some(1),
    }
}

#[test]
fn literal_expansion_handles_the_corpus_shapes() {
    assert_eq!(literal_expansion(r"(a\]){3}").as_deref(), Some("a]a]a]"));
    assert_eq!(
        literal_expansion(r"a[*][*]b(c[*] ){2}c[*]").as_deref(),
        Some("a**bc* c* c*")
    );
    assert_eq!(literal_expansion(r"\[{2}a\]{2}").as_deref(), Some("[[a]]"));
    assert_eq!(
        literal_expansion("(<blockquote>\n){2}").as_deref(),
        Some("<blockquote>\n<blockquote>\n")
    );
    assert_eq!(
        literal_expansion(r"\&lt;\/(\&lt;!--){2}").as_deref(),
        Some("&lt;/&lt;!--&lt;!--")
    );
    assert_eq!(
        literal_expansion(r"(<p>\[x8]</p>\n){2}").as_deref(),
        Some("<p>[x8]</p>\n<p>[x8]</p>\n")
    );
    for unsupported in [
        r"abc.?de",
        r"(_a<\/em>_ ?){2}",
        r"^<p>[e`]*</p>\n$",
        r"^(<\w+>\n?)+x",
    ] {
        assert_eq!(literal_expansion(unsupported), None, "{unsupported}");
    }
}
