# citemark: the single entry point for humans and CI.
#   make demo   render the bundled sample answer (HTML, then the citation index)
#   make test   every check CI runs: format, lints, docs, unit/spec/XSS/snapshot tests
#   make bench  criterion benchmarks (citemark vs pulldown-cmark)
#   make test-browser  pkg/src's hydration entry points and XSS corpora in headless Chromium

SHELL := /bin/bash
CARGO ?= cargo
export CARGO_TERM_COLOR ?= never

.PHONY: demo test bench toolchain fmt lint doc test-browser

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

fmt: toolchain
	$(CARGO) fmt --all -- --check

lint: toolchain
	$(CARGO) clippy --all-targets -- -D warnings

doc: toolchain
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --no-deps --quiet

test: fmt lint doc
	$(CARGO) test --all-targets
	$(CARGO) test --doc

bench: toolchain
	$(CARGO) bench --bench render

## Browser tests (README: Hydration): Debian's Chromium, installed when
## missing, driven by the pinned playwright-core. The samples are rendered by
## the CLI, the XSS corpora by the batch helper tests/browser_render.rs.
test-browser: toolchain
	$(CARGO) build --release --quiet --bin citemark
	$(CARGO) test --quiet --test browser_render --no-run
	tests/browser/ensure-chromium.sh
	npm ci --prefix tests/browser --no-audit --no-fund
	node --test tests/browser/
