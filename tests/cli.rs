//! The `citemark` binary from outside: output, `--json`, and one-line errors.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn citemark(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_citemark"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // A run refusing its arguments may exit before reading its input: a
    // broken pipe here is not the test's concern.
    let _ = child.stdin.take().expect("stdin").write_all(stdin);
    child.wait_with_output().expect("the binary exits")
}

fn temp_file(name: &str, contents: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("citemark-cli-{}-{name}", std::process::id()));
    std::fs::write(&path, contents).expect("temp dir is writable");
    path
}

/// A failed run: non-zero exit, nothing on stdout, one line on stderr.
fn assert_one_line_error(out: &Output, mentions: &str) {
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(stderr.contains(mentions), "{stderr}");
}

#[test]
fn renders_stdin_to_html() {
    let out = citemark(&["render"], b"Hello **world** [1]");
    assert!(out.status.success());
    let html = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(html.starts_with(
        "<p>Hello <strong>world</strong> <sup><a class=\"citation citation-unresolved\""
    ));
}

#[test]
fn json_output_has_html_and_index() {
    let sources = temp_file(
        "sources.json",
        r#"{"sources": [{"id": "new", "title": "T", "href": "https://t.example/"}], "aliases": {"old": "new"}}"#,
    );
    let out = citemark(
        &[
            "render",
            "-",
            "--sources",
            sources.to_str().expect("UTF-8 path"),
            "--json",
            "--mode",
            "button",
        ],
        br#"x <cite id="old">label</cite>"#,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    assert!(json["html"]
        .as_str()
        .expect("html")
        .contains("<button type=\"button\" class=\"citation\""));
    let occurrence = &json["citations"]["occurrences"][0];
    assert_eq!(occurrence["key"], "new");
    assert_eq!(occurrence["originalKey"], "old");
    assert_eq!(occurrence["resolved"], true);
    assert_eq!(json["citations"]["sources"][0]["uses"], 1);
}

#[test]
fn images_flag_links_images_instead_of_loading_them() {
    let out = citemark(&["render", "--images", "link"], b"![c](/c.png)");
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).expect("UTF-8"),
        "<p><a href=\"/c.png\">c</a></p>\n"
    );
    assert_one_line_error(&citemark(&["render", "--images", "hide"], b""), "--images");
}

#[test]
fn invalid_utf8_is_decoded_lossily() {
    let out = citemark(&["render"], b"a \xff b");
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).expect("UTF-8"),
        "<p>a \u{FFFD} b</p>\n"
    );
}

#[test]
fn bad_input_is_one_line_naming_the_problem() {
    assert_one_line_error(
        &citemark(&["render", "/no/such/file.md"], b""),
        "/no/such/file.md",
    );
    assert_one_line_error(&citemark(&["render", "--mode", "fancy"], b""), "--mode");
    assert_one_line_error(
        &citemark(&["render", "--raw-html", "allow"], b""),
        "--raw-html",
    );
    let bad_json = temp_file("bad.json", "[{\"id\": 1}]");
    let path = bad_json.to_str().expect("UTF-8 path");
    assert_one_line_error(&citemark(&["render", "--sources", path], b"x"), "sources");
    let not_json = temp_file("not.json", "{nope");
    let path = not_json.to_str().expect("UTF-8 path");
    assert_one_line_error(&citemark(&["render", "--sources", path], b"x"), "sources");
    assert_one_line_error(
        &citemark(&["render", "--sources", "/no/such/sources.json"], b"x"),
        "/no/such/sources.json",
    );
}

#[test]
fn an_unwritable_output_is_one_line_not_a_panic() {
    for command in ["render", "stream"] {
        assert_unwritable_output_is_one_line(command);
    }
}

fn assert_unwritable_output_is_one_line(command: &str) {
    // Output read only in part: the pipe closes under the writer.
    let mut child = Command::new(env!("CARGO_BIN_EXE_citemark"))
        .args([command])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // (Closed before the input is written: no output can have gone out.)
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all("x [1]\n\n".repeat(200_000).as_bytes());
    });
    let out = child.wait_with_output().expect("the binary exits");
    writer.join().expect("stdin writer");
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("cannot write the output"), "{stderr}");
}

