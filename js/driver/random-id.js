// Fresh ids for the messages the engines send (`clientUserMessageId`).

/** `crypto.randomUUID()`, else 128 random bits as hex; "" if the page broke both (the engine then makes its own). Never throws. */
export function randomId() {
  try {
    if (typeof crypto?.randomUUID === "function") return crypto.randomUUID();
  } catch {
    // A page without (or with a broken) Web Crypto: Math.random below.
  }
  try {
    let hex = "";
    for (let i = 0; i < 4; i++) hex += Math.floor(Math.random() * 2 ** 32).toString(16).padStart(8, "0");
    return hex;
  } catch {
    return "";
  }
}
