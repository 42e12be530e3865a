import { installDesktopSteering } from "renderer-steering";

const hook = installDesktopSteering(desktop.requestManager, { journal: localStorage });
for (const { draft, outcome } of (await hook?.recover()) ?? []) {
  if (outcome === "notDelivered") composer.restore(draft);
}
