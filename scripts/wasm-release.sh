#!/usr/bin/env bash
# The size-first release build of a wasm crate, shared by scripts/build-pkg.sh
# (the package), scripts/build-floor.sh (the dependency floor) and
# scripts/size-report.sh, so all three are built exactly alike.
#   bash scripts/wasm-release.sh <target-dir> <cargo build arguments...>
# Prints nothing on success; the .wasm is under
# <target-dir>/wasm32-unknown-unknown/release/.
#
# The standard library is rebuilt for the wasm (`-Zbuild-std`, with rustup's
# rust-src or Debian's rust-web-src: scripts/toolchain.sh installs one), at
# the dependencies' "z", and two flags take out what a renderer never reads:
#  - `-Zlocation-detail=none`: panics carry no source paths (the data section
#    held every file path of every crate that can panic);
#  - `-Zfmt-debug=shallow`: derived `Debug` prints the type's name only (no
#    message of ours uses Debug). Not `none`: it also blanks `{:?}` of a str,
#    and serde's error text quotes a wrong string value that way (`invalid
#    type: string "yes", expected a boolean` lost the "yes"; 3.5 KB gzip more).
# These are unstable in the stable compiler (RUSTC_BOOTSTRAP=1, which the
# Debian fallback already needs for build-std). std's `optimize_for_size`
# feature is not used: 2.2 KB gzip less, but 5-7 % more time per steer.
# One stable flag: `-Cllvm-args=-inline-threshold=40`, LLVM inlines less than
# its opt-level 2 default (225); small calls are still inlined: 8.3 KB gzip
# less (100: 4.9 KB; 10: 2.2 KB more off but 10-17 % slower in-process).
# All measured in the README's size section: 17.2 KB gzip less in all, and
# no measurable change per steer.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
[ -f target/toolchain.env ] || bash scripts/toolchain.sh >/dev/null
# shellcheck disable=SC1091
source target/toolchain.env
target_dir=$1
shift
export RUSTC_BOOTSTRAP=1
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-Zlocation-detail=none -Zfmt-debug=shallow -Cllvm-args=-inline-threshold=40"
cargo build --quiet --release --target wasm32-unknown-unknown --target-dir "$target_dir" \
  -Zbuild-std=std,panic_abort "$@"
