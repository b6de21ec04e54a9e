import { loadOptionalPeer } from "../platform/load-optional-peer.js";

/** `@a2a-js/sdk`'s client, loaded when a remote agent first connects. */
export function loadA2AClient(): Promise<typeof import("@a2a-js/sdk/client")> {
  return loadOptionalPeer({ load: () => import("@a2a-js/sdk/client"), packageName: "@a2a-js/sdk", neededFor: "A remote A2A agent (RemoteA2AAgent)" });
}

/** `@a2a-js/sdk`'s server, loaded when an agent is served over A2A. */
export function loadA2AServer(): Promise<typeof import("@a2a-js/sdk/server")> {
  return loadOptionalPeer({ load: () => import("@a2a-js/sdk/server"), packageName: "@a2a-js/sdk", neededFor: "Serving an agent over A2A (toA2a)" });
}

/** Express and `@a2a-js/sdk`'s Express handlers, which {@link toA2a} mounts. */
export async function loadA2AExpress(): Promise<{ express: typeof import("express"); handlers: typeof import("@a2a-js/sdk/server/express") }> {
  const express = await loadOptionalPeer({ load: () => import("express"), packageName: "express", neededFor: "Serving an agent over A2A (toA2a)" });
  const handlers = await loadOptionalPeer({ load: () => import("@a2a-js/sdk/server/express"), packageName: "@a2a-js/sdk", neededFor: "Serving an agent over A2A (toA2a)" });
  return { express: ((express as { default?: unknown }).default ?? express) as typeof import("express"), handlers };
}
