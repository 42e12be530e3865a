#!/usr/bin/env bash
# Installs everything the build and the tests need; idempotent (skips what is
# present) and loud (says what it installs; on failure names the missing piece
# and the command that failed). Writes target/toolchain.ready once all is in place.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p target
export PATH="$HOME/.cargo/bin:$PATH"

say() { echo "[toolchain] $*"; }
fail() { say "MISSING: $1"; say "failed command: $2"; exit 1; }
run() { local what=$1; shift; "$@" || fail "$what" "$*"; }
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
APT_UPDATED=""

apt_install() {
  local missing=()
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  if [ ${#missing[@]} -eq 0 ]; then say "present: $*"; return; fi
  if [ -z "$APT_UPDATED" ]; then run "the apt package index" $SUDO apt-get update -qq; APT_UPDATED=1; fi
  say "installing (apt): ${missing[*]}"
  run "${missing[*]}" $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
}

cargo_install() { # crate version-or-empty binary
  local crate=$1 version=$2 bin=$3 want=""
  [ -n "$version" ] && want=" $version"
  if command -v "$bin" >/dev/null 2>&1 && { [ -z "$version" ] || "$bin" --version 2>/dev/null | grep -q " $version\$"; }; then
    say "present: $crate$want"; return
  fi
  local args=("$crate"); [ -n "$version" ] && args+=(--version "$version")
  say "installing (cargo): $crate$want"
  # --locked first; the registry mirror may lack a locked patch version, then resolve afresh.
  cargo install --quiet --locked "${args[@]}" 2>/dev/null || run "$crate$want" cargo install --quiet --force "${args[@]}"
}

# 1. Rust for wasm32: rustup's stable target (tests, the floor of
#    benchmarks) and the pinned nightly of the release build
#    (release-toolchain.toml; scripts/wasm-release.sh).
command -v cargo >/dev/null || fail "cargo (rustup)" "command -v cargo"
if rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then say "present: rustup target wasm32-unknown-unknown"
else run "rustup's wasm32 target" timeout 600 rustup target add wasm32-unknown-unknown; fi
run "the release toolchain (release-toolchain.toml)" bash scripts/release-toolchain.sh install

# 2. wasm-bindgen-cli at exactly the version in Cargo.lock, wasm-pack.
[ -f Cargo.lock ] || run "Cargo.lock" cargo generate-lockfile
WBG=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
[ -n "$WBG" ] || fail "the wasm-bindgen version in Cargo.lock" "awk Cargo.lock"
cargo_install wasm-bindgen-cli "$WBG" wasm-bindgen
cargo_install wasm-pack "" wasm-pack

# 3. Browsers and drivers.
apt_install chromium chromium-driver firefox-esr
cargo_install geckodriver "" geckodriver

# 4. npm dev dependencies (playwright-core drives /usr/bin/chromium; binaryen
#    provides wasm-opt 132: Debian's 108 breaks wasm-bindgen's externref table).
if npm ls --depth=0 >/dev/null 2>&1; then say "present: npm dev dependencies"
else say "installing (npm): dev dependencies"; run "npm dev dependencies" npm install --no-audit --no-fund --loglevel=error; fi
touch target/toolchain.ready
say "ready"
