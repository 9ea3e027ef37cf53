// Loads the web bundle's wasm in Node the way the page does: the page module first, then the
// simulator's chunk (split off by scripts/build-web.sh), which `__wasm_split.js` fetches by a
// file: URL here. Node's fetch refuses file: URLs, so those are read from disk instead.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const networkFetch = globalThis.fetch;
globalThis.fetch = async (resource, options) => {
  const url = new URL(resource instanceof Request ? resource.url : String(resource));
  if (url.protocol !== "file:") {
    return networkFetch(resource, options);
  }
  const bytes = fs.readFileSync(fileURLToPath(url));
  return new Response(bytes, { headers: { "content-type": "application/wasm" } });
};

// Returns the wasm-bindgen module from `pkg` (a wasm-bindgen output directory), initialised
// and with the simulator loaded, ready for `sim_run` and `EngineBench`.
export async function loadBundle(pkg) {
  const glue = await import(pathToFileURL(path.join(pkg, "kubelab_web.js")).href);
  // wasm-bindgen --target web: initSync takes { module } (bytes or a WebAssembly.Module).
  glue.initSync({ module: fs.readFileSync(path.join(pkg, "kubelab_web_bg.wasm")) });
  await glue.load_engine();
  return glue;
}
