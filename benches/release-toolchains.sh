#!/usr/bin/env bash
# What the release build's toolchain costs in bytes: builds the package's
# wasm twice, each through the same wasm-bindgen + wasm-opt steps as the
# package (scripts/bindgen-opt.sh), and prints raw and gzip -9 sizes:
#  - stable: the stable compiler and rustup's prebuilt wasm32 std, with the
#    one stable size flag (`-Cllvm-args=-inline-threshold=40`);
#  - pinned nightly (release-toolchain.toml): std rebuilt for size
#    (`-Zbuild-std`), panics without source paths (`-Zlocation-detail=none`),
#    derived Debug as the type name only (`-Zfmt-debug=shallow`), and the
#    same inline threshold, and the crate's nightly-only `size-first`
#    feature (the desktop core's functions built for size): what
#    scripts/build-pkg.sh ships.
# Not part of CI (two full release builds). With --write-docs it also
# rewrites the figures block of docs/toolchain.md.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
OUT=target/release-toolchains
mkdir -p "$OUT"
INLINE="-Cllvm-args=-inline-threshold=40"

sizes() { # label wasm
  local dir="$OUT/$1"
  rm -rf "$dir" && mkdir -p "$dir"
  bash scripts/bindgen-opt.sh "$2" "$dir" >/dev/null
  local wasm="$dir/renderer_steering_bg.wasm"
  # gzip -9 by Node's zlib, as `npm run bench` measures the package.
  local gz
  gz=$(node -e 'console.log(require("zlib").gzipSync(require("fs").readFileSync(process.argv[1]), { level: 9 }).length)' "$wasm")
  printf '%-20s %8s B raw  %8s B gzip -9\n' "$1" "$(wc -c < "$wasm")" "$gz" | tee -a "$OUT/table.txt"
}
rm -f "$OUT/table.txt"

CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="$INLINE" \
  cargo build --quiet --release --target wasm32-unknown-unknown --target-dir target/stable-release --lib -p renderer_steering
sizes stable target/stable-release/wasm32-unknown-unknown/release/renderer_steering.wasm

bash scripts/wasm-release.sh target/size-first --lib -p renderer_steering --features size-first
sizes "$(bash scripts/release-toolchain.sh name)" target/size-first/wasm32-unknown-unknown/release/renderer_steering.wasm

if [ "${1:-}" = "--write-docs" ]; then
  node -e '
    const fs = require("fs");
    const [page, table] = process.argv.slice(1);
    const text = fs.readFileSync(page, "utf8");
    const block = "<!-- release-toolchains:begin -->\n```text\n" + fs.readFileSync(table, "utf8") + "```\n<!-- release-toolchains:end -->";
    const next = text.replace(/<!-- release-toolchains:begin -->[\s\S]*<!-- release-toolchains:end -->/, block);
    if (next === text && !text.includes(block)) throw new Error(page + " has no release-toolchains block");
    fs.writeFileSync(page, next);
  ' docs/toolchain.md "$OUT/table.txt"
  echo "[release-toolchains] docs/toolchain.md updated"
fi
