# citemark: the single entry point for humans and CI.
#   make demo   render the bundled sample answer (HTML, then the citation index),
#               then build the npm package and serve the demo page (www/) on
#               http://127.0.0.1:8080/ ($PORT overrides) until Ctrl-C
#   make test   every check CI runs: format, lints, docs, unit/spec/XSS/snapshot tests,
#               the npm package under Node and in Chromium, the demo, the example
#               apps, hydration and XSS in Chromium
#   make bench  criterion benchmarks (rendering vs pulldown-cmark; streaming), then make bench-node
#   make bench-shapes  streaming by shape (code block, table, lists, quote, details, footnotes,
#               late references; 16 and 256 KiB): bytes handed and time against one render
#               (SHAPES=table,details SIZES=16,256 SHAPES_BUDGET_S=20 select; docs/performance.md)
#   make bench-corpus  the READMEs of the crates in the local cargo registry (collected into the
#               git-ignored target/corpus/readmes/), streamed at 1-, 4- and 16-byte chunks:
#               stream = render, prefix rate, bytes handed, time (CORPUS_BUDGET_S; docs/corpus.md)
#   make bench-node  the npm package against other JS markdown renderers in Node (after make pkg)
#   make bench-node-shapes  the shapes of make bench-shapes through the npm package in Node
#   make bench-browser  the demo page in headless Chromium streaming a ~100 KB code block, table
#               and list in 4-character chunks: tasks over 50 ms, push and frame times, DOM =
#               render (RUNS=3 SHAPES=code,table,list PACINGS=task,frame TRACE=1; docs/performance.md)
#   make test-browser  pkg/src's hydration entry points and XSS corpora in headless Chromium
#   make pkg        the npm package's generated files (pkg/dist/: wasm + glue, default, lite and
#               adapters)
#   make test-node  the npm package, packed and installed, tested under Node (after make pkg),
#               and its trap containment against a test-only wasm (make test-trap-wasm)
#   make test-trap-wasm  target/test-trap/: the lite wasm with the test-only feature test-trap
#               (panics on a magic input); never part of the package
#   make soak   10,000 messages rendered and streamed in one Node process: wasm memory and
#               JS heap over time, forgotten streams reclaimed or not (docs/reliability.md)
#   make size       what a production Vite build ships per entry and per component app (JS + wasm; raw/gzip/brotli)
#               against the size targets, the package's own sizes, and render speed in Node
#   make bench-startup  per entry, the time from a page's first script to the first render
#               in headless Chromium, Vite production builds (RUNS=9; docs/performance.md)
#   make size-floor the smallest wasm the mandated dependencies allow (pulldown-cmark alone,
#               + serde JSON, + ammonia) beside the package's own wasm, for the size targets
#   make apps       the Vite example apps (examples/*-app) built against the packed package
#   make fuzz       a time-boxed cargo-fuzz campaign over each target, niced (FUZZ_SECONDS per
#               target, FUZZ_TARGETS selects; nightly and cargo-fuzz into .tools/; docs/fuzzing.md)
#   make fuzz-regressions  the saved fuzz inputs (fuzz/regressions/) replayed on stable (make test runs them)

SHELL := /bin/bash
CARGO ?= cargo
export CARGO_TERM_COLOR ?= never

.PHONY: test-trap-wasm soak demo test bench bench-shapes bench-corpus bench-node bench-node-shapes bench-node-install bench-browser toolchain fmt lint doc test-browser pkg pkg-tools test-node size size-floor bench-startup apps fuzz fuzz-tools fuzz-regressions

## Installs what the Rust checks need; idempotent and quick when present.
toolchain:
	@command -v cargo >/dev/null || { echo "cargo not found: install Rust with rustup (https://rustup.rs)"; exit 1; }
	@rustup component list --installed 2>/dev/null | grep -q '^clippy' || rustup component add clippy
	@rustup component list --installed 2>/dev/null | grep -q '^rustfmt' || rustup component add rustfmt

demo: toolchain
	$(CARGO) build --release --quiet --bin citemark
	@echo "=== HTML (examples/answer.md with examples/sources.json) ==="
	@./target/release/citemark render examples/answer.md --sources examples/sources.json
	@echo
	@echo "=== HTML + citation index as JSON (--json) ==="
	@./target/release/citemark render examples/answer.md --sources examples/sources.json --json
	@echo
	@echo "=== the demo page (www/): building the npm package (make pkg) ==="
	@$(MAKE) --no-print-directory pkg
	@node scripts/serve.mjs

fmt: toolchain
	$(CARGO) fmt --all -- --check

