//! Not a check of its own: the batch renderer of the browser XSS test
//! (`tests/browser/xss.test.mjs`), which renders thousands of documents; one
//! CLI process each took close to a minute on the project's machine, this
//! takes a second. The browser test runs it as
//!
//! ```sh
//! CITEMARK_RENDER_BATCH=jobs.json cargo test --test browser_render -- --ignored --exact render_batch
//! ```
//!
//! `jobs.json` is `[{"markdown": "…", "options": {…}}]`, the options in their
//! JSON form (so only what a host can set from JSON is reachable, as through
//! the CLI and the npm package); the output, `jobs.json.out`, is
//! `[{"html": "…", "citations": {…}}]` in the same order.

use citemark::Options;
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Job {
    markdown: String,
    options: Options,
}

#[test]
#[ignore = "a helper for tests/browser: needs CITEMARK_RENDER_BATCH=jobs.json"]
fn render_batch() {
    let path =
        std::env::var("CITEMARK_RENDER_BATCH").expect("CITEMARK_RENDER_BATCH names the jobs file");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    let jobs: Vec<Job> = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    let rendered: Vec<serde_json::Value> = jobs
        .iter()
        .map(|job| {
            let out = citemark::render(&job.markdown, &job.options);
            serde_json::json!({ "html": out.html, "citations": out.citations })
        })
        .collect();
    let json = serde_json::to_string(&rendered).expect("rendered output is JSON");
    std::fs::write(format!("{path}.out"), json)
        .unwrap_or_else(|e| panic!("cannot write {path}.out: {e}"));
}
