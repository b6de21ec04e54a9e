import * as adk from "@google/adk";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as toolsmith from "../../src/index.js";

/**
 * `listSessions` with ADK's paging (`limit`, `offset`, `page`, `order`), on `@google/adk` 2.0's in-memory store and
 * on toolsmith's, over the same sessions: the same sessions in the same order (for one user or every user), and the same `page`, `limit`,
 * `totalItems` and `totalPages`, for any request ADK's documentation allows.
 */
describe("listSessions with ADK's paging, side by side with @google/adk 2.0", () => {
  it("gives the same page and figures as ADK's in-memory store for 500 random requests", async () => {
    const adkStore = new adk.InMemorySessionService();
    const ourStore = new toolsmith.InMemorySessionService();
    const userIds = ["ana", "ben"];
    // Sessions made one user at a time, each updated later than the one before: ADK lists without an order in the
    // order the user's sessions were made, which is then the order of their update times.
    for (const userId of userIds) {
      for (let index = 0; index < 7; index++) {
        const sessionId = `${userId}-${index}`;
        await adkStore.createSession({ appName: "app", userId, sessionId });
        await ourStore.createSession({ appName: "app", userId, sessionId });
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    }
    const request = fc.record(
      {
        userId: fc.constantFrom(...userIds),
        limit: fc.integer({ min: 0, max: 9 }),
        offset: fc.integer({ min: 0, max: 10 }),
        page: fc.integer({ min: 1, max: 5 }),
        order: fc.constantFrom("asc" as const, "desc" as const),
      },
      { requiredKeys: [] },
    ).filter((options) => !(options.page !== undefined && (options.limit === undefined || options.offset !== undefined)));
    const shape = ({ sessions, page, limit, totalItems, totalPages }: { sessions: Array<{ id: string }>; page?: number; limit?: number; totalItems?: number; totalPages?: number }) => ({
      ids: sessions.map((session) => session.id),
      page,
      limit,
      totalItems,
      totalPages,
    });
    let compared = 0;
    let nonEmpty = 0;
    await fc.assert(
      fc.asyncProperty(request, async (options) => {
        const adkPage = shape(await adkStore.listSessions({ appName: "app", ...options }));
        const ourPage = shape(await ourStore.listSessions({ appName: "app", ...options }));
        compared++;
        if (adkPage.ids.length > 0) nonEmpty++;
        expect(ourPage).toEqual(adkPage);
      }),
      { numRuns: 500 },
    );
    console.log(`listSessions side by side: ${compared} requests compared, ${nonEmpty} with sessions on the page`);
    expect(nonEmpty).toBeGreaterThan(100);
  });
});
