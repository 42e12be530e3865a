import { init, installDesktopSteering } from "renderer-steering";

await init();

// The desktop's own request manager for one host connection; null if it lacks steerTurn / sendRequest.
const hook = installDesktopSteering(desktop.requestManager); // from here on, steerTurn(...) asks inspect first

desktop.onDisconnect(() => hook?.dispose()); // puts the manager back exactly as it was
