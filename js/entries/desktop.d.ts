// Types of `renderer-steering/desktop` (pkg/entries/desktop/index.d.ts): the shared
// types, and the values this entry exports.
export type * from "../../index.js";
export { init, version, SteeringError, isSteeringError, DesktopSteering, installDesktopSteering } from "../../index.js";
