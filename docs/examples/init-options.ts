import { init } from "renderer-steering";

// No argument: the package's own copy of the module (embedded in the browser entry, read from disk in Node).
await init();

// Or hand it the module yourself: its bytes, a Response, or a URL (in Node a file: URL or a path).
export async function initFrom(bytes: ArrayBuffer): Promise<void> {
  await init(bytes); // concurrent calls share one load; after a failure, call it again
}
