import { loadOptionalPeer } from "../platform/load-optional-peer.js";

/**
 * Imports an adapter module, turning a missing vendor SDK into an error that
 * says which package to install.
 */
export function loadAdapter<T>(options: { load: () => Promise<T>; packageName: string; modelName: string }): Promise<T> {
  return loadOptionalPeer({ load: options.load, packageName: options.packageName, neededFor: `Model "${options.modelName}"`, code: "MISSING_MODEL_PACKAGE" });
}
