// Rendering with the native CLI (`make test-browser` builds it first), so the
// browser sees exactly what citemark writes.

import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const BIN = process.env.CITEMARK_BIN || path.join(REPO, "target/debug/citemark");

/** The four ways a citation can be written: [name, CLI flags]. */
export const MODES = [
  ["link", ["--mode", "link"]],
  ["button", ["--mode", "button"]],
  ["icon", ["--mode", "icon"]],
  ["icon-embedded", ["--mode", "icon", "--embedded"]],
];

/**
 * Renders `markdown` with the CLI and the given flags; resolves to
 * `{html, citations}`. Rejects (with citemark's stderr) on a non-zero exit.
 */
export function render(markdown, flags = []) {
  if (!existsSync(BIN)) {
    throw new Error(`${BIN} is missing: run \`cargo build --bin citemark\` (make test-browser does)`);
  }
  return new Promise((resolve, reject) => {
    const child = execFile(BIN, ["render", "-", "--json", ...flags], { maxBuffer: 64 << 20 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`citemark ${flags.join(" ")} failed: ${stderr || error.message}`));
      else resolve(JSON.parse(stdout));
    });
    child.stdin.end(markdown);
  });
}

/**
 * Renders many documents in one process: `jobs` is [{markdown, options}]
 * (options in citemark's JSON form); returns [{html, citations}] in order.
 * Uses the batch helper `tests/browser_render.rs` (built when needed), as a
 * CLI process per document would take about a minute for the XSS corpora.
 */
export function renderBatch(jobs) {
  const dir = mkdtempSync(path.join(tmpdir(), "citemark-browser-"));
  const file = path.join(dir, "jobs.json");
  writeFileSync(file, JSON.stringify(jobs));
  try {
    execFileSync(
      process.env.CARGO || "cargo",
      ["test", "--quiet", "--test", "browser_render", "--", "--ignored", "--exact", "render_batch"],
      { cwd: REPO, env: { ...process.env, CITEMARK_RENDER_BATCH: file }, stdio: ["ignore", "pipe", "inherit"], maxBuffer: 64 << 20 },
    );
  } catch (error) {
    throw new Error(`the batch renderer failed:\n${error.stdout ?? ""}`);
  }
  try {
    return JSON.parse(readFileSync(`${file}.out`, "utf8"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs `task` over `items`, `limit` at a time (CLI processes on 2 cores). */
export async function pool(items, limit, task) {
  const results = new Array(items.length);
  let next = 0;
  async function worker() {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i], i);
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * The sample answers (`tests/samples/*.md`, `examples/answer.md`), each with
 * its sources file when it has one: [{name, markdown, sources}].
 */
export function samples() {
  const list = [];
  const dir = path.join(REPO, "tests/samples");
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".md") && f !== "README.md").sort()) {
    const sources = path.join(dir, file.replace(/\.md$/, ".sources.json"));
    list.push({
      name: file.replace(/\.md$/, ""),
      markdown: readFileSync(path.join(dir, file), "utf8"),
      sources: existsSync(sources) ? sources : null,
    });
  }
  list.push({
    name: "examples-answer",
    markdown: readFileSync(path.join(REPO, "examples/answer.md"), "utf8"),
    sources: path.join(REPO, "examples/sources.json"),
  });
  return list;
}
