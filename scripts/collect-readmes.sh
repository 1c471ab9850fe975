#!/usr/bin/env bash
# Collects the README of every crate in the local cargo registry into a
# git-ignored folder: real markdown nobody here wrote, for benches/corpus.rs
# (docs/corpus.md). No network: only what `cargo` has already downloaded.
#
#   scripts/collect-readmes.sh [OUT]     OUT defaults to target/corpus/readmes
#
# One file per crate name (its newest version in the registry), named
# <crate>.md. Skips files over 200 KB and files that are not UTF-8. The folder
# is rebuilt on every run, so running it again gives the same folder.
# CARGO_HOME is honoured, as cargo does.
set -euo pipefail

cd "$(dirname "$0")/.."
out=${1:-target/corpus/readmes}
registry=${CARGO_HOME:-$HOME/.cargo}/registry/src
max_bytes=$((200 * 1024))

if ! compgen -G "$registry/*/*/" >/dev/null; then
    echo "no crates in $registry: run a cargo build first" >&2
    exit 1
fi

# "<name> <version> <dir>" for every unpacked crate; the version is what follows
# the last "-" that starts a semver (names may hold "-", versions "-" and "+").
list=$(mktemp)
trap 'rm -f "$list"' EXIT
for dir in "$registry"/*/*/; do
    dir=${dir%/}
    base=${dir##*/}
    if [[ $base =~ ^(.+)-([0-9]+\.[0-9]+\.[0-9]+([-+].*)?)$ ]]; then
        printf '%s %s %s\n' "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}" "$dir"
    fi
done | sort -k1,1 -k2,2V >"$list"

mkdir -p "$out"
find "$out" -maxdepth 1 -type f -name '*.md' -delete

collected=0 large=0 not_utf8=0 missing=0 bytes=0
# The last line per name is its newest version (sorted by version above).
while read -r name _ dir; do
    readme=
    for candidate in README.md readme.md Readme.md README.markdown README; do
        if [[ -f $dir/$candidate ]]; then
            readme=$dir/$candidate
            break
        fi
    done
    if [[ -z $readme ]]; then
        missing=$((missing + 1))
        continue
    fi
    size=$(stat -c %s "$readme")
    if ((size > max_bytes)); then
        large=$((large + 1))
        continue
    fi
    if ! iconv -f UTF-8 -t UTF-8 "$readme" >/dev/null 2>&1; then
        not_utf8=$((not_utf8 + 1))
        continue
    fi
    cp "$readme" "$out/$name.md"
    collected=$((collected + 1))
    bytes=$((bytes + size))
done < <(awk '{ last[$1] = $0 } END { for (n in last) print last[n] }' "$list" | sort)

echo "collected $collected READMEs ($bytes bytes) into $out;" \
    "skipped: $large over 200 KB, $not_utf8 not UTF-8, $missing crates without a README"