lint: toolchain
	$(CARGO) clippy --all-targets -- -D warnings
	$(CARGO) clippy --lib --no-default-features --features wasm,wasm-adapters -- -D warnings

doc: toolchain
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --no-deps --quiet

test: fmt lint doc
	$(CARGO) test --all-targets
	$(CARGO) test --doc
	$(MAKE) --no-print-directory test-node
	$(MAKE) --no-print-directory test-browser

bench: toolchain bench-node
	$(CARGO) bench --bench render --bench stream

## docs/performance.md "Streaming by shape": a plain main (benches/shapes.rs), a few minutes.
bench-shapes: toolchain
	$(CARGO) bench --bench shapes

## docs/corpus.md: real documents nobody here wrote (scripts/collect-readmes.sh, no network;
## not committed), streamed by a plain main (benches/corpus.rs), a few minutes.
bench-corpus: toolchain
	scripts/collect-readmes.sh
	$(CARGO) bench --bench corpus

## Browser tests (docs/testing.md, docs/security.md): Debian's Chromium, installed when
## missing, driven by the pinned playwright-core. The samples are rendered by
## the CLI (the debug build `make test` has made anyway), the XSS corpora by
## the batch helper tests/browser_render.rs; the demo page needs the package
## (pkg), the example apps' tests their builds (apps).
test-browser: toolchain apps
	$(CARGO) build --quiet --bin citemark
	$(CARGO) test --quiet --test browser_render --no-run
	tests/browser/ensure-chromium.sh
	npm ci --prefix tests/browser --no-audit --no-fund
	node --test tests/browser/

## docs/performance.md "Streaming in Chromium": the demo page (www/) with benches/browser/driver.js
## in place of its scripted conversation, driven by benches/browser/longtasks.mjs through the
## browser tests' helpers and pinned playwright-core (npm ci only when its lockfile changed).
## Not part of `make test`: it measures and reports, 2-3 minutes a run (RUNS=3 by default).
bench-browser: pkg
	tests/browser/ensure-chromium.sh
	@test tests/browser/node_modules/.package-lock.json -nt tests/browser/package-lock.json || npm ci --prefix tests/browser --no-audit --no-fund --loglevel=error
	node benches/browser/longtasks.mjs

# ---- the npm package (pkg/) ----------------------------------------------------
# wasm-bindgen-cli must be the exact version of the wasm-bindgen crate in Cargo.lock.
WASM_BINDGEN_VERSION := $(shell sed -n '/^name = "wasm-bindgen"$$/{n;s/^version = "\(.*\)"$$/\1/p;}' Cargo.lock)
WASM_BINDGEN_ROOT := .tools/wasm-bindgen-$(WASM_BINDGEN_VERSION)
WASM_BINDGEN := $(WASM_BINDGEN_ROOT)/bin/wasm-bindgen
# The package's wasm is built with a pinned nightly, for one unstable flag: panics as an
# immediate trap (`-Cpanic=immediate-abort`, std rebuilt with it), so that no panic message
# is formatted, or compiled in (docs/performance.md: 15-43 KB less gzipped wasm per entry). The JS layer
# never read those messages: a trap is a trap either way (docs/reliability.md).
WASM_TOOLCHAIN := nightly-2026-05-20
WASM_ENV := RUSTUP_TOOLCHAIN=$(WASM_TOOLCHAIN) RUSTFLAGS="-Zunstable-options -Cpanic=immediate-abort"
WASM_BUILD_STD := -Zbuild-std=std,panic_abort
# One target dir per entry, so that re-running `make pkg` relinks nothing.
WASM_CARGO := $(WASM_ENV) $(CARGO) rustc --lib --crate-type cdylib --target wasm32-unknown-unknown \
	--profile wasm $(WASM_BUILD_STD) --no-default-features --quiet
WASM_OUT = target/wasm-$(1)/wasm32-unknown-unknown/wasm/citemark.wasm
# wasm-opt level, matching the wasm profile's opt-level "s" (docs/performance.md: 3 vs s measured),
# its passes repeated until the size stops shrinking (--converge: ~0.9 KiB gzipped
# less per entry, ~30 s more of wasm-opt; docs/performance.md: the npm package).
WASM_OPT_LEVEL ?= -Os --converge

