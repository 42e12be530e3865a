#!/usr/bin/env bash
# Mutation testing of the sans-IO core: cargo-mutants mutates every
# function in src/core/ (the desktop hook's rules in src/core/desktop/ among
# them) and runs the fast rule suites (the library's unit tests, every
# tests/*_rules.rs, and the desktop hook's model-based property test)
# against each mutant. Prints caught / missed / timeout / unviable per file and the
# score over the non-equivalent mutants.
#
#   bash scripts/mutants.sh                          # the whole core, from scratch
#   MUTANTS_FILES='src/core/trace.rs src/core/content.rs' bash scripts/mutants.sh   # some files only
#   bash scripts/mutants.sh --iterate                # re-test only what was not caught
#   bash scripts/mutants.sh --report                 # only print the score again
#   MUTANTS_FILES='src/core/desktop/*.rs' MUTANTS_TESTS='desktop_* bridge_rules entry_rules codexhost*_rules' bash scripts/mutants.sh
#
# Every run's outcomes go into a ledger (target/mutants/ledger.txt, the latest
# outcome per mutant wins); a whole-core run without options starts it afresh.
# The score is taken over the mutants cargo-mutants lists for the current
# code; a listed mutant with no outcome yet is reported as untested and fails.
#
# Survivors that cannot change behaviour are listed in
# scripts/mutants-equivalent.txt as "file: mutation # reason" (cargo-mutants'
# own text without line and column, so entries survive edits elsewhere in the
# file); the score excludes exactly those. MUTANTS_MIN (97) is the pass mark.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
VERSION=27.0.0
MIN=${MUTANTS_MIN:-97}
OUT=${MUTANTS_OUT:-target/mutants}
LEDGER=$OUT/ledger.txt
EQUIVALENT=scripts/mutants-equivalent.txt
# MUTANTS_FILES (space-separated paths or globs) limits a run and its report.
read -r -a FILE_ARGS <<< "${MUTANTS_FILES:-src/core/**/*.rs}"
FILES=(); for f in "${FILE_ARGS[@]}"; do FILES+=(--file "$f"); done
say() { echo "[mutants] $*"; }

if command -v cargo-mutants >/dev/null 2>&1 && cargo mutants --version 2>/dev/null | grep -q " $VERSION\$"; then
  say "present: cargo-mutants $VERSION"
else
  say "installing (cargo): cargo-mutants $VERSION"
  cargo install --quiet --locked cargo-mutants --version "$VERSION" 2>/dev/null \
    || cargo install --quiet --force cargo-mutants --version "$VERSION" \
    || { say "MISSING: cargo-mutants $VERSION"; exit 1; }
fi
mkdir -p "$OUT"

if [ "${1:-}" != "--report" ]; then
  TESTS=(--lib)
  # MUTANTS_TESTS (test binaries' names, globs allowed) narrows the suites to
  # the ones that reach the files mutated: each mutant relinks every binary
  # listed, so a run over src/core/desktop/ alone is several times faster with
  # the desktop's suites only.
  read -r -a SUITES <<< "${MUTANTS_TESTS:-*_rules desktop_properties}"
  for pattern in "${SUITES[@]}"; do
    for f in tests/$pattern.rs; do [ -f "$f" ] && TESTS+=("--test=$(basename "$f" .rs)"); done
  done
  # Given to every cargo call, the build of each mutant's too: only these binaries are built.
  CARGO_ARGS=(); for t in "${TESTS[@]}"; do CARGO_ARGS+=(--cargo-arg "$t"); done
  [ "$#" -eq 0 ] && [ -z "${MUTANTS_FILES:-}" ] && : > "$LEDGER"
  say "mutating src/core/ against: ${TESTS[*]}"
  # No debug info: each mutant relinks every test binary, and the links dominate.
  export CARGO_PROFILE_DEV_DEBUG=0 CARGO_PROFILE_TEST_DEBUG=0
  start=$SECONDS
  rc=0
  nice -n "${MUTANTS_NICE:-10}" cargo mutants --no-shuffle -j "${MUTANTS_JOBS:-1}" --timeout "${MUTANTS_TIMEOUT:-20}" \
    "${FILES[@]}" --output "$OUT" "${CARGO_ARGS[@]}" "$@" > "$OUT/run.log" 2>&1 || rc=$?
  say "cargo-mutants exited $rc after $((SECONDS - start)) s (log $OUT/run.log)"
  # 0 all caught, 2 some missed, 3 some timed out; anything else is a failed run.
  case $rc in 0 | 2 | 3) ;; *) tail -n 30 "$OUT/run.log"; exit "$rc" ;; esac
  for o in caught missed timeout unviable; do
    sed "s/^/$o\t/" "$OUT/mutants.out/$o.txt" >> "$LEDGER"
  done
