#!/usr/bin/env bash
# Fuzzes everything the core decodes from a host and the state machines'
# input sequences with cargo-fuzz (libFuzzer, nightly; no sanitizer: the
# crate forbids unsafe code, and a panic is what we hunt). RUNS per target
# (default 3,400,000: 10.2 million in total). Seeds live in fuzz/corpus/<target>;
# new inputs go to target/fuzz-corpus/<target>; crashes to fuzz/artifacts/.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
export PATH="$HOME/.cargo/bin:$PATH"
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
RUNS=${RUNS:-3400000}
# Schedules are capped at 256 bytes (about 85 engine inputs) to keep the run count affordable.
for spec in codexhost_answers:1024 acp_answers:1024 schedules:256 desktop_schedules:300; do
  target=${spec%%:*}
  max_len=${spec##*:}
  work="../target/fuzz-corpus/$target"
  mkdir -p "$work"
  echo "=== $target: $RUNS runs"
  cargo +nightly fuzz run -O -s none "$target" "$work" "corpus/$target" -- -runs="$RUNS" -max_len="$max_len" -print_final_stats=1 2>&1 \
    | grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|Done|==.*ERROR|SUMMARY)' || true
done
