// Types of `renderer-steering/codexhost` (pkg/entries/codexhost/index.d.ts): the shared
// types, and the values this entry exports.
export type * from "../../index.js";
export { init, version, SteeringError, isSteeringError, CodexhostSteering } from "../../index.js";