fi

# Latest outcome per mutant, for the mutants of the current code only.
CURRENT=$(mktemp); KEYS=$(mktemp); trap 'rm -f "$CURRENT" "$KEYS"' EXIT
cargo mutants --list "${FILES[@]}" > "$CURRENT.list"
awk -F'\t' 'NR == FNR { want[$0] = 1; next } ($2 in want) { last[$2] = $1 }
  END { for (m in want) print ((m in last) ? last[m] : "untested") "\t" m }' "$CURRENT.list" "$LEDGER" | sort -t$'\t' -k2 > "$CURRENT"
rm -f "$CURRENT.list"
key() { sed -E 's/^([^:]+):[0-9]+:[0-9]+: /\1: /'; } # drop line:column
{ grep -vE '^\s*(#|$)' "$EQUIVALENT" || true; } | sed -E 's/ # .*$//; s/[[:space:]]+$//' | sort -u > "$KEYS"
survivors() { awk -F'\t' '$1 == "missed" { print $2 }' "$CURRENT" | key; }

row='%-34s %7s %7s %8s %9s %11s %9s\n'
printf "$row" file caught missed timeout unviable equivalent untested
ROWS=$(
  for f in $(cut -f2 "$CURRENT" | cut -d: -f1 | sort -u); do
    n() { awk -F'\t' -v o="$1" -v f="$f:" '$1 == o && index($2, f) == 1' "$CURRENT" | wc -l; }
    eq=$({ survivors | grep "^$f: " | grep -xFf "$KEYS" || true; } | wc -l)
    echo "$f $(n caught) $(($(n missed) - eq)) $(n timeout) $(n unviable) $eq $(n untested)"
  done
)
echo "$ROWS" | while read -r f c m t u e x; do printf "$row" "$f" "$c" "$m" "$t" "$u" "$e" "$x"; done
read -r C M T U E X < <(echo "$ROWS" | awk '{c+=$2; m+=$3; t+=$4; u+=$5; e+=$6; x+=$7} END {print c, m, t, u, e, x}')
printf "$row" TOTAL "$C" "$M" "$T" "$U" "$E" "$X"

REAL=$(survivors | grep -vxFf "$KEYS" || true)
[ -z "$REAL" ] || { say "missed (not listed as equivalent):"; echo "$REAL" | sed 's/^/    /'; }
STALE=$(survivors | grep -vxFf - "$KEYS" || true)
[ -z "$STALE" ] || { say "equivalent entries that match no survivor (caught now, or the code moved):"; echo "$STALE" | sed 's/^/    /'; }
# Timeouts count as caught (the tests noticed: the mutant hangs), shown apart.
SCORE=$(awk -v c="$C" -v m="$M" -v t="$T" 'BEGIN { d = c + m + t; printf "%.1f", d ? 100 * (c + t) / d : 100 }')
say "score: $SCORE % of non-equivalent mutants caught ($C caught, $T timeout, $M missed; $E equivalent and $U unviable not counted)"
[ "$X" -eq 0 ] || { say "$X mutants of the current code have no outcome yet: run bash scripts/mutants.sh"; exit 1; }
awk -v s="$SCORE" -v min="$MIN" 'BEGIN { exit !(s >= min) }' || { say "below $MIN %"; exit 1; }
