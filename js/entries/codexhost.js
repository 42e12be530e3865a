// The public API of `renderer-steering/codexhost`, shipped as
// pkg/entries/codexhost/api/exports.js (its entry adds `init`): a wasm with
// the codexhost dialect only.
export { CodexhostSteering } from "./codexhost.js";
export { version } from "../driver/module.js";
export { SteeringError, isSteeringError } from "../driver/steering-error.js";
