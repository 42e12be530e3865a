#!/usr/bin/env bash
# `npm run bench`: builds the package and prints the benchmark figures.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/toolchain.sh >/dev/null
bash scripts/build-floor.sh >/dev/null
bash scripts/build-pkg.sh >/dev/null
# The base commit the bench compares with (size, init(), the paired A/Bs).
bash scripts/bench-base.sh >/dev/null
node benches/bench.mjs
