// The `reentry` class: every callback (streamRole, present, retract,
// reconcile, the transport, onChange) re-enters the same instance with
// liveState, steer, decide, send, inputMode or dispose.
import * as V from "./values.mjs";
import { BOUND, TIMEOUTS, cap, launch, settleAll, sync } from "./contract.mjs";
import { GOOD_INIT, TEXT, acpSteers, codexhostSteers, freeAll, goodAcp, goodCodexhost, turnsEnd } from "./good-hosts.mjs";
import { tick } from "./timer-watch.mjs";

/** Runs the class on `h` (see `runClass`). */
export async function runReentry(h, t, scale, progress) {
  const { api } = h;
  const actions = ["liveState", "steer", "decide", "dispose"];
  const callbacks = ["streamRole", "present", "retract", "reconcile", "request"];
  const cur = { cb: null, action: null, armed: false, inst: null, nested: [] };
  const act = (where) => {
    if (!cur.armed) return;
    cur.armed = false;
    const s = cur.inst;
    const w = `${where} calls ${cur.action}()`;
    if (cur.action === "liveState") sync(t, w, () => s.liveState());
    if (cur.action === "dispose") sync(t, w, () => s.dispose());
    if (cur.action === "steer") {
      const input = TEXT();
      cur.nested.push(launch(t, w, () => s.steer({ threadId: "nested", expectedTurnId: "turn-1", input }), { draft: input, cap: cap(BOUND.steer) }));
    }
    if (cur.action === "decide") cur.nested.push(launch(t, w, () => s.decide({ threadId: "nested", text: "n" }), { cap: cap(BOUND.decide) }));
  };
  const host = (m, p) => {
    if (cur.cb === "request") act("transport request");
    if (m === "turn/steer" && cur.cb === "retract" && V.safeGet(p, "threadId") !== "nested") return Promise.reject({ code: -32000, message: "refused" });
    if (m === "turn/steer" && cur.cb === "reconcile" && V.safeGet(p, "threadId") !== "nested") return Promise.resolve({ turnId: "turn-1", delivery: "newTurn" });
    return goodCodexhost(m, p);
  };
  const options = () => ({
    request: host,
    timeouts: { ...TIMEOUTS },
    streamRole: () => { if (cur.cb === "streamRole") act("streamRole"); return "owner"; },
  });
  const hooks = {
    present: () => { if (cur.cb === "present") act("present"); },
    retract: () => { if (cur.cb === "retract") act("retract"); },
    reconcile: () => { if (cur.cb === "reconcile") act("reconcile"); },
  };
  const shared = new api.CodexhostSteering(options());
  // ACP: onChange and the transport call back into the same instance.
  const acur = { cb: null, action: null, armed: false, inst: null, nested: [] };
  const aact = (where, sid) => {
    if (!acur.armed) return;
    acur.armed = false;
    const s = acur.inst;
    const w = `${where} calls ${acur.action}()`;
    if (acur.action === "liveState") sync(t, w, () => s.liveState());
    if (acur.action === "inputMode") sync(t, w, () => s.inputMode(sid));
    if (acur.action === "dispose") sync(t, w, () => s.dispose());
    if (acur.action === "send") {
      const input = TEXT();
      acur.nested.push(launch(t, w, () => s.send(sid, input), { draft: input, cap: cap(BOUND.acp * 2) }));
    }
  };
  const acpHost = (m, p) => { if (acur.cb === "request") aact("ACP transport request", V.safeGet(p, "sessionId")); return goodAcp(m, p); };
  const acpMade = (turns = turnsEnd(acpHost)) => turns.bind(new api.AcpSteering({ request: turns.request, initialize: GOOD_INIT, timeouts: { ...TIMEOUTS } }));
  const acpShared = acpMade();
  await tick();
  let k = 0;
  const rounds = Math.max(1, Math.round(100 * scale));
  for (let round = 0; round < rounds; round++) {
    await h.warmup(round, rounds);
    for (const cb of callbacks) {
      for (const action of actions) {
        const inst = action === "dispose" ? new api.CodexhostSteering(options()) : shared;
        Object.assign(cur, { cb, action, armed: true, inst, nested: [] });
        const input = TEXT();
        const outer = launch(t, `steer, ${cb} re-enters with ${action}()`, () => inst.steer({ threadId: `outer-${k++ % 8}`, expectedTurnId: "turn-1", input }, hooks), { draft: input, cap: cap(BOUND.steer) });
        await settleAll(t, [outer]);
        await settleAll(t, cur.nested);
        cur.cb = null;
        if (inst !== shared) freeAll([inst]);
      }
    }
    for (const cb of ["onChange", "request"]) {
      for (const action of ["liveState", "send", "inputMode", "dispose"]) {
        const inst = action === "dispose" ? acpMade() : acpShared;
        if (inst !== acpShared) await tick();
        const sid = `r-${k++}`;
        Object.assign(acur, { cb, action, armed: true, inst, nested: [] });
        const onChange = (id) => { if (acur.cb === "onChange") aact("onChange", id); };
        sync(t, "onChange(callback)", () => inst.onChange(onChange));
        sync(t, `promptSent, ${cb} re-enters with ${action}()`, () => inst.promptSent(sid));
        const input = TEXT();
        const outer = launch(t, `AcpSteering.send, ${cb} re-enters with ${action}()`, () => inst.send(sid, input), { draft: input, cap: cap(BOUND.acp * 2) });
        await settleAll(t, [outer]);
        await settleAll(t, acur.nested);
        acur.cb = null;
        sync(t, "sessionClosed after re-entry", () => inst.sessionClosed(sid));
        sync(t, "onChange(null)", () => inst.onChange(null));
        if (inst !== acpShared) freeAll([inst]);
      }
    }
    if (h.checkPoison(t, round)) break;
    progress(round);
  }
  cur.cb = null;
  acur.cb = null;
  const sw = { impl: null };
  const err = await codexhostSteers({ steer: (a, hk) => shared.steer(a, hk), decide: (a) => shared.decide(a) }, sw);
  if (err) t.fail("afterwards, the same re-entered codexhost instance", err);
  const aerr = await acpSteers(acpShared, { impl: null });
  if (aerr) t.fail("afterwards, the same re-entered ACP instance", aerr);
  freeAll([shared, acpShared]);
}
