import { init, installDesktopSteering } from "renderer-steering";

await init();

// The desktop's own request manager for one host connection.
const hook = installDesktopSteering(desktop.requestManager); // null if it lacks steerTurn / sendRequest

// From now on requestManager.steerTurn(...) asks the host's inspect first:
// official and activeTurn go through the desktop's own steerTurn, newTurn through
// its startTurn, whose turn/start leaves as a turn/steer tagged "newTurn".

desktop.onDisconnect(() => hook?.dispose()); // puts the manager back exactly as it was
