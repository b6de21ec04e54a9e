import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildContents, isVisible, type HistoryScope } from "../../src/llm-agent/build-contents.js";
import { currentTurn } from "../../src/llm-agent/build-llm-request.js";
import { say } from "./fixtures.js";

/**
 * Isolation scopes as a confinement: over random histories of authors, branches and scopes, an agent's model never
 * gets a word of an event marked with another scope, whether the contents are built whole, taken up from an earlier
 * call (the invocation's memo), or cut to the current turn; and it gets every event the rules let it see.
 */

const scopes = [undefined, "s1", "s2", "wf.a@1", "wf.a@2"] as const;
const branches = [undefined, "root", "root.a", "root.b", "root.a.inner"] as const;
const authors = ["user", "me", "other"] as const;

const history = fc.array(fc.record({ author: fc.constantFrom(...authors), branch: fc.constantFrom(...branches), scope: fc.constantFrom(...scopes) }), { maxLength: 40 });
const viewpoint = fc.record({ branch: fc.constantFrom(...branches), isolationScope: fc.constantFrom(...scopes) });

function build(entries: Array<{ author: string; branch?: string; scope?: string }>) {
  return entries.map((entry, index) => ({ ...say(entry.author, `marker-${index}`, { branch: entry.branch }), ...(entry.scope ? { isolationScope: entry.scope } : {}) }));
}

/** The markers a list of contents holds, in order. */
const markers = (contents: ReturnType<typeof buildContents>) => contents.flatMap((content) => (content.parts ?? []).flatMap((part) => part.text?.match(/marker-\d+/g) ?? []));

describe("isolation scopes, fuzzed", () => {
  it("never show an agent an event of another scope, and show it every event its scope and branch let it see", () => {
    let checked = 0;
    let hidden = 0;
    fc.assert(
      fc.property(history, viewpoint, (entries, scope: HistoryScope) => {
        const events = build(entries);
        const seen = new Set(markers(buildContents(events, "me", scope)));
        events.forEach((event, index) => {
          const foreign = event.isolationScope !== undefined && event.isolationScope !== scope.isolationScope;
          if (foreign) {
            hidden++;
            expect(seen.has(`marker-${index}`)).toBe(false);
          }
          expect(seen.has(`marker-${index}`)).toBe(isVisible(event, scope));
          checked++;
        });
        // Cut to the current turn (includeContents "none"): still nothing of another scope.
        for (const marker of markers(buildContents(currentTurn(events, "me", scope), "me", scope))) {
          const shown = events[Number(marker.slice("marker-".length))]!;
          expect(shown.isolationScope === undefined || shown.isolationScope === scope.isolationScope).toBe(true);
        }
      }),
      { numRuns: 2_000 },
    );
    console.log(`isolation scopes: ${checked} events checked over 2,000 histories, ${hidden} of another scope, none shown`);
    expect(hidden).toBeGreaterThan(1_000);
  });

  it("give the same contents when taken up from an earlier call under one scope and then asked for under another", () => {
    fc.assert(
      fc.property(history, history, viewpoint, viewpoint, (first, more, scopeA: HistoryScope, scopeB: HistoryScope) => {
        const events = build(first);
        const memo = {};
        buildContents(events, "me", scopeA, memo);
        events.push(...build(more).map((event, index) => ({ ...event, content: { role: event.content!.role, parts: [{ text: `marker-${first.length + index}` }] } })));
        expect(buildContents(events, "me", scopeB, memo)).toEqual(buildContents(events.slice(), "me", scopeB));
        expect(buildContents(events, "me", scopeA, memo)).toEqual(buildContents(events.slice(), "me", scopeA));
      }),
      { numRuns: 1_000 },
    );
  });
});
