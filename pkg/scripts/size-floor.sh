#!/usr/bin/env bash
# `make size-floor`: the smallest wasm the package's mandated dependencies allow,
# to set beside the size targets (default <= 300 KB gzipped, lite <= 100 KB).
#
#   WASM_BINDGEN=PATH WASM_OPT_LEVEL="-Os --converge" pkg/scripts/size-floor.sh
#
# (the Makefile passes both: its $(WASM_BINDGEN) and $(WASM_OPT_LEVEL); and, so
# that the probes are built as the package is, its pinned nightly and panic
# strategy in RUSTUP_TOOLCHAIN and RUSTFLAGS, and WASM_BUILD_STD, the
# -Zbuild-std flag that goes with them).
#
# Writes three probe crates under target/size-floor/, each a wasm-bindgen
# `render` and nothing else:
#   pulldown          pulldown-cmark's push_html with citemark's parser options
#                     (read from src/parse.rs's parser_options())
#   pulldown-serde    the same, plus options parsed from a JSON string and the
#                     result returned as JSON (serde + serde_json: a minimal
#                     JSON boundary, as the package's API has)
#   pulldown-ammonia  pulldown, plus ammonia::clean over its output, with
#                     idna_adapter pinned as citemark pins it
# Every dependency is pinned (`=`) to its version in Cargo.lock, which is copied
# into each probe and only pruned there (the script fails if any package in a
# probe's lock is not in Cargo.lock as is); the probes build with --locked.
# The profiles are Cargo.toml's own ([profile.wasm] and its per-package
# opt-level "z" overrides, which only the ammonia probe has the packages for).
# Each probe is built, run through wasm-bindgen and wasm-opt as
# pkg/scripts/build.mjs does for `make pkg`, smoke-tested under Node, and
# measured: raw, gzip -9 and brotli quality 11 (Node's zlib, as
# pkg/scripts/size.mjs measures). The package's own wasm, as `make pkg` last
# built it, is measured alongside when present.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$repo"

