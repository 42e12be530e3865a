// Groups twiggy's per-item sizes (CSV from `twiggy top -f csv`) into the
// parts of the package a reader can act on, and prints the table. Used by
// scripts/size-report.sh.
import { readFileSync } from "node:fs";

const GROUPS = [
  ["serde derive (our wire types)", /renderer_steering::.*(_::<impl serde|Visitor|__Field|__FieldVisitor)|PhantomData<.*renderer_steering::.* as serde(_core)?::de::DeserializeSeed/],
  ["our code: ACP engine", /^<?renderer_steering::core::(acp::|engine::base::Engine<renderer_steering::core::acp::)/],
  ["our code: codexhost engine", /^<?renderer_steering::core::(codexhost::|engine::base::Engine<renderer_steering::core::codexhost::)/],
  ["our code: desktop hook", /^<?renderer_steering::((core|bridge)::desktop|core::engine::base::Engine<renderer_steering::core::desktop::)/],
  ["our code: journal", /^<?renderer_steering::(core::journal|core::engine::journal|bridge::journal)|::recover\b/],
  ["our code: shared core", /^<?renderer_steering::core::/],
  ["our code: the boundary (bridge)", /^<?renderer_steering::bridge::/],
  ["our code: wasm shell", /^<?renderer_steering::shell::/],
  ["serde_json (parser, writer, errors)", /serde_json/],
  ["serde-wasm-bindgen", /serde_wasm_bindgen/],
  ["serde core", /^<?(&?mut )?serde(_core)?[:[]/],
  ["float formatting (serde error text)", /flt2dec|fmt::float|zmij|bignum|dec2flt|f64 as/],
  ["core::fmt, str and panics", /core(\[\w+\])?::(fmt|panicking|str|unicode|char|result::unwrap_failed|option::expect_failed)|<char>|<str|std(\[\w+\])?::panicking/],
  ["containers, iterators, drops (per type)", /^<?(&?mut )?(alloc|hashbrown|core(\[\w+\])?::(ptr|iter|cell|ops|option|result|slice))/],
  ["wasm-bindgen, js-sys, futures", /^<?(&?mut )?(wasm_bindgen|js_sys|futures|gloo|console_error_panic_hook)/],
  ["allocator (talc)", /talc|dlmalloc|__rdl_|__rust_(alloc|dealloc|realloc)/],
  ["data (string constants)", /^data segment/],
  ["imports, exports, tables", /^(import|export|table|elem|type|global|memory)/],
];

const [file] = process.argv.slice(2);
const lines = readFileSync(file, "utf8").trim().split("\n").slice(1);
const sums = new Map(GROUPS.map(([name]) => [name, 0]));
sums.set("other (std, alloc, generic helpers)", 0);
let total = 0;
for (const line of lines) {
  // Name,ShallowSize,ShallowSizePercent,... where Name may be quoted.
  const match = /^("(?:[^"]|"")*"|[^,]*),(\d+),/.exec(line);
  if (!match) continue;
  // A build of std from source (scripts/wasm-release.sh) names each crate
  // with its hash, `serde_json[822da4d364de0b6e]::`: the groups match without it.
  const name = match[1].replace(/^"|"$/g, "").replace(/""/g, '"').replace(/\[[0-9a-f]{16}\]/g, "");
  if (name.includes("function names") || name.startsWith("custom section")) continue;
  const size = Number(match[2]);
  total += size;
  const group = GROUPS.find(([, pattern]) => pattern.test(name));
  const key = group ? group[0] : "other (std, alloc, generic helpers)";
  sums.set(key, sums.get(key) + size);
}
console.log("part of the wasm (names kept for the report)        bytes    share");
for (const [name, size] of [...sums].sort((a, b) => b[1] - a[1])) {
  console.log(`${name.padEnd(48)} ${String(size).padStart(8)}  ${((100 * size) / total).toFixed(1).padStart(5)} %`);
}
console.log(`${"total (code + data, without the name section)".padEnd(48)} ${String(total).padStart(8)}`);
