import { readFileSync } from "node:fs";

/** toolsmith's version, from its package.json (one folder above both `src/` and `dist/`). */
export const TOOLSMITH_VERSION: string = (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version;