fn adapter_fixture(name: &str) -> String {
    format!(
        "{}/tests/fixtures/adapters/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn from_reads_a_provider_response() {
    let out = citemark(
        &[
            "render",
            "--from",
            "gemini",
            &adapter_fixture("gemini-web-search"),
        ],
        b"",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stderr.is_empty());
    let html = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(html.contains(r#"title="stadt-zuerich.ch""#), "{html}");
    assert!(
        html.contains("largest city.<sup><a class=\"citation\""),
        "{html}"
    );
}

#[test]
fn from_reports_warnings_on_stderr_and_in_json() {
    let fixture = adapter_fixture("openai-malformed");
    let out = citemark(&["render", "--from", "openai", &fixture], b"");
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("citemark: warning: output[0].content[0].annotations[1]: "),
        "{stderr}"
    );
    let out = citemark(&["render", "--from", "openai", "--json", &fixture], b"");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON output");
    assert_eq!(
        json["warnings"][0]["path"],
        "output[0].content[0].annotations[1]"
    );
    assert_eq!(json["citations"]["occurrences"][0]["resolved"], true);
}

#[test]
fn from_rejects_unknown_formats_and_non_json() {
    let out = citemark(&["render", "--from", "bard", "-"], b"");
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("unknown format \"bard\""), "{stderr}");
    let out = citemark(&["render", "--from", "anthropic", "-"], b"not json");
    assert_one_line_error(&out, "anthropic response is not JSON");
}

#[test]
fn stream_prints_one_patch_per_chunk_that_add_up_to_render() {
    let answer = "Grüße **aus** Köln [1].\n\n- one\n- two <cite id=\"a\">x</cite>\n";
    let sources = temp_file(
        "stream-sources.json",
        r#"[{"title": "One", "href": "https://one.example/"}]"#,
    );
    let sources = sources.to_str().expect("UTF-8 temp path");
    let rendered = citemark(
        &["render", "--sources", sources, "--mode", "button"],
        answer.as_bytes(),
    );
    let out = citemark(
        &[
            "stream",
            "--chunk-size",
            "1",
            "--sources",
            sources,
            "--mode",
            "button",
        ],
        answer.as_bytes(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).expect("UTF-8 output");
    let patches: Vec<serde_json::Value> = stdout
        .lines()
        .map(|line| serde_json::from_str(line).expect("each line is a JSON patch"))
        .collect();
    assert_eq!(patches.len(), answer.len() + 1, "one per byte, then finish");
    let html: String = patches
        .iter()
        .filter_map(|p| p["append"].as_str())
        .collect();
    assert_eq!(html, String::from_utf8_lossy(&rendered.stdout));
    let citations: usize = patches
        .iter()
        .map(|p| p["citations"].as_array().map_or(0, Vec::len))
        .sum();
    assert_eq!(citations, 2);
    assert!(patches
        .iter()
        .all(|p| !p["tail"].as_str().unwrap_or("").contains("**")));
}

#[test]
fn stream_with_tail_changes_gives_the_same_tails() {
    let answer = "Grüße **aus** Köln [1].\n\n- one\n- two <cite id=\"a\">x</cite>\n\n```rust\nlet x = 1;\n```\n";
    let lines = |args: &[&str]| -> Vec<serde_json::Value> {
        let out = citemark(args, answer.as_bytes());
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout)
            .expect("UTF-8 output")
            .lines()
            .map(|line| serde_json::from_str(line).expect("each line is a JSON patch"))
            .collect()
    };
    let tails = lines(&["stream", "--chunk-size", "2"]);
    let changes = lines(&["stream", "--chunk-size", "2", "--tail-changes"]);
    assert_eq!(tails.len(), changes.len());
    let mut shown = String::new();
    let (mut whole, mut changed) = (0, 0);
    for (with_tail, with_change) in tails.iter().zip(&changes) {
        assert_eq!(with_tail["append"], with_change["append"]);
        let tail = with_tail["tail"].as_str().expect("a tail");
        let ends_tail = with_change["append"].as_str() != Some("")
            || with_change.get("rewind").is_some()
            || with_change.get("mark").is_some()
            || with_change.get("empty").is_some();
        if ends_tail {
            shown.clear();
        }
        let change = &with_change["tailChange"];
        if let Some(html) = change["replace"].as_str() {
            shown = html.to_owned();
            changed += html.len();
        } else if let Some(html) = change["insert"].as_str() {
            let before = change["before"].as_u64().expect("before") as usize;
            shown.insert_str(shown.len() - before, html);
            changed += html.len();
        }
        // (The last line, finish's, carries its empty tail either way.)
        if with_change.get("tail").is_some() {
            shown = with_change["tail"].as_str().unwrap_or_default().to_owned();
        }
        assert_eq!(shown, tail);
        whole += tail.len();
    }
    assert!(
        changed * 3 < whole,
        "{changed} bytes of changes, {whole} of tails"
    );
}

#[test]
fn stream_rejects_a_zero_chunk_size() {
    let out = citemark(&["stream", "--chunk-size", "0"], b"x");
    assert_one_line_error(&out, "--chunk-size");
}

/// The `append` fields of a stream's JSON lines, concatenated.
fn appends(lines: &[serde_json::Value]) -> String {
    lines.iter().filter_map(|p| p["append"].as_str()).collect()
}

fn patch_lines(stdout: &[u8]) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("each line is a JSON patch"))
        .collect()
}