## Installs what the wasm build needs into git-ignored folders; quick when present.
pkg-tools: toolchain
	@command -v node >/dev/null && command -v npm >/dev/null || { echo "node and npm are needed for the npm package"; exit 1; }
	@test -n "$(WASM_BINDGEN_VERSION)" || { echo "no wasm-bindgen in Cargo.lock"; exit 1; }
	@rustup toolchain list | grep -q '^$(WASM_TOOLCHAIN)' || rustup toolchain install $(WASM_TOOLCHAIN) --profile minimal --component rust-src
	@rustup component list --installed --toolchain $(WASM_TOOLCHAIN) | grep -q '^rust-src' || rustup component add rust-src --toolchain $(WASM_TOOLCHAIN)
	@test -x $(WASM_BINDGEN) || $(CARGO) install wasm-bindgen-cli --version "=$(WASM_BINDGEN_VERSION)" --root $(WASM_BINDGEN_ROOT)
	@test pkg/node_modules/.package-lock.json -nt pkg/package-lock.json || (cd pkg && npm ci --no-audit --no-fund --loglevel=error)

## Builds pkg/dist/{default,lite,adapters}: release wasm, wasm-bindgen --target web, wasm-opt,
## base64 module and .wasm file. The default wasm holds `adapt`; lite's does not (29 KB less):
## the lite entries re-export it from citemark/adapters, whose wasm is `adapt` alone.
pkg: pkg-tools
	$(WASM_CARGO) --target-dir target/wasm-default --features wasm,sanitize,wasm-adapters
	node pkg/scripts/build.mjs default $(call WASM_OUT,default) $(WASM_BINDGEN) $(WASM_OPT_LEVEL)
	$(WASM_CARGO) --target-dir target/wasm-lite --features wasm
	node pkg/scripts/build.mjs lite $(call WASM_OUT,lite) $(WASM_BINDGEN) $(WASM_OPT_LEVEL)
	$(WASM_CARGO) --target-dir target/wasm-adapters --features wasm-adapters
	node pkg/scripts/build.mjs adapters $(call WASM_OUT,adapters) $(WASM_BINDGEN) $(WASM_OPT_LEVEL)
	cd pkg && ./node_modules/.bin/tsc -p types-test/tsconfig.json

## The test-only wasm (feature test-trap, docs/reliability.md): built like the lite entry,
## at -O1 (its speed does not matter), into target/test-trap/; build.mjs refuses it if the
## marker is missing, and refuses the package's entries if they hold it.
test-trap-wasm: pkg-tools
	$(WASM_CARGO) --target-dir target/wasm-test-trap --features wasm,test-trap
	node pkg/scripts/build.mjs test-trap $(call WASM_OUT,test-trap) $(WASM_BINDGEN) -O1

## Packs pkg/ with npm pack, installs the tarball into target/node-test/ and runs tests/node/ there.
test-node: pkg test-trap-wasm
	tests/browser/ensure-chromium.sh
	node tests/node/run.mjs

## pkg/scripts/size.mjs: builds a minimal Vite app per entry, and per component + engine, under target/size/ (tests/node's
## pinned Vite, npm ci only when its lockfile changed; the package packed and installed).
size: pkg
	node pkg/scripts/size.mjs

## docs/performance.md "Startup in Chromium": make size's Vite apps in headless Chromium,
## a fresh context per run (benches/browser/startup.mjs); a minute or two, not part of make test.
bench-startup: pkg
	tests/browser/ensure-chromium.sh
	node benches/browser/startup.mjs

## docs/reliability.md "Memory over a long session": a few minutes, not part of make test.
soak: pkg
	node --expose-gc benches/soak/soak.mjs

## The size floor (pkg/scripts/size-floor.sh): probe crates of pulldown-cmark alone, with a
## serde JSON boundary and with ammonia, at Cargo.lock's versions and the wasm profile, built
## and optimized as `pkg` does, measured beside the package's wasm as `pkg` last built it.
size-floor: pkg-tools
	$(WASM_ENV) WASM_BUILD_STD="$(WASM_BUILD_STD)" WASM_BINDGEN=$(WASM_BINDGEN) WASM_OPT_LEVEL="$(WASM_OPT_LEVEL)" CARGO="$(CARGO)" pkg/scripts/size-floor.sh

## Builds examples/svelte-app and examples/react-app (vite build) with the
## packed package installed into each, as a user's project would have it.
apps: pkg
	node scripts/build-apps.mjs

## docs/performance.md "In Node: against other JavaScript renderers": packs pkg/ with npm pack, installs the tarball
## beside benches/node's pinned competitors (git-ignored .pack/ and node_modules/), runs
## benches/node/compare.mjs in one Node process (~5 minutes; RUNS, RUNS_LARGE, LIMIT_S tune it).
bench-node: bench-node-install
	node benches/node/compare.mjs

