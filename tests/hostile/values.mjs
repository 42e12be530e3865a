// Hostile JavaScript values, built fresh or shared, and the checks that tell
// a clean refusal from a raw foreign value escaping the package. No Node or
// browser API here: the same module runs in Node and in a Chromium page.

/** Everything this file creates on purpose (objects only: proxies, cycles, getters). */
const HOSTILE = new WeakSet();

/** The error every hostile getter and trap throws (a raw foreign error if it escapes). */
export class HostileError extends Error {
  constructor(message) {
    super(message);
    this.name = "HostileError";
    HOSTILE.add(this);
  }
}

function mark(value) {
  if ((typeof value === "object" && value !== null) || typeof value === "function") HOSTILE.add(value);
  return value;
}

/** A handler whose every trap throws (the handler itself is a Proxy). */
export function throwingHandler(thrown = () => new HostileError("trap")) {
  return new Proxy({}, { get: (_, trap) => () => { throw thrown(trap); } });
}

/** A Proxy whose every trap throws. */
export function trapProxy(target = {}) {
  return mark(new Proxy(target, throwingHandler((trap) => new HostileError(`trap ${String(trap)}`))));
}

/** A Proxy whose traps throw another all-traps Proxy (reading the thrown value throws too). */
export function trapProxyThrowingProxy() {
  const thrown = trapProxy();
  return mark(new Proxy({}, throwingHandler(() => thrown)));
}

export function revokedProxy(target = {}) {
  const { proxy, revoke } = Proxy.revocable(target, {});
  revoke();
  return mark(proxy);
}

export function cyclicItem() {
  const item = { type: "text", text: "x" };
  item.self = item;
  return mark(item);
}

/** A cycle 40 levels deep inside an otherwise plain JSON value. */
export function cyclicDeep() {
  const root = { note: "context" };
  let node = root;
  for (let i = 0; i < 40; i++) node = node.next = { i, list: [i, "x"] };
  node.back = root;
  return mark(root);
}

export function cyclicArray() {
  const a = [{ type: "text", text: "x" }];
  a.push(a);
  return mark(a);
}

export function deepObject(depth) {
  let v = { leaf: true };
  for (let i = 0; i < depth; i++) v = { v };
  return mark(v);
}

export function deepArray(depth) {
  let v = [];
  for (let i = 0; i < depth; i++) v = [v];
  return mark(v);
}

/** Every field a reader might want throws. */
export function throwingGetters(omit = []) {
  const o = {};
  for (const key of ["type", "text", "threadId", "input", "code", "message", "data", "delivery", "turnId", "outcome", "stopReason", "sessionUpdate", "request", "timeouts", "length", "toJSON", "then", "valueOf", "toString"]) {
    if (omit.includes(key)) continue;
    Object.defineProperty(o, key, { enumerable: true, get() { throw new HostileError(`getter ${key}`); } });
  }
  return mark(o);
}

/** A real array whose element 0 and length-dependent reads throw. */
export function throwingIndexArray() {
  const a = [];
  Object.defineProperty(a, 0, { enumerable: true, get() { throw new HostileError("index getter"); } });
  return mark(a);
}

/** A getter that throws a non-Error (a Symbol) and one that throws an all-traps Proxy. */
export function gettersThrowingOddValues() {
  const proxy = trapProxy();
  return mark({
    get type() { throw Symbol("thrown symbol"); },
    get text() { throw proxy; },
  });
}

export function hostileFunction() {
  const f = function hostile() { throw new HostileError("called"); };
  f.type = "text";
  f.text = "x";
  return mark(f);
}

export const BIG = 10n ** 30n;
export const SYM = Symbol("hostile");

export function isHostile(value) {
  try {
    if (typeof value === "symbol" || typeof value === "bigint") return true;
    if ((typeof value === "object" && value !== null) || typeof value === "function") {
      if (HOSTILE.has(value)) return true;
    }
  } catch {
    return true;
  }
  try {
    return value instanceof HostileError;
  } catch {
    return true; // a Proxy whose getPrototypeOf trap throws: certainly ours
  }
}

export function isRuntimeError(e) {
  try {
    return e instanceof WebAssembly.RuntimeError;
  } catch {
    return false;
  }
}

/** A printable line for any value, without triggering traps that throw. */
export function describe(v) {
  try {
    if (isRuntimeError(v)) return `WebAssembly.RuntimeError: ${v.message}`;
  } catch { /* unreadable */ }
  try {
    if (v instanceof Error) return `${v.name}: ${v.message}`.replace(/\s+/g, " ").slice(0, 160);
  } catch { /* a Proxy */ }
  if (typeof v === "symbol") return "a Symbol";
  if (typeof v === "bigint") return "a BigInt";
  try {
    if (isHostile(v)) return `the hostile ${typeof v} itself`;
  } catch { /* unreadable */ }
  try {
    return `${typeof v} ${String(v)}`.replace(/\s+/g, " ").slice(0, 160);
  } catch {
    return `an unprintable ${typeof v}`;
  }
}

export function safeGet(o, key) {
  try {
    return o[key];
  } catch {
    return undefined;
  }
}

export function isSteeringError(e) {
  try {
    return e !== null && typeof e === "object" && e.name === "SteeringError" && !isHostile(e);
  } catch {
    return false;
  }
}
