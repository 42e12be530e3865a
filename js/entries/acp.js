// The public API of `renderer-steering/acp`, shipped as
// pkg/entries/acp/api/exports.js (its entry adds `init`): a wasm with the
// ACP dialect only.
export { AcpSteering } from "./acp.js";
export { version } from "../driver/module.js";
export { SteeringError, isSteeringError } from "../driver/steering-error.js";