## docs/performance.md "Streaming by shape": benches/shapes.rs's shapes through the packed package in Node
## (SHAPES=table,details SIZES=16,256 RUNS=5 select), a few minutes.
bench-node-shapes: toolchain bench-node-install
	$(CARGO) build --release --example stream_cost
	node --expose-gc benches/node/shapes.mjs

## The packed package (and the pinned peers) installed under benches/node/.
bench-node-install: pkg
	@test benches/node/node_modules/.package-lock.json -nt benches/node/package-lock.json || (cd benches/node && npm ci --no-audit --no-fund --loglevel=error)
	rm -rf benches/node/.pack && mkdir -p benches/node/.pack
	cd pkg && npm pack --pack-destination ../benches/node/.pack --loglevel=error >/dev/null
	cd benches/node && npm install --no-save --no-audit --no-fund --loglevel=error ./.pack/citemark-*.tgz

# ---- fuzzing (docs/fuzzing.md) -------------------------------------------------
CARGO_FUZZ_VERSION := 0.13.2
CARGO_FUZZ := .tools/cargo-fuzz-$(CARGO_FUZZ_VERSION)/bin/cargo-fuzz
# The one pinned nightly, the wasm build's (WASM_TOOLCHAIN).
FUZZ_TOOLCHAIN ?= $(WASM_TOOLCHAIN)
FUZZ_TARGETS ?= render stream adapters options_json
FUZZ_SECONDS ?= 300
FUZZ_MAX_LEN ?= 8192
# Streams in 1-byte chunks cost far more per byte (docs/fuzzing.md, finding 3): shorter inputs.
FUZZ_MAX_LEN_stream ?= 2048

## Installs nightly (cargo-fuzz needs its sanitizer flags) and the pinned cargo-fuzz into
## .tools/; quick when present. Not needed by `make test`.
fuzz-tools: toolchain
	@rustup run $(FUZZ_TOOLCHAIN) rustc --version >/dev/null 2>&1 || rustup toolchain install $(FUZZ_TOOLCHAIN) --profile minimal
	@test -x $(CARGO_FUZZ) || $(CARGO) install cargo-fuzz --version "=$(CARGO_FUZZ_VERSION)" --locked --root .tools/cargo-fuzz-$(CARGO_FUZZ_VERSION)

## Seeds fuzz/corpus/ (fuzz/seed.mjs), then fuzzes each target for FUZZ_SECONDS at nice 19, so
## only idle CPU is used (FUZZ_SECONDS is wall time: the CPU each target got is printed at its end). No sanitizer: the crate forbids unsafe code, and throughput matters.
## --release: fuzz/Cargo.toml's profile turns debug assertions and overflow checks on (but in
## idna_adapter). libFuzzer's fork mode goes on after a failing input, which it saves in
## fuzz/artifacts/<target>/; the run fails at the end if any target saved one.
fuzz: fuzz-tools
	node fuzz/seed.mjs
	@for target in $(FUZZ_TARGETS); do \
	  case $$target in render|stream) dict=markdown.dict;; *) dict=json.dict;; esac; \
	  max_len=$(FUZZ_MAX_LEN); [ $$target != stream ] || max_len=$(FUZZ_MAX_LEN_stream); \
	  echo "=== fuzz $$target: $(FUZZ_SECONDS) s"; \
	  mkdir -p fuzz/artifacts/$$target; \
	  RUSTUP_TOOLCHAIN=$(FUZZ_TOOLCHAIN) /usr/bin/time -f "=== fuzz $$target: %U s user + %S s system CPU (its build included) in %e s" \
	    nice -n 19 $(CARGO_FUZZ) fuzz run --fuzz-dir fuzz \
	    --sanitizer none --release $$target fuzz/corpus/$$target -- \
	    -max_total_time=$(FUZZ_SECONDS) -max_len=$${max_len} -timeout=60 -rss_limit_mb=2048 \
	    -dict=fuzz/$$dict -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
	    -artifact_prefix=fuzz/artifacts/$$target/ -print_final_stats=1 || exit 1; \
	done
	@failed=0; for target in $(FUZZ_TARGETS); do \
	  if [ -n "$$(ls -A fuzz/artifacts/$$target 2>/dev/null)" ]; then \
	    echo "failing inputs saved in fuzz/artifacts/$$target/:"; ls fuzz/artifacts/$$target; failed=1; fi; \
	done; exit $$failed

## The saved inputs (fuzz/regressions/<target>/) through the same targets, on stable Rust:
## an ordinary integration test, which `make test` runs with the others.
fuzz-regressions: toolchain
	$(CARGO) test --test fuzz_regressions
