// One helper the wasm shell cannot express in Rust: a plain `function` that
// receives any number of arguments and forwards (this, args) to `target`.
// Used to install the desktop hook's wrappers on a private prototype layer.
export function restForward(target) {
  return function (...args) {
    return target(this, args);
  };
}
