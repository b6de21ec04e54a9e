// Bundles the web UI (ui/*.ts) into web-ui/app.js, which `toolsmith web` serves.
// Run by `npm ci`/`npm install` (prepare), `npm run build` and the browser tests.
import { build } from "esbuild";

await build({
  entryPoints: [new URL("../ui/main.ts", import.meta.url).pathname],
  outfile: new URL("../web-ui/app.js", import.meta.url).pathname,
  bundle: true,
  format: "esm",
  target: "es2020",
  sourcemap: true,
  logLevel: "warning",
});
