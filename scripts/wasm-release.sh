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
#  - `-Zfmt-debug=shallow`: derived `Debug` prints the type's name only (no
#    message of ours uses Debug). Not `none`: it also blanks `{:?}` of a str,
#    and serde's error text quotes a wrong string value that way (`invalid
#    type: string "yes", expected a boolean` lost the "yes"; 3.5 KB gzip more).
# These are unstable flags of the stable compiler (RUSTC_BOOTSTRAP=1, as the
# Debian fallback already needs for build-std). Measured in the README's size
# table: 10.3 KB gzip less wasm, no measurable change per steer.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
[ -f target/toolchain.env ] || bash scripts/toolchain.sh >/dev/null
# shellcheck disable=SC1091
source target/toolchain.env
target_dir=$1
shift
export RUSTC_BOOTSTRAP=1
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-Zlocation-detail=none -Zfmt-debug=shallow"
cargo build --quiet --release --target wasm32-unknown-unknown --target-dir "$target_dir" \
  -Zbuild-std=std,panic_abort -Zbuild-std-features=optimize_for_size "$@"
