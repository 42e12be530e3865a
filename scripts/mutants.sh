#!/usr/bin/env bash
# Mutation testing of the sans-IO core (issue 15): cargo-mutants mutates every
# function in src/core/ and runs the fast rule suites (the library's unit tests
# and every tests/*_rules.rs) against each mutant. Prints caught / missed /
# timeout / unviable per file and the score over the non-equivalent mutants.
#
#   bash scripts/mutants.sh                       # the whole core
#   bash scripts/mutants.sh -f src/core/content.rs  # one file (any cargo-mutants option)
#   bash scripts/mutants.sh --shard 1/2 --baseline skip
#   bash scripts/mutants.sh --report DIR          # only re-score DIR/outcomes of an earlier run
#
# Survivors that cannot change behaviour are listed in
# scripts/mutants-equivalent.txt as "file: mutation # reason" (the mutation text
# is cargo-mutants' own, without line and column, so entries survive edits
# elsewhere in the file); the score excludes exactly those. MUTANTS_MIN (97)
# is the lowest score that passes.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
VERSION=27.0.0
MIN=${MUTANTS_MIN:-97}
OUT=${MUTANTS_OUT:-target/mutants}
EQUIVALENT=scripts/mutants-equivalent.txt
say() { echo "[mutants] $*"; }

if [ "${1:-}" = "--report" ]; then
  OUT=${2:?--report needs the output folder of an earlier run}
else
  if command -v cargo-mutants >/dev/null 2>&1 && cargo mutants --version 2>/dev/null | grep -q " $VERSION\$"; then
    say "present: cargo-mutants $VERSION"
  else
    say "installing (cargo): cargo-mutants $VERSION"
    cargo install --quiet --locked cargo-mutants --version "$VERSION" 2>/dev/null \
      || cargo install --quiet --force cargo-mutants --version "$VERSION" \
      || { say "MISSING: cargo-mutants $VERSION"; exit 1; }
  fi
  TESTS=(--lib)
  for f in tests/*_rules.rs; do TESTS+=(--test "$(basename "$f" .rs)"); done
  # No debug info: each mutant relinks every test binary, and the links dominate.
  export CARGO_PROFILE_DEV_DEBUG=0 CARGO_PROFILE_TEST_DEBUG=0
  mkdir -p "$OUT"
  say "mutating src/core/ against: ${TESTS[*]}"
  start=$SECONDS
  rc=0
  nice -n "${MUTANTS_NICE:-10}" cargo mutants --no-shuffle -j "${MUTANTS_JOBS:-1}" --timeout "${MUTANTS_TIMEOUT:-60}" \
    --file 'src/core/**/*.rs' --output "$OUT" "$@" -- "${TESTS[@]}" > "$OUT/run.log" 2>&1 || rc=$?
  say "cargo-mutants exited $rc after $((SECONDS - start)) s (log $OUT/run.log)"
  # 0 all caught, 2 some missed, 3 some timed out; anything else is a failed run.
  case $rc in 0 | 2 | 3) ;; *) tail -n 30 "$OUT/run.log"; exit "$rc" ;; esac
fi

DIR="$OUT/mutants.out"
[ -f "$DIR/caught.txt" ] || { say "no results in $DIR"; exit 1; }
key() { sed -E 's/^([^:]+):[0-9]+:[0-9]+: /\1: /' "$@"; } # drop line:column
KEYS=$(mktemp); trap 'rm -f "$KEYS"' EXIT
grep -vE '^\s*(#|$)' "$EQUIVALENT" | sed -E 's/ # .*$//; s/[[:space:]]+$//' | sort -u > "$KEYS"

printf '%-34s %7s %7s %8s %8s %11s\n' file caught missed timeout unviable equivalent
total() { awk '{c+=$2; m+=$3; t+=$4; u+=$5; e+=$6} END {print c, m, t, u, e}'; }
ROWS=$(
  for f in $(cat "$DIR"/{caught,missed,timeout,unviable}.txt | cut -d: -f1 | sort -u); do
    n() { grep -c "^$f:" "$DIR/$1.txt" || true; }
    eq=$(grep "^$f:" "$DIR/missed.txt" | key | grep -cxFf "$KEYS" || true)
    echo "$f $(n caught) $(( $(n missed) - eq )) $(n timeout) $(n unviable) $eq"
  done
)
echo "$ROWS" | while read -r f c m t u e; do printf '%-34s %7s %7s %8s %8s %11s\n' "$f" "$c" "$m" "$t" "$u" "$e"; done
read -r C M T U E < <(echo "$ROWS" | total)
printf '%-34s %7s %7s %8s %8s %11s\n' TOTAL "$C" "$M" "$T" "$U" "$E"

REAL=$(key "$DIR/missed.txt" | grep -vxFf "$KEYS" || true)
[ -z "$REAL" ] || { say "missed (not listed as equivalent):"; echo "$REAL" | sed 's/^/    /'; }
STALE=$(grep -vxFf <(key "$DIR/missed.txt") "$KEYS" || true)
if [ -n "$STALE" ] && [ -z "${MUTANTS_PARTIAL:-}" ] && [ "$#" -eq 0 ]; then
  say "equivalent entries that matched no survivor (stale?):"; echo "$STALE" | sed 's/^/    /'
fi
# Timeouts count as caught (the tests noticed: the mutant hangs), shown apart.
SCORE=$(awk -v c="$C" -v m="$M" -v t="$T" 'BEGIN { d = c + m + t; printf "%.1f", d ? 100 * (c + t) / d : 100 }')
say "score: $SCORE % of non-equivalent mutants caught ($C caught, $T timeout, $M missed; $E equivalent, $U unviable not counted)"
awk -v s="$SCORE" -v min="$MIN" 'BEGIN { exit !(s >= min) }' || { say "below $MIN %"; exit 1; }
