// The real-agents layer: Codex app-server, the codexhost host (Codex and
// Claude Code as its children), and ACP agents from npm (pinned;
// scripts/agents-install.sh): claude-agent-acp and codex-acp without
// steering, and the versions of both that ship `_session/steering`, on ACP
// v1 and v2. Each runs behind a mock model on 127.0.0.1, driven through the
// packed package's own classes over stdio. Prints one table: agent,
// scenario, path, round trips, outcome, ms, and how many times the model saw
// the message.
import { after } from "node:test";
import { installed, cache, removeHomes } from "./agents.mjs";
import { printTable } from "./harness.mjs";

if (!installed()) throw new Error(`agents missing in ${cache}: run bash scripts/agents-install.sh`);
after(() => {
  printTable();
  removeHomes();
});
await import("./codex.scenarios.mjs");
await import("./codexhost.scenarios.mjs");
await import("./claude.scenarios.mjs");
await import("./codexacp.scenarios.mjs");
await import("./codexacp-steering.scenarios.mjs");
await import("./codexacp-v2.scenarios.mjs");
await import("./claude-steering.scenarios.mjs");
await import("./claude-v2.scenarios.mjs");
