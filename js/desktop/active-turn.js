// The official and activeTurn paths of the desktop hook: the desktop's own
// `steerTurn` runs, and the core recognises the one request it sends for
// this steer (tagged `codexhostSteerDelivery: "activeTurn"` on the
// activeTurn path, untouched on the official one; `desktop.js`). Here the
// call and its bounded wait; the core classifies how it ended.
import { attempt } from "./safety.js";
import { waitedError } from "./core.js";
import { verdict } from "./driver.js";

/**
 * Runs the desktop's own steer for an official or activeTurn decision
 * (`tag`: "activeTurn", or undefined for official), bounded by the steer
 * bound. What the steer ends with is the core's verdict: the desktop's
 * result, its failure unchanged, or `outcomeUnknown` once its request left.
 */
export async function ownSteer(hook, steer, self, args, tag) {
  const { core, driver } = hook;
  // Recognised from now on, until the desktop's own steerTurn settles (not
  // only while we wait: a request it sends after our bound is still this steer's).
  core.call("ownCalled", { steer, tag });
  const called = attempt(hook.originalSteer, self, args);
  const forget = () => {
    core.call("ownSettled", { steer });
    driver.drain(); // a disposed hook's layer goes once no late turn/steer can come
  };
  if ("threw" in called) forget();
  else {
    called.value = new Promise((settle) => settle(called.value));
    called.value.then(forget, forget);
  }
  const waited = await driver.wait(called);
  const ended = core.call("ownEnded", { steer, how: waited.kind, error: waitedError(waited) }, args[1]);
  driver.drain();
  return verdict(ended, waited);
}
