// The TypeScript examples of README.md and docs/ live in docs/examples/*.ts,
// where tests/node/examples.test.mjs compiles them under strict tsc against
// the packed package. A page quotes one by a marker line right above a ```ts
// block:
//
//   <!-- example: docs/examples/quick-start-codexhost.ts -->
//   ```ts
//   ...the file's text...
//   ```
//
//   node scripts/docs-examples.mjs           rewrites every quoted block from its file
//   node scripts/docs-examples.mjs --check   lists blocks that differ from their file, or
//                                           ```ts blocks without a marker; exits 1 if any
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

export const repo = join(dirname(fileURLToPath(import.meta.url)), "..");

/** README.md and every page under docs/ except the generated API reference. */
export function pages() {
  const found = ["README.md"];
  const walk = (dir) => {
    for (const entry of readdirSync(join(repo, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && path !== join("docs", "api")) walk(path);
      else if (entry.isFile() && entry.name.endsWith(".md")) found.push(path);
    }
  };
  walk("docs");
  return found;
}

const MARKER = /^<!-- example: (\S+) -->\n```ts\n([\s\S]*?)^```$/gm;
const TS_BLOCK = /^```ts\n/gm;

/** The quoted examples of one page's text: { file, quoted } for each marker. */
export function quotes(text) {
  return [...text.matchAll(MARKER)].map((m) => ({ file: m[1], quoted: m[2] }));
}

/** Problems of one page: a quote that differs from its file, or a ```ts block with no marker. */
export function problems(page) {
  const text = readFileSync(join(repo, page), "utf8");
  const found = [];
  for (const { file, quoted } of quotes(text)) {
    let wanted;
    try {
      wanted = readFileSync(join(repo, file), "utf8");
    } catch {
      found.push(`${page}: quotes ${file}, which does not exist`);
      continue;
    }
    if (quoted !== wanted) found.push(`${page}: the block quoting ${file} differs from the file (run node scripts/docs-examples.mjs)`);
  }
  const unmarked = [...text.matchAll(TS_BLOCK)].length - quotes(text).length;
  if (unmarked > 0) found.push(`${page}: ${unmarked} \`\`\`ts block(s) without an example marker (put the code in docs/examples/ and quote it)`);
  return found;
}

function rewrite(page) {
  const path = join(repo, page);
  const text = readFileSync(path, "utf8");
  const next = text.replace(MARKER, (_, file) => `<!-- example: ${file} -->\n\`\`\`ts\n${readFileSync(join(repo, file), "utf8")}\`\`\``);
  if (next !== text) {
    writeFileSync(path, next);
    console.log(`rewrote ${relative(repo, path)}`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes("--check")) {
    const found = pages().flatMap(problems);
    for (const p of found) console.log(p);
    process.exit(found.length > 0 ? 1 : 0);
  }
  for (const page of pages()) rewrite(page);
}
