// The read limits the driver ships as a constant (js/driver/limits.js) are
// the engine's own: every entry's wasm states the same ones.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { packAndInstall } from "./pack.mjs";
import { wasmLimits } from "../../scripts/write-limits.mjs";

let root;
before(() => {
  root = packAndInstall().shipped;
});

for (const dir of ["", "entries/codexhost", "entries/acp", "entries/desktop"]) {
  test(`the driver's limits are the ones the wasm states (${dir || "the default entry"})`, async () => {
    const shipped = (await import(pathToFileURL(join(root, dir, "driver", "limits.js")).href)).LIMITS;
    assert.deepEqual(shipped, await wasmLimits(join(root, dir)), "run node scripts/write-limits.mjs");
  });
}
