// The public API of `renderer-steering/desktop`, shipped as
// pkg/entries/desktop/api/exports.js (its entry adds `init`): a wasm with
// the desktop hook and the codexhost engine it decides with.
export { version } from "../driver/module.js";
export { DesktopSteering, installDesktopSteering } from "../desktop/hook.js";
export { SteeringError, isSteeringError } from "../driver/steering-error.js";
