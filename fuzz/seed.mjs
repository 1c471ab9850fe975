#!/usr/bin/env node
// Seeds the fuzz targets' corpora (fuzz/corpus/<target>/, git-ignored) from
// the shared corpora ($CITEMARK_CORPORA, else ../shared/corpora beside the
// checkout) and the test samples and fixtures, in each target's input
// format (fuzz/src/targets.rs). `make fuzz` runs it; it rewrites only the
// seed-* files, so what libFuzzer added to a corpus stays.
//
// Without the shared corpora it seeds from the tests alone and says so;
// under CI=true a missing corpus is a failure (house rule).

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const fuzzDir = dirname(fileURLToPath(import.meta.url));
const root = resolve(fuzzDir, '..');
const corporaDir = process.env.CITEMARK_CORPORA || resolve(root, '../shared/corpora');
// Seeds longer than this are cut: libFuzzer's -max_len (Makefile) is the same.
const MAX_LEN = Number(process.env.FUZZ_MAX_LEN || 8192);

// Options headers (fuzz/src/targets.rs): the defaults, and a few others
// so that each mode and policy is in the corpus from the start.
const HEADERS = [
  [0, 0, 0, 0, 0], // defaults: link mode, sanitize, sources unknown
  [1, 1, 0, 0b1010, 0, 0b1, 1, 97, 0b1, 1, 98], // button, escape, sources "a" and "b"
  [2 | 4, 2, 0, 0b1000, 0], // icon embedded, strip, sources known (none)
  [0b01000, 0, 0, 0, 0], // images as links
  [0b10000 | 0b100000, 0, 0b11111, 0, 0], // images as alt text, no syntaxes, no autolinks
  [0, 0b100, 0, 0, 0], // raw HTML passed through (dangerous)
];
// Chunkings for `stream`: 1-byte pushes of bytes; 3, then 7 bytes of text;
// deferred pushes of 16 bytes; the whole message at once.
const CHUNKINGS = [[1 << 2, 0], [(2 << 2) | 1, 2, 6], [(1 << 2) | 2, 15], [0]];

function corpusJson(name) {
  const path = join(corporaDir, name);
  if (!existsSync(path)) throw new Error(`${path} missing`);
  return JSON.parse(readFileSync(path, 'utf8'));
}

/// The markdown seeds: samples, spec examples, XSS payloads, pathological
/// inputs cut to size.
function markdownSeeds(haveCorpora) {
  const seeds = [];
  const samples = join(root, 'tests/samples');
  for (const file of readdirSync(samples).sort()) {
    if (file.endsWith('.md') && file !== 'README.md') seeds.push(readFileSync(join(samples, file), 'utf8'));
  }
  if (!haveCorpora) return seeds;
  for (const name of ['commonmark-spec.json', 'gfm-spec.json', 'gfm-cmark-extensions.json', 'pulldown-cmark-ext-spec.json', 'xss-markdown.json']) {
    for (const example of corpusJson(name)) seeds.push(example.markdown);
  }
  for (const name of ['xss-dompurify.json', 'xss-owasp.json']) {
    for (const entry of corpusJson(name)) seeds.push(entry.payload);
  }
  for (const item of corpusJson('xss-html5sec.json').items) seeds.push(item.data_expanded || item.data);
  for (const testCase of corpusJson('pathological.json')) {
    const text = pathologicalSeed(testCase.input ?? {});
    if (text) seeds.push(text);
  }
  return seeds.filter((s) => typeof s === 'string' && s.length > 0);
}

