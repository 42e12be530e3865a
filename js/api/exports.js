// The public API every entry re-exports (each entry adds its own `init`).
export { CodexhostSteering } from "./codexhost.js";
export { AcpSteering } from "./acp.js";
export { version } from "../driver/module.js";
export { DesktopSteering, installDesktopSteering } from "../desktop/hook.js";
export { SteeringError, isSteeringError } from "../driver/steering-error.js";
