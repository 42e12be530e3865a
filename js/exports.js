// The public API every entry re-exports (each entry adds its own `init`).
import { api } from "./api.js";

export const { CodexhostSteering, AcpSteering, version } = api;
export { DesktopSteering, installDesktopSteering } from "./desktop.js";
export { SteeringError, isSteeringError } from "./steering-error.js";
