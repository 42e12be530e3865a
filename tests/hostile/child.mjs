// One hostile class in a fresh Node process (a crash or a poisoned module
// cannot hide the other classes). Usage: node child.mjs <package entry URL> <class> [scale]
// Prints PROGRESS lines, then one RESULT line with the class's record.
import { watchTimers } from "./timer-watch.mjs";
import { captureWasm } from "./wasm-readings.mjs";

const [entry, name, scaleArg] = process.argv.slice(2);
const scale = Number(scaleArg ?? process.env.HOSTILE_SCALE ?? 1);
const emit = (tag, value) => process.stdout.write(`${tag} ${JSON.stringify(value)}\n`);

// Escapes the package lets through are failures of the class; count them.
const escapes = { uncaught: 0, unhandled: 0, samples: [] };
const note = (kind, e) => {
  escapes[kind]++;
  if (escapes.samples.length < 5) {
    let text;
    try { text = e instanceof Error ? `${e.name}: ${e.message}` : typeof e === "symbol" ? "a Symbol" : String(e); } catch { text = `an unprintable ${typeof e}`; }
    escapes.samples.push(`${kind}: ${text.slice(0, 160)}`);
  }
};
process.on("uncaughtException", (e) => note("uncaught", e));
process.on("unhandledRejection", (e) => note("unhandled", e));
// The engine may log hook errors; thousands of inputs must not flood the log.
const logged = { count: 0, first: [] };
for (const level of ["error", "warn", "log", "info", "debug"]) {
  const real = console[level].bind(console);
  console[level] = (...args) => {
    logged.count++;
    if (logged.first.length < 3) { try { logged.first.push(args.map(String).join(" ").slice(0, 200)); } catch { logged.first.push("(unprintable)"); } }
    if (level === "log" && typeof args[0] === "string" && args[0].startsWith("\u0000")) real(...args);
  };
}
watchTimers();
captureWasm();

let result;
try {
  const api = await import(entry);
  const initResult = await api.init();
  const { runClass } = await import("./run-class.mjs");
  const properties = name === "properties" ? await import("./properties.mjs") : undefined;
  result = await runClass(api, initResult, name, { scale, properties, progress: (p) => emit("PROGRESS", p) });
} catch (e) {
  emit("RESULT", { name, crashed: `the runner failed: ${e?.stack ?? e}` });
  process.exit(1);
}
result.escapes = escapes;
result.logged = logged.count;
result.loggedFirst = logged.first;
if (escapes.uncaught + escapes.unhandled > 0) {
  result.failureCount += escapes.uncaught + escapes.unhandled;
  result.failures.push(`${escapes.uncaught} uncaught exceptions, ${escapes.unhandled} unhandled rejections (${escapes.samples.join("; ")})`);
}
emit("RESULT", result);
process.exit(0);
