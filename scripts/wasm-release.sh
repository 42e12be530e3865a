#!/usr/bin/env bash
# The size-first release build of a wasm crate, shared by scripts/build-pkg.sh
# (the package), scripts/build-floor.sh (the dependency floor) and
# scripts/size-report.sh, so all three are built exactly alike.
#   bash scripts/wasm-release.sh <target-dir> <cargo build arguments...>
# Prints nothing on success; the .wasm is under
# <target-dir>/wasm32-unknown-unknown/release/.
#
# Built with the pinned nightly named in release-toolchain.toml (installed
# by scripts/toolchain.sh), because three of its flags are unstable:
#  - `-Zbuild-std`: std is rebuilt for the wasm at the dependencies' "z";
#  - `-Zlocation-detail=none`: panics carry no source paths (the data section
#    would hold every file path of every crate that can panic);
#  - `-Zfmt-debug=shallow`: derived `Debug` prints the type's name only (no
#    message of ours uses Debug). Not `none`: it also blanks `{:?}` of a str,
#    and serde's error text quotes a wrong string value that way.
# std's `optimize_for_size` feature is not used: a little smaller, but
# slower per steer. One stable flag: `-Cllvm-args=-inline-threshold=40`,
# LLVM inlines less than its opt-level 2 default (225); small calls are
# still inlined. What the nightly buys over a stable build:
# benches/release-toolchains.sh, quoted in docs/toolchain.md.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
channel=$(bash scripts/release-toolchain.sh name)
rustup run "$channel" rustc --version >/dev/null 2>&1 || bash scripts/release-toolchain.sh install >&2
target_dir=$1
shift
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-Zlocation-detail=none -Zfmt-debug=shallow -Cllvm-args=-inline-threshold=40"
cargo "+$channel" build --quiet --release --target wasm32-unknown-unknown --target-dir "$target_dir" \
  -Zbuild-std=std,panic_abort "$@"
