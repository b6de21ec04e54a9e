import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/**
 * docs/adk-compat.md lists every name `@google/adk` exports with its status in
 * toolsmith. This test keeps that table true: against ADK's real export list,
 * and against what toolsmith's entry points really export.
 */

interface NameRow {
  name: string;
  status: "supported" | "differently" | "not supported";
  entryPoints: string[];
  note: string;
}

const document = readFileSync(new URL("../../docs/adk-compat.md", import.meta.url), "utf8");

function namesTable(markdown: string): NameRow[] {
  const section = markdown.split(/^## Every name `@google\/adk` 2\.0 exports$/m)[1];
  if (section === undefined) throw new Error("docs/adk-compat.md has no section 'Every name `@google/adk` 2.0 exports'");
  const rows: NameRow[] = [];
  for (const line of section.split("\n")) {
    const cells = /^\| `([^`]+)` \| (supported|differently|not supported) \| ([^|]*) \| (.*) \|$/.exec(line);
    if (!cells) continue;
    const entryPoints = [...cells[3]!.matchAll(/`(toolsmith[^`]*)`/g)].map((match) => match[1]!);
    rows.push({ name: cells[1]!, status: cells[2] as NameRow["status"], entryPoints, note: cells[4]!.trim() });
  }
  return rows;
}

/** Each public entry point by the name users import, to its source (as vitest.config.ts resolves them). */
async function toolsmithExports(entryPoint: string): Promise<Record<string, unknown>> {
  return (await import(/* @vite-ignore */ entryPoint)) as Record<string, unknown>;
}

const rows = namesTable(document);
const rowsByName = new Map(rows.map((row) => [row.name, row]));

describe("docs/adk-compat.md's list of ADK's exported names", () => {
  it("lists every name @google/adk 2.0 exports, once, and no name ADK does not export", async () => {
    const adk = await import("@google/adk");
    const adkNames = Object.keys(adk).sort();
    const listed = rows.map((row) => row.name);
    const missing = adkNames.filter((name) => !rowsByName.has(name));
    const notInAdk = listed.filter((name) => !adkNames.includes(name));
    const duplicated = listed.filter((name, index) => listed.indexOf(name) !== index);
    console.log(`ADK exports ${adkNames.length} names; the table lists ${rows.length}: ${["supported", "differently", "not supported"].map((status) => `${rows.filter((row) => row.status === status).length} ${status}`).join(", ")}`);
    expect({ missing, notInAdk, duplicated }).toEqual({ missing: [], notInAdk: [], duplicated: [] });
    expect(adkNames.length).toBe(257);
  });

  it("marks a name supported only when the entry point shown exports it", async () => {
    const absent: string[] = [];
    for (const row of rows.filter((candidate) => candidate.status === "supported")) {
      expect(row.entryPoints, `${row.name} is supported but names no entry point`).not.toEqual([]);
      for (const entryPoint of row.entryPoints) {
        const exports = await toolsmithExports(entryPoint);
        if (!(row.name in exports)) absent.push(`${row.name} (from ${entryPoint})`);
      }
    }
    expect(absent).toEqual([]);
  });

  it("gives a reason and an alternative for every name not supported or supported differently", () => {
    const unexplained = rows.filter((row) => row.status !== "supported" && row.note.length < 10).map((row) => row.name);
    expect(unexplained).toEqual([]);
  });

  it("does not call a name unsupported when toolsmith's root exports it", async () => {
    const root = await toolsmithExports("toolsmith");
    const contradicted = rows.filter((row) => row.status === "not supported" && row.name in root).map((row) => row.name);
    expect(contradicted).toEqual([]);
  });
  it("is counted right where the README and this page give the counts", () => {
    const count = (status: NameRow["status"]) => rows.filter((row) => row.status === status).length;
    const stated = `${rows.length} names \`@google/adk\` 2.0 exports with their status (${count("supported")} supported, ${count("differently")} supported differently, ${count("not supported")} not supported`;
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8").replace(/\s+/g, " ");
    // The README's sentence, or what it should say.
    expect(readme.includes(stated) ? stated : `README.md lacks: ${stated}`).toBe(stated);
  });
});
