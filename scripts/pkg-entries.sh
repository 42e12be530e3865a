#!/usr/bin/env bash
# The last step of build-pkg.sh (and of prepack when only js/ changed): puts
# the package entries around the wasm-bindgen glue in pkg/.
#  - copies the entries, the driver, the classes and the public .d.ts from js/;
#  - embeds the .wasm, gzip'd and base64'd, in pkg/wasm-inline.js (the
#    default browser entry: nothing to fetch, nothing for a bundler to copy);
#  - trims the glue's .d.ts of its loader declarations (InitInput, initSync,
#    the default export: they need the `dom` lib; index.d.ts declares `init`).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f pkg/renderer_steering_bg.wasm ] || { echo "[entries] pkg/renderer_steering_bg.wasm missing: run scripts/build-pkg.sh" >&2; exit 1; }
# Each file is replaced only when it changed, by a rename (npm pack may be
# reading pkg/ in a parallel test process).
put() { # source destination
  cmp -s "$1" "$2" && return 0
  cp "$1" "$2.tmp.$$" && mv -f "$2.tmp.$$" "$2"
}
# The entries and the public types at the top; the driver, the classes and
# the desktop hook in their folders, as in js/.
for f in browser.js node.js url.js index.d.ts; do put "js/$f" "pkg/$f"; done
for dir in api driver desktop; do
  mkdir -p "pkg/$dir"
  for f in js/$dir/*.js; do put "$f" "pkg/$dir/$(basename "$f")"; done
done
inline() { # dir: embeds dir's .wasm in dir/wasm-inline.js
  if [ ! "$1/wasm-inline.js" -nt "$1/renderer_steering_bg.wasm" ]; then
    { printf 'export default "'; gzip -9 -n -c "$1/renderer_steering_bg.wasm" | base64 -w0; printf '";\n'; } > "$1/wasm-inline.js.tmp.$$"
    mv -f "$1/wasm-inline.js.tmp.$$" "$1/wasm-inline.js"
  fi
}
inline pkg
grep -q '^export type InitInput' pkg/renderer_steering.d.ts && sed -i '/^export type InitInput/,$d' pkg/renderer_steering.d.ts
if grep -Eq 'WebAssembly\.|RequestInfo|BufferSource' pkg/renderer_steering.d.ts; then
  echo "[entries] pkg/renderer_steering.d.ts still names dom types after trimming" >&2; exit 1
fi
rm -f pkg/wasm-base64.js pkg/renderer_steering_bg.wasm.d.ts pkg/package.json pkg/.gitignore pkg/README.md

# One folder per integration under pkg/entries/ (renderer-steering/codexhost, /acp, /desktop):
# its own wasm (built with only its dialect's features by build-pkg.sh) and
# its own copy of the driver, so two entries in one app never share a
# module; the classes it exports (js/entries/<name>.js as its
# api/exports.js) and its types (js/entries/<name>.d.ts).
entry() { # name, then the js/api files it needs
  local name=$1 dir=pkg/entries/$1
  shift
  [ -f "$dir/renderer_steering_bg.wasm" ] || { echo "[entries] $dir/renderer_steering_bg.wasm missing: run scripts/build-pkg.sh" >&2; exit 1; }
  for f in browser.js node.js url.js; do put "js/$f" "$dir/$f"; done
  put "js/entries/$name.d.ts" "$dir/index.d.ts"
  mkdir -p "$dir/driver" "$dir/api"
  for f in js/driver/*.js; do put "$f" "$dir/driver/$(basename "$f")"; done
  for f in "$@" instances.js; do put "js/api/$f" "$dir/api/$f"; done
  put "js/entries/$name.js" "$dir/api/exports.js"
  if [ "$name" = desktop ]; then
    mkdir -p "$dir/desktop"
    for f in js/desktop/*.js; do put "$f" "$dir/desktop/$(basename "$f")"; done
  fi
  inline "$dir"
  rm -f "$dir/renderer_steering.d.ts" "$dir/renderer_steering_bg.wasm.d.ts" "$dir/package.json" "$dir/.gitignore" "$dir/README.md"
}
entry codexhost codexhost.js
entry acp acp.js
entry desktop codexhost.js
