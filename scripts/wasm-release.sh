#!/usr/bin/env bash
# The size-first release build of a wasm crate, shared by scripts/build-pkg.sh
# (the package), scripts/build-floor.sh (the dependency floor) and
# scripts/size-report.sh, so all three are built exactly alike.
#   bash scripts/wasm-release.sh <target-dir> <cargo build arguments...>
# Prints nothing on success; the .wasm is under
# <target-dir>/wasm32-unknown-unknown/release/.
#
# The standard library is rebuilt for the wasm (`-Zbuild-std`, with rustup's
# rust-src or Debian's rust-web-src: scripts/toolchain.sh installs one) so that
# it is built for size like our code and without what a renderer never uses:
#  - std's `optimize_for_size` feature (smaller formatting and sorting code);
#  - `-Zlocation-detail=none`: panics carry no source paths (the data section
#    held every file path of every crate that can panic);
#  - `-Zfmt-debug=none`: `{:?}` prints nothing in this build (no user-facing
#    text uses Debug: the typed errors' messages are Display, tested natively,
#    where Debug is whole).
# These are unstable flags of the stable compiler (RUSTC_BOOTSTRAP=1, as the
# Debian fallback already needs for build-std). Measured in the README's size
# table: 13.6 KB gzip less wasm, no change in the per-steer benchmark.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
[ -f target/toolchain.env ] || bash scripts/toolchain.sh >/dev/null
# shellcheck disable=SC1091
source target/toolchain.env
target_dir=$1
shift
export RUSTC_BOOTSTRAP=1
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-Zlocation-detail=none -Zfmt-debug=none"
cargo build --quiet --release --target wasm32-unknown-unknown --target-dir "$target_dir" \
  -Zbuild-std=std,panic_abort -Zbuild-std-features=optimize_for_size "$@"
