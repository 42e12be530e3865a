import { CodexhostSteering } from "renderer-steering";

const steering = new CodexhostSteering({ request: (method, params) => rpc.request(method, params), journal: localStorage });

// After a restart (an update, a crash, a reload): what became of each message that was out.
for (const { clientUserMessageId, draft, outcome } of await steering.recover()) {
  if (outcome === "notDelivered") composer.restore(draft); // the host never got it: the user's words are back
  else if (outcome === "unknown") ui.offerRetry(clientUserMessageId); // its turn still runs: ask again later
}
