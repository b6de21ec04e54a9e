import { api, type Part } from "./api.js";
import { h } from "./dom.js";

/** An artifact as people read it: images as images, text as text, other bytes by type and size. */
export function artifactContent(name: string, part: Part): HTMLElement {
  if (part.inlineData?.mimeType.startsWith("image/")) return h("img", { src: `data:${part.inlineData.mimeType};base64,${part.inlineData.data}`, alt: name, "data-testid": "artifact-image" });
  if (part.inlineData) return h("div", { class: "hint" }, `${part.inlineData.mimeType}, ${Math.round((part.inlineData.data.length * 3) / 4)} bytes`);
  return h("pre", { class: "artifact-text" }, part.text ?? "");
}

/** The session's artifacts, each with its latest version shown. */
export async function artifactsView(appName: string, userId: string, sessionId: string): Promise<HTMLElement> {
  const names = await api.listArtifacts(appName, userId, sessionId);
  const items = await Promise.all(
    names.map(async (name) => h("div", { class: "artifact", "data-testid": "artifact" }, h("div", { class: "name" }, name), artifactContent(name, await api.loadArtifact(appName, userId, sessionId, name)))),
  );
  return h("div", {}, items.length ? items : h("div", { class: "hint" }, "No artifacts yet."));
}
