// The playground: one page, every dialect, against the reference host or a
// real agent (scripts/agents-bridge.mjs).
import { init, version } from "renderer-steering";
import { AcpController } from "./acp.js";
import { CodexController } from "./codexhost.js";
import { $, query, transcript, socketUrl, showMode, toast, events } from "./page.js";

const app = {
  controller: null,
  async connect() {
    this.controller?.close();
    transcript.clear();
    $("wire").replaceChildren();
    $("chips").replaceChildren();
    toast("");
    const mode = $("mode").value;
    $("thread-picker").hidden = mode.startsWith("acp");
    const controller = mode.startsWith("acp") ? new AcpController(mode) : new CodexController(mode, $("thread").value);
    this.controller = controller;
    try {
      await controller.connect(socketUrl(mode, $("fault").value), $("fault").value);
      $("status").textContent = "connected";
      $("status").className = "status on";
      $("send").disabled = $("start").disabled = false;
      document.body.dataset.connected = "yes";
    } catch (error) {
      toast(`cannot connect: ${error.message}`);
    }
  },
  disconnected() {
    $("status").textContent = "disconnected";
    $("status").className = "status off";
    document.body.dataset.connected = "no";
    showMode("unavailable", "Disconnected; your message stays here");
    this.controller?.steering?.connectionClosed?.();
  },
};

events.disconnected = () => app.disconnected();
await init();
$("version").textContent = `v${version()}`;
$("connect").addEventListener("click", () => app.connect());
$("clear-wire").addEventListener("click", () => $("wire").replaceChildren());
$("start").addEventListener("click", () => {
  app.controller?.startTurn("Set up the project and run the tests").catch((e) => toast(e.message ?? String(e)));
});
$("composer").addEventListener("submit", async (event) => {
  event.preventDefault();
  const text = $("draft").value;
  if (!text.trim() || !app.controller) return;
  $("draft").value = "";
  toast("");
  await app.controller.send(text);
});
$("draft").addEventListener("keydown", (event) => {
  if (event.key === "Enter" && !event.shiftKey) {
    event.preventDefault();
    $("composer").requestSubmit();
  }
});
for (const key of ["mode", "thread", "fault"]) {
  const value = query.get(key);
  if (value !== null) $(key).value = value;
}
$("thread-picker").hidden = $("mode").value.startsWith("acp");
document.body.dataset.ready = "yes";
if (query.get("autoconnect") === "1") app.connect();
