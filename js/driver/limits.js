// The front door's read limits, as the engine states them (bridge::Limits).
// Written by scripts/write-limits.mjs from the built wasm; checked against
// each entry's wasm by tests/node/limits.test.mjs. A constant, so init()
// makes no call into the wasm.
export const LIMITS = Object.freeze({
  "depth": 64,
  "answerUnits": 16777216,
  "relayedUnits": 1048576,
  "argumentUnits": 1048576,
  "idUnits": 4096,
  "draftUnits": 262144,
  "shownUnits": 64,
  "timeoutKeys": 4,
  "timeoutNames": [
    "decideMs",
    "steerMs",
    "requestMs"
  ],
  "journalMethods": [
    "getItem",
    "setItem",
    "removeItem",
    "key"
  ],
  "journalRecordUnits": 344064,
  "journalKeys": 1024,
  "followUps": 4096,
  "routedMethods": [
    "turn/start",
    "turn/steer"
  ],
  "errorKinds": [
    "invalidInput",
    "draftTooLarge",
    "host",
    "malformedAnswer",
    "timeout",
    "transport",
    "ownershipUnknown",
    "busy",
    "pendingTurnStart",
    "disposed",
    "outcomeUnknown",
    "imagesUnsupported",
    "unavailable",
    "sessionReplaced",
    "follower",
    "missingBinding"
  ]
});
