// The `churn` class: one AcpSteering through 200,000 sessions opened and
// closed on fresh ids (an app that runs for days on one connection), the
// composer read each time, every tenth replaced instead of closed. Nothing
// per session may stay: live state ends at 0 and wasm memory stays within a
// few pages after the warm-up. No reconnect until the end: closing the
// connection forgets every session, which would hide a session kept.
import { TIMEOUTS, sync } from "./contract.mjs";
import { GOOD_INIT, goodAcp, switchable } from "./good-hosts.mjs";
import { quiesce } from "./wasm-readings.mjs";

/** Sessions per class at scale 1. */
export const CHURN_ROUNDS = 200_000;
/** Growth allowed after the warm-up: the closed sessions the engine remembers are bounded, so nothing grows. */
export const CHURN_PAGES = 4;
/** Rounds between the class's progress reports and poison checks. */
const CHUNK = 5_000;

export const CHURN_ABOUT = `${CHURN_ROUNDS.toLocaleString("en")} sessions: promptSent, inputMode, sessionClosed (or sessionReplaced) on fresh ids; live state 0, memory within ${CHURN_PAGES} pages`;

/** Runs the class on `h` (see `runClass`), reading memory through `pages()`. */
export async function runChurn(h, t, scale, progress, pages) {
  const { api } = h;
  const sw = switchable(goodAcp);
  const acp = new api.AcpSteering({ request: sw.request, initialize: GOOD_INIT, timeouts: { ...TIMEOUTS } });
  let changes = 0;
  acp.onChange(() => { changes++; });
  const rounds = Math.max(CHUNK, Math.round(CHURN_ROUNDS * scale));
  const chunks = Math.ceil(rounds / CHUNK);
  let warm;
  for (let chunk = 0; chunk < chunks; chunk++) {
    await h.warmup(chunk, chunks);
    if (chunk === Math.max(1, Math.floor(chunks / 3))) warm = pages();
    for (let i = chunk * CHUNK; i < Math.min(rounds, (chunk + 1) * CHUNK); i++) {
      const id = `churn-${i}`;
      t.input("churn");
      acp.promptSent(id);
      const mode = acp.inputMode(id).mode;
      if (mode !== "direct") t.fail("inputMode while a prompt is open", `"${mode}"`);
      if (i % 10 === 9) acp.sessionReplaced(id);
      else acp.sessionClosed(id);
    }
    if (h.checkPoison(t, chunk)) break;
    progress(chunk);
  }
  await quiesce();
  const grown = pages() - warm;
  if (warm !== undefined && grown > CHURN_PAGES) t.fail("memory", `wasm memory grew ${warm} -> ${pages()} pages after the warm-up of the churn (allowed +${CHURN_PAGES})`);
  sync(t, "a reconnect after the churn", () => {
    acp.connectionClosed();
    acp.initialized(GOOD_INIT);
  });
  sync(t, "liveState after the churn", () => {
    const live = acp.liveState();
    if (live !== 0) t.fail("liveState after the churn", `${live}, not 0`);
  });
  if (changes < rounds) t.fail("onChange during the churn", `${changes} reports for ${rounds} sessions`);
  acp.free();
}