/// A pathological case (SOURCES.md: "pathological.json") built at a scale
/// that fits MAX_LEN: every count and loop shrunk by the same factor, so
/// that what opens still meets what closes. The generated case is left out.
function pathologicalSeed(input) {
  if (input.generated || !Array.isArray(input.parts)) return '';
  const scale = Math.min(1, MAX_LEN / 2 / (input.length_chars || MAX_LEN));
  const shrink = (n) => Math.max(1, Math.round(n * scale));
  let text = '';
  const append = (part, i) => {
    if (part.for_i_in_range) {
      const [start, end] = part.for_i_in_range;
      for (let j = start; j < start + shrink(end - start); j++) {
        for (const item of part.item) append(item, j);
      }
    } else if (part.decimal_i) {
      text += String(i);
    } else {
      text += part.repeat_unit.repeat(part.count === 'i' ? i : shrink(part.count));
    }
  };
  for (const part of input.parts) append(part, undefined);
  return text.slice(0, MAX_LEN);
}

function jsonSeeds() {
  const seeds = [];
  const fixtures = join(root, 'tests/fixtures/adapters');
  for (const file of readdirSync(fixtures).sort()) {
    if (file.endsWith('.json')) seeds.push(readFileSync(join(fixtures, file)));
  }
  return seeds;
}

function optionSeeds() {
  const seeds = [];
  const samples = join(root, 'tests/samples');
  for (const file of readdirSync(samples).sort()) {
    if (!file.endsWith('.sources.json')) continue;
    const sources = readFileSync(join(samples, file), 'utf8');
    const markdown = readFileSync(join(samples, file.replace('.sources.json', '.md')), 'utf8');
    seeds.push(Buffer.from(`${sources}\0${markdown}`));
    seeds.push(Buffer.from(`{"sources": ${JSON.stringify(JSON.parse(sources).sources)}, "mode": "icon", "embedded": true}`));
  }
  for (const options of [
    '{}',
    '{"mode": "button", "rawHtml": "escape", "images": "link"}',
    '{"rawHtml": "strip", "urls": "safe", "autolinks": false, "linkRel": null, "linkTarget": "_blank"}',
    '{"syntaxes": {"citeTags": false, "markers": true, "shortLinks": false, "queryLinks": true, "recovery": false}}',
    '{"shortLinkPatterns": [{"template": "/c/{conversation}/m/{call}", "key": "call"}], "idPrefix": "m-1-"}',
    '{"aliases": {"old": "new", "a": "b", "b": "a"}, "sources": [{"id": "new", "index": 3, "title": "T", "href": "https://x/", "excerpt": "e", "data": {"k": [1]}}]}',
    'null',
    '[{"id": "a"}, {"index": 2, "href": "/rel"}]',
  ]) {
    seeds.push(Buffer.from(options));
  }
  return seeds;
}

function write(target, seeds) {
  const dir = join(fuzzDir, 'corpus', target);
  mkdirSync(dir, { recursive: true });
  for (const file of readdirSync(dir)) {
    if (file.startsWith('seed-')) rmSync(join(dir, file));
  }
  const names = new Set();
  for (const seed of seeds) {
    const bytes = seed.subarray(0, MAX_LEN);
    const name = `seed-${createHash('sha1').update(bytes).digest('hex')}`;
    names.add(name);
    writeFileSync(join(dir, name), bytes);
  }
  console.log(`fuzz/corpus/${target}: ${names.size} seeds`);
}

const haveCorpora = existsSync(corporaDir);
if (!haveCorpora) {
  if ((process.env.CI || '').toLowerCase() === 'true') {
    console.error(`corpora not found at ${corporaDir} and CI=true (set CITEMARK_CORPORA)`);
    process.exit(1);
  }
  console.error(`corpora not found at ${corporaDir}: seeding from the tests alone`);
}
const markdown = markdownSeeds(haveCorpora).map((text) => Buffer.from(text));
write('render', markdown.map((md, i) => Buffer.concat([Buffer.from(HEADERS[i % HEADERS.length]), md])));
write('stream', markdown.map((md, i) => Buffer.concat([
  Buffer.from(HEADERS[i % HEADERS.length]),
  Buffer.from(CHUNKINGS[Math.floor(i / HEADERS.length) % CHUNKINGS.length]),
  md,
])));
write('adapters', jsonSeeds());
write('options_json', optionSeeds());