: "${WASM_BINDGEN:?the wasm-bindgen CLI matching Cargo.lock (run make size-floor)}"
: "${WASM_OPT_LEVEL?the wasm-opt level flags that the Makefile passes to build.mjs (run make size-floor)}"
CARGO=${CARGO:-cargo}
read -r -a build_std <<<"${WASM_BUILD_STD:-}"
read -r -a opt_level <<<"$WASM_OPT_LEVEL"
((${#opt_level[@]})) || opt_level=(-O3) # build.mjs's default when given none
wasm_opt=pkg/node_modules/.bin/wasm-opt
[[ -x $WASM_BINDGEN ]] || { echo "size-floor: no wasm-bindgen at $WASM_BINDGEN (make pkg-tools installs it)" >&2; exit 1; }
[[ -x $wasm_opt ]] || { echo "size-floor: no $wasm_opt (make pkg-tools installs it)" >&2; exit 1; }

# The flags build.mjs gives wasm-bindgen and wasm-opt (besides the level and
# the file names). Checked against build.mjs itself, so the two cannot drift.
bindgen_flags=(--target web --no-typescript --omit-default-module-path)
opt_flags=(--enable-bulk-memory --enable-sign-ext --enable-mutable-globals
  --enable-nontrapping-float-to-int --enable-reference-types --enable-multivalue
  --strip-debug --strip-producers)
ours=$(printf '%s\n' "${bindgen_flags[@]}" "${opt_flags[@]}" --out-dir --out-name | grep '^--' | sort)
theirs=$(grep -o '"--[a-z-]*"' pkg/scripts/build.mjs | tr -d '"' | sort)
if [[ $ours != "$theirs" ]]; then
  echo "size-floor: pkg/scripts/build.mjs's wasm-bindgen/wasm-opt flags changed; update this script's:" >&2
  diff <(echo "$ours") <(echo "$theirs") >&2 || true
  exit 1
fi

# citemark's markdown dialect: the flags in src/parse.rs's parser_options().
mapfile -t dialect < <(sed -n '/fn parser_options()/,/^}/p' src/parse.rs | grep -o 'ENABLE_[A-Z_]*')
((${#dialect[@]})) || { echo "size-floor: no ENABLE_* flags found in src/parse.rs's parser_options()" >&2; exit 1; }
options_expr=$(printf 'Options::%s | ' "${dialect[@]}")
options_expr=${options_expr% | }

# The one version of NAME in Cargo.lock.
lock_version() {
  local v
  v=$(sed -n "/^name = \"$1\"\$/{n;s/^version = \"\\(.*\\)\"\$/\\1/p;}" Cargo.lock)
  if [[ -z $v || $v == *$'\n'* ]]; then
    echo "size-floor: want exactly one $1 in Cargo.lock, found: ${v:-none}" >&2
    return 1
  fi
  echo "$v"
}
v_wasm_bindgen=$(lock_version wasm-bindgen)
v_pulldown=$(lock_version pulldown-cmark)
v_serde=$(lock_version serde)
v_serde_json=$(lock_version serde_json)
v_ammonia=$(lock_version ammonia)
v_idna_adapter=$(lock_version idna_adapter)

# Cargo.toml's [profile.*] sections; "package" also keeps the per-package overrides.
profiles() {
  awk -v pkgs="$1" '/^\[/ { keep = /^\[profile\./ && (pkgs == "package" || !/^\[profile\.[^].]+\.package\./) } keep' Cargo.toml
}

# Replaces FILE with stdin only when they differ, so an unchanged probe is not rebuilt.
write() {
  local tmp
  tmp=$(mktemp "$1.XXXXXX")
  cat >"$tmp"
  if cmp -s "$tmp" "$1"; then rm -f "$tmp"; else mv "$tmp" "$1"; fi
}

root=target/size-floor
export CARGO_TARGET_DIR=$repo/$root/target
mkdir -p "$root/out"
# wasm-bindgen's --target web glue is an ES module in a .js file.
echo '{ "type": "module" }' | write "$root/out/package.json"

# The (name, version) pairs of a Cargo.lock.
lock_pairs() { awk '/^name = /{ n = $3 } /^version = /{ print n, $3 }' "$1" | sort -u; }

# probe NAME DEPENDENCY_LINES PROFILE_KIND < src/lib.rs
probe() {
  local name=$1 deps=$2 kind=$3 dir=$root/$1 crate=${1//-/_} extra
  mkdir -p "$dir/src"
  write "$dir/src/lib.rs"
  write "$dir/Cargo.toml" <<EOF
# Generated by pkg/scripts/size-floor.sh: do not edit.
[package]
name = "$name"
version = "0.1.0"
edition = "2021"
publish = false

[lib]
crate-type = ["cdylib"]

[dependencies]
wasm-bindgen = "=$v_wasm_bindgen"
pulldown-cmark = { version = "=$v_pulldown", default-features = false, features = ["html"] }
$deps

# Its own workspace, not /work/main's package.
[workspace]

# From Cargo.toml:
$(profiles "$kind")
EOF
  # Cargo.lock is citemark's: `cargo update --workspace` adds the probe and drops
  # what the probe does not use, keeping every locked version as is (it would
  # resolve only a package missing from the lock, which the check below refuses).
  cp Cargo.lock "$dir/Cargo.lock"
  (cd "$dir" && "$CARGO" update --workspace --quiet)
  extra=$(comm -23 <(lock_pairs "$dir/Cargo.lock") <(lock_pairs Cargo.lock) | grep -v "^\"$name\" " || true)
  if [[ -n $extra ]]; then
    printf 'size-floor: %s resolved packages that are not in Cargo.lock:\n%s\n' "$name" "$extra" >&2
    exit 1
  fi
  echo "== $name: cargo build --locked --profile wasm --target wasm32-unknown-unknown ${build_std[*]}" >&2
  (cd "$dir" && "$CARGO" build --locked --profile wasm --target wasm32-unknown-unknown "${build_std[@]}" --quiet)
  local out=$root/out/$name
  rm -rf "$out"
  mkdir -p "$out"
  "$WASM_BINDGEN" "${bindgen_flags[@]}" --out-dir "$out" --out-name "$crate" \
    "$CARGO_TARGET_DIR/wasm32-unknown-unknown/wasm/$crate.wasm"
  echo "   wasm-opt ${opt_level[*]} ${opt_flags[*]}" >&2
  "$wasm_opt" "${opt_level[@]}" "${opt_flags[@]}" "$out/${crate}_bg.wasm" -o "$out/$crate.opt.wasm"
}

# What every probe renders with: pulldown-cmark's own HTML writer, citemark's dialect.
md_fn="use pulldown_cmark::{html, Options, Parser};
use wasm_bindgen::prelude::*;

fn md(markdown: &str) -> String {
    let opts = $options_expr;
    let mut out = String::with_capacity(markdown.len() * 3 / 2);
    html::push_html(&mut out, Parser::new_ext(markdown, opts));
    out
}"

probe pulldown "" plain <<EOF
$md_fn

#[wasm_bindgen]
pub fn render(markdown: &str) -> String {
    md(markdown)
}
EOF

probe pulldown-serde "serde = { version = \"=$v_serde\", features = [\"derive\"] }
serde_json = \"=$v_serde_json\"" plain <<EOF
$md_fn

use serde::{Deserialize, Serialize};

#[derive(Deserialize)]
struct Opts {
    mode: Option<String>,
    sources: Option<Vec<serde_json::Value>>,
}

#[derive(Serialize)]
struct Out {
    html: String,
    count: usize,
}

#[wasm_bindgen]
pub fn render(markdown: &str, options_json: &str) -> String {
    let opts: Opts = match serde_json::from_str(options_json) {
        Ok(o) => o,
        Err(e) => {
            let message = serde_json::to_string(&e.to_string()).unwrap_or_default();
            return format!("{{\"error\":{message}}}");
        }
    };
    let mut html = md(markdown);
    if opts.mode.as_deref() == Some("x") {
        html.push(' ');
    }
    let count = opts.sources.map_or(0, |s| s.len());
    serde_json::to_string(&Out { html, count }).unwrap_or_default()
}
EOF

probe pulldown-ammonia "ammonia = \"=$v_ammonia\"
# As citemark pins it (Cargo.toml): idna's ASCII-only back end.
idna_adapter = \"=$v_idna_adapter\"" package <<EOF
$md_fn

#[wasm_bindgen]
pub fn render(markdown: &str) -> String {
    ammonia::clean(&md(markdown))
}
EOF

# The package's own wasm: build.mjs's optimized output, else the base64 it ships.
entries=()
notes=()
for entry in default lite; do
  if [[ -f target/pkg-work/$entry/citemark.opt.wasm ]]; then
    entries+=("citemark $entry" "target/pkg-work/$entry/citemark.opt.wasm")
  elif [[ -f pkg/dist/$entry/citemark.wasm.js ]]; then
    entries+=("citemark $entry" "pkg/dist/$entry/citemark.wasm.js")
  else
    notes+=("citemark $entry: not built (no target/pkg-work/$entry/citemark.opt.wasm or pkg/dist/$entry/citemark.wasm.js): run make pkg")
  fi
done

echo >&2
node --input-type=module - "$root/out" "${dialect[*]}" "${opt_level[*]}" "${entries[@]}" <<'EOF'
import { readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const [outDir, dialect, level, ...entries] = process.argv.slice(2);
const probes = [
  ["pulldown", ["# T\n\n| a |\n|---|\n| ~~x~~ |\n\n- [x] t[^1]\n\n[^1]: n"], (h) => h.includes("<table>") && h.includes("<del>")],
  ["pulldown-serde", ["*a*", '{"mode":"x","sources":[{"id":1},2]}'], (h) => JSON.parse(h).count === 2],
  ["pulldown-ammonia", ["*a* <script>x</script><b onclick=x>b</b>"], (h) => h.includes("<em>a</em>") && !/script|onclick/.test(h)],
];
const rows = [];
for (const [name, args, ok] of probes) {
  const crate = name.replaceAll("-", "_");
  const wasm = readFileSync(`${outDir}/${name}/${crate}.opt.wasm`);
  const glue = await import(pathToFileURL(resolve(`${outDir}/${name}/${crate}.js`)).href);
  glue.initSync({ module: wasm });
  const html = glue.render(...args);
  if (!ok(html)) throw new Error(`${name}: unexpected render output ${JSON.stringify(html)}`);
  rows.push([name, wasm, `${outDir}/${name}/${crate}.opt.wasm`]);
}
for (let i = 0; i < entries.length; i += 2) {
  const [label, file] = [entries[i], entries[i + 1]];
  const bytes = file.endsWith(".js")
    ? Buffer.from(/"([A-Za-z0-9+/=]+)"/.exec(readFileSync(file, "utf8"))[1], "base64")
    : readFileSync(file);
  const built = statSync(file).mtime.toISOString().replace(/\.\d+Z$/, "Z");
  rows.push([label, bytes, `${file}, built ${built}`]);
}

const gz = (b) => gzipSync(b, { level: 9 }).length;
const br = (b) => brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
const cell = (n) => `${n.toLocaleString("en-US")} (${(n / 1024).toFixed(1)} KiB)`;
console.log(`size floor: parser options ${dialect.split(" ").join(" | ")}; wasm-opt ${level}; every probe's render() smoke-tested`);
console.log("| probe | raw bytes | gzip -9 bytes | brotli 11 bytes | wasm |\n| --- | ---: | ---: | ---: | --- |");
for (const [name, b, file] of rows) console.log(`| ${name} | ${cell(b.length)} | ${cell(gz(b))} | ${cell(br(b))} | ${file} |`);
EOF
for note in "${notes[@]}"; do echo "note: $note"; done
echo "gzip -9 and brotli 11 are Node's zlib, as make size measures (GNU gzip -9 comes out 0.5-1% smaller)"
echo "the earlier size targets (docs/performance.md): default <= 300 KB gzipped, lite <= 100 KB"
