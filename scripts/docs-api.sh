#!/usr/bin/env bash
# The API reference: TypeDoc (with typedoc-plugin-markdown; both pinned dev
# dependencies) over the published types, pkg/index.d.ts and the glue's
# declarations it re-exports, into Markdown. The output is committed
# (docs/api/) and tests/node/docs-api.test.mjs fails when it differs from a
# fresh run. Needs pkg/ (scripts/build-pkg.sh).
#   bash scripts/docs-api.sh             # rewrites docs/api/
#   bash scripts/docs-api.sh <out-dir>   # writes elsewhere (the test compares)
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-docs/api}
[ -f pkg/index.d.ts ] && [ -f pkg/renderer_steering.d.ts ] || { echo "docs-api: pkg/ missing: run scripts/build-pkg.sh first" >&2; exit 1; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# The consumer's view: strict, es2022 + esnext.disposable, no dom lib, no @types/node.
cat > "$WORK/tsconfig.json" <<JSON
{ "compilerOptions": { "strict": true, "target": "es2022", "module": "nodenext", "moduleResolution": "nodenext",
    "lib": ["es2022", "esnext.disposable"], "types": [], "noEmit": true },
  "files": ["$PWD/pkg/index.d.ts"] }
JSON
# Deterministic output: no source links (they would name a commit), no dates.
node node_modules/typedoc/bin/typedoc \
  --tsconfig "$WORK/tsconfig.json" \
  --entryPoints pkg/index.d.ts \
  --plugin typedoc-plugin-markdown \
  --name renderer-steering \
  --readme none \
  --disableSources \
  --excludePrivate --excludeInternal \
  --hidePageHeader --hideBreadcrumbs \
  --useCodeBlocks \
  --parametersFormat table --interfacePropertiesFormat table --typeDeclarationFormat table \
  --logLevel Warn \
  --out "$WORK/api"
rm -rf "$OUT"
mkdir -p "$(dirname "$OUT")"
cp -r "$WORK/api" "$OUT"
echo "[docs-api] $OUT: $(find "$OUT" -name '*.md' | wc -l) pages"
