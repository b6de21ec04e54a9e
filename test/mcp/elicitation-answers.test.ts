import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { answersElicitation, elicitationRequest, elicitResultOf, ELICITATION_HINT_PREFIX } from "../../src/mcp/elicitation-pause.js";
import { PEOPLE_FORM } from "./fixtures/book-table-tool.js";

const params = { message: "For how many people?", requestedSchema: PEOPLE_FORM as never };
const fits = new AjvJsonSchemaValidator().getValidator(PEOPLE_FORM as never);

describe("a person's answer to a server's question, as a hostile client may send it", () => {
  it("never reaches the server as accept unless its content fits the server's form", () => {
    const outcomes = { accepted: 0, askedAgain: 0, declined: 0, cancelled: 0 };
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.oneof(
          fc.anything(),
          fc.record({ content: fc.anything() }),
          fc.record({ content: fc.record({ people: fc.oneof(fc.integer(), fc.double(), fc.string(), fc.constant(null)), terrace: fc.anything() }, { requiredKeys: [] }) }),
          fc.record({ action: fc.constantFrom("cancel", "accept", "decline", "__proto__") }),
          fc.record({ people: fc.integer({ min: -3, max: 30 }) }),
        ),
        (confirmed, payload) => {
          const answer = elicitResultOf({ confirmed, payload }, params);
          if ("problem" in answer) {
            expect(answer.problem).toMatch(/^the answer (must be an object of the form's fields|does not fit the form: .+)$/);
            outcomes.askedAgain++;
          } else if (answer.result.action === "accept") {
            expect(fits(answer.result.content).valid).toBe(true);
            outcomes.accepted++;
          } else if (answer.result.action === "decline") {
            expect(confirmed).toBe(false);
            outcomes.declined++;
          } else outcomes.cancelled++;
        },
      ),
      { numRuns: 3000 },
    );
    console.log(`hostile elicitation answers: ${JSON.stringify(outcomes)}; every accept fit the form`);
    expect(outcomes.accepted).toBeGreaterThan(0);
    expect(outcomes.askedAgain).toBeGreaterThan(0);
  });

  it("is recognised by the stored hint even when the client sends back a payload of its own", () => {
    const { hint, payload } = elicitationRequest(params);
    expect(hint).toBe(`${ELICITATION_HINT_PREFIX}For how many people?`);
    expect(payload.content).toEqual({ terrace: false });
    expect(answersElicitation({ hint, confirmed: true, payload: { people: 3 } })).toBe(true);
    expect(elicitResultOf({ hint, confirmed: true, payload: { people: 3 } }, params)).toEqual({ result: { action: "accept", content: { people: 3 } } });
    // A tool's own confirmation (requireConfirmation) is not an answer to a server.
    expect(answersElicitation({ hint: 'Please approve or reject the call to "pay".', confirmed: true })).toBe(false);
  });
});
