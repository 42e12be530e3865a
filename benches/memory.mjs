// Memory: 100,000 steers across 10,000 threads (codexhost), 100,000 sends
// across 10,000 sessions (ACP) and 200,000 ACP sessions opened and closed
// on fresh ids leave wasm memory bounded and no per-thread or per-session
// state behind.
export async function memoryRun(api, wasm) {
  const pages = () => wasm.memory.buffer.byteLength / 65536;
  const rows = [];
  {
    const request = (m, p) => Promise.resolve(
      m === "turn/steer" ? { turnId: "turn-1" } : { delivery: Number(p.threadId.slice(1)) % 2 ? "activeTurn" : "official" });
    const steering = new api.CodexhostSteering({ request });
    const before = pages();
    for (let i = 0; i < 100_000; i++) {
      await steering.steer({ threadId: `t${i % 10_000}`, expectedTurnId: "turn-1", input: [{ type: "text", text: `step ${i}` }], clientUserMessageId: `m${i}` });
    }
    rows.push({ what: "codexhost: 100,000 steers / 10,000 threads", before, after: pages(), live: steering.liveState() });
    steering.free();
  }
  {
    const request = () => Promise.resolve({ outcome: "injected" });
    const acp = new api.AcpSteering({ request, initialize: { _meta: { steering: { supported: true } } } });
    await new Promise((r) => setTimeout(r, 0));
    const before = pages();
    for (let s = 0; s < 10_000; s++) {
      const session = `s${s}`;
      const token = acp.promptSent(session);
      // A _session/steering steer resolves once its turn ends (its evidence of
      // landing), so the turn's ten sends are answered first, then it ends.
      const sends = [];
      for (let i = 0; i < 10; i++) sends.push(acp.send(session, [{ type: "text", text: `step ${i}` }]));
      await new Promise((r) => setImmediate(r));
      acp.promptAnswered(session, { stopReason: "end_turn" }, token);
      await Promise.all(sends);
    }
    rows.push({ what: "ACP: 100,000 sends / 10,000 sessions", before, after: pages(), live: acp.liveState() });
    acp.free();
  }
  {
    const acp = new api.AcpSteering({ request: () => new Promise(() => {}), initialize: { _meta: { steering: { supported: true } } } });
    const before = pages();
    const at = [];
    for (let i = 0; i < 200_000; i++) {
      const session = `c${i}`;
      acp.promptSent(session);
      acp.inputMode(session);
      acp.sessionClosed(session);
      if ((i + 1) % 50_000 === 0) at.push(pages());
    }
    rows.push({ what: `ACP: 200,000 sessions opened and closed (pages at each 50,000: ${at.join(", ")})`, before, after: pages(), live: acp.liveState() });
    acp.free();
  }
  return rows;
}
