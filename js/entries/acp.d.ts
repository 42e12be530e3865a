// Types of `renderer-steering/acp` (pkg/entries/acp/index.d.ts): the shared
// types, and the values this entry exports.
export type * from "../../index.js";
export { init, version, SteeringError, isSteeringError, AcpSteering } from "../../index.js";
