// An engine's output carried out, the same for every engine: its deadline
// noted, its steps carried out in order by the runner's `carry`, nested
// when a step's hook steps the engine again.
import { own } from "./fields.js";

/**
 * Notes `out`'s deadline on `runner`, runs `before(out)`, then carries out
 * its steps with `runner.carry`. True when this was the outermost step:
 * the runner arms its one timer then, for the latest deadline.
 */
export function carrySteps(runner, out, before) {
  runner.deadline = own(out, "timer") ?? null;
  before?.(out);
  const steps = own(out, "steps") ?? [];
  runner.depth++;
  try {
    for (let i = 0; i < steps.length; i++) runner.carry(steps[i]);
  } finally {
    runner.depth--;
  }
  return runner.depth === 0;
}
