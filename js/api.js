// The glue's exports behind the facade (one instance shared by exports.js and the entry's `init`).
import * as glue from "./renderer_steering.js";
import { createFacade } from "./facade.js";

export const api = createFacade(glue);