#[test]
fn stream_writes_patches_while_stdin_is_still_open() {
    let (first, rest) = ("Grüße aus **Köln** [1].\n\nThe next", " paragraph [2].\n");
    let mut child = Command::new(env!("CARGO_BIN_EXE_citemark"))
        .args(["stream", "--chunk-size", "4"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin
        .write_all(first.as_bytes())
        .expect("first part written");
    stdin.flush().expect("first part flushed");
    // Lines go through a channel, so a binary that waits for EOF fails the
    // test at the timeout instead of hanging it.
    let stdout = std::io::BufReader::new(child.stdout.take().expect("stdout"));
    let (sender, lines) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in std::io::BufRead::lines(stdout) {
            let line = line.expect("UTF-8 output");
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    let timeout = std::time::Duration::from_secs(10);
    let line = lines
        .recv_timeout(timeout)
        .expect("a patch before stdin is closed");
    let patch: serde_json::Value = serde_json::from_str(&line).expect("a JSON patch");
    assert!(
        patch["append"].is_string() && patch["tail"].is_string(),
        "{line}"
    );
    let mut patches = vec![patch];
    stdin.write_all(rest.as_bytes()).expect("rest written");
    drop(stdin);
    loop {
        match lines.recv_timeout(timeout) {
            Ok(line) => patches.push(serde_json::from_str(&line).expect("a JSON patch")),
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
            Err(e) => panic!("no end to the output: {e}"),
        }
    }
    reader.join().expect("stdout reader");
    let out = child.wait_with_output().expect("the binary exits");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rendered = citemark(&["render"], format!("{first}{rest}").as_bytes());
    let rendered = String::from_utf8(rendered.stdout).expect("UTF-8");
    // finish() ends it: an empty tail, and the last paragraph appended.
    let last = patches.last().expect("the finish patch");
    assert_eq!(last["tail"], "");
    let last_append = last["append"].as_str().expect("append");
    assert!(last_append.contains("paragraph"), "{last_append}");
    assert_eq!(appends(&patches), rendered);
}

#[test]
fn stream_of_a_file_equals_stream_of_stdin() {
    let answer = "Grüße **aus** Köln [1].\n\n- one\n- two <cite id=\"a\">x</cite>\n\n> end 🎉";
    let file = temp_file("stream-file.md", answer);
    let file = file.to_str().expect("UTF-8 temp path");
    let from_file = citemark(&["stream", "--chunk-size", "3", file], b"");
    let from_stdin = citemark(&["stream", "--chunk-size", "3"], answer.as_bytes());
    assert!(from_file.status.success() && from_stdin.status.success());
    let from_file = appends(&patch_lines(&from_file.stdout));
    assert_eq!(from_file, appends(&patch_lines(&from_stdin.stdout)));
    let rendered = citemark(&["render"], answer.as_bytes());
    assert_eq!(from_file, String::from_utf8_lossy(&rendered.stdout));
}

#[test]
fn stream_from_a_provider_adds_up_to_render() {
    let fixture = adapter_fixture("gemini-web-search");
    let args = ["--from", "gemini", fixture.as_str()];
    let streamed = citemark(&[&["stream"], &args[..]].concat(), b"");
    assert!(
        streamed.status.success(),
        "{}",
        String::from_utf8_lossy(&streamed.stderr)
    );
    let rendered = citemark(&[&["render"], &args[..]].concat(), b"");
    assert_eq!(
        appends(&patch_lines(&streamed.stdout)),
        String::from_utf8_lossy(&rendered.stdout)
    );
}

#[test]
fn stream_input_errors_are_one_line() {
    let out = citemark(&["stream", "/no/such/file.md"], b"");
    assert_one_line_error(&out, "cannot read /no/such/file.md");
    let out = citemark(&["stream", env!("CARGO_MANIFEST_DIR")], b"");
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("cannot read"), "{stderr}");
}

/// `citemark render` on an answer holding what issue 21 covers: math in
/// its four spellings, marker links, a labelled marker, other products'
/// markers (two opt-in, switched on by `--enable`), a short link under a
/// path prefix and a byte-order mark.
#[test]
fn renders_what_models_write() {
    let answer = "\u{FEFF}# Growth\n\nIt is $e^{rt}$ or \\(e^{rt}\\) [1](https://a.example/) and \
                  [the table][2]; see [^3^], [citation:4] and \u{3010}5\u{2020}source\u{3011} \
                  ([call](https://h/o/p/-/ai/conversations/c/call/k)).\n\n\\[x\\]\n";
    let out = citemark(
        &["render", "--enable", "copilot-markers,prompt-markers"],
        answer.as_bytes(),
    );
    assert!(out.status.success(), "{out:?}");
    let html = String::from_utf8_lossy(&out.stdout);
    for part in [
        "<h1>Growth</h1>",
        "<span class=\"math math-inline\">e^{rt}</span> or <span class=\"math math-inline\">e^{rt}</span>",
        "href=\"https://a.example/\"",
        ">the table</a>",
        "data-citation-key=\"3\"",
        "data-citation-key=\"4\"",
        "data-citation-key=\"5\"",
        "data-citation-kind=\"shortlink\"",
        "<span class=\"math math-display\">x</span>",
    ] {
        assert!(html.contains(part), "{part} in {html}");
    }
    let plain = citemark(
        &["render", "--no-math", "--disable", "file-search-markers"],
        answer.as_bytes(),
    );
    let html = String::from_utf8_lossy(&plain.stdout);
    assert!(html.contains("It is $e^{rt}$ or (e^{rt})"), "{html}");
    assert!(html.contains("\u{3010}5\u{2020}source\u{3011}"), "{html}");
    let bad = citemark(&["render", "--enable", "emoji"], b"x");
    assert_one_line_error(&bad, "--enable");
}
