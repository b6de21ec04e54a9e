/** buildContents and isVisible on their own: the history a model is shown, per agent and branch. */
import { describe, expect, it } from "vitest";
import type { Content } from "../../src/content/content.js";
import { buildContents, isVisible, type HistoryScope } from "../../src/llm-agent/build-contents.js";
import { pausedResponse } from "../../src/pause/paused-call.js";
import { callEvent, event, responseEvent, say } from "./fixtures.js";

const texts = (contents: Content[]) => contents.map((content) => (content.parts ?? []).map((part) => part.text ?? (part.functionCall ? `call ${part.functionCall.name}` : `response ${part.functionResponse?.name}`)).join(" | "));

describe("isVisible", () => {
  const at = (branch?: string) => event({ author: "a", branch, content: { role: "model", parts: [{ text: "x" }] } });
  const cases: Array<[string | undefined, HistoryScope, boolean]> = [
    [undefined, {}, true],
    [undefined, { branch: "root.a" }, true],
    ["root", { branch: "root.a" }, true],
    ["root.a", { branch: "root.a" }, true],
    ["root.a", { branch: "root.a.inner" }, true],
    ["root.a.inner", { branch: "root.a" }, false],
    ["root.b", { branch: "root.a" }, false],
    ["root.a", { branch: "root.ab" }, false],
    ["root.a", {}, true], // as in ADK: an agent outside any branch (after a parallel step) sees every branch
    ["root.r@c1", {}, false], // except what an agent run as a tool did (ADK runs it in a session of its own)
    ["root.par.a.r@c1", {}, false],
    [undefined, { branch: "p.r@c1", historyRoot: "p.r@c1" }, false],
    ["p", { branch: "p.r@c1", historyRoot: "p.r@c1" }, false],
    ["p.r@c1", { branch: "p.r@c1", historyRoot: "p.r@c1" }, true],
    ["p.r@c10", { branch: "p.r@c1", historyRoot: "p.r@c1" }, false],
  ];
  it.each(cases)("an event in branch %s is seen from %o: %s", (eventBranch, scope, expected) => {
    expect(isVisible(at(eventBranch), scope)).toBe(expected);
  });

  it("hides an event of another isolation scope, and shows unmarked events in every scope, whatever the branch says", () => {
    const scoped = (scope?: string, branch?: string) => ({ ...at(branch), isolationScope: scope });
    expect(isVisible(scoped("wf.a@1"), { isolationScope: "wf.a@1" })).toBe(true);
    expect(isVisible(scoped("wf.a@1"), { isolationScope: "wf.a@2" })).toBe(false);
    expect(isVisible(scoped("wf.a@1"), {})).toBe(false);
    expect(isVisible(scoped(undefined), { isolationScope: "wf.a@1" })).toBe(true);
    // Both rules hold: the scope does not open another branch.
    expect(isVisible(scoped("s", "root.b"), { isolationScope: "s", branch: "root.a" })).toBe(false);
    expect(isVisible(scoped("s", "root"), { isolationScope: "s", branch: "root.a" })).toBe(true);
  });

  it("shows an agent run as a tool the deeper branches of its own agent tools", () => {
    const scope = { branch: "p.r@c1", historyRoot: "p.r@c1" };
    expect(isVisible(at("p.r@c1.r.s@c2"), { branch: "p.r@c1.r.s@c2", historyRoot: "p.r@c1.r.s@c2" })).toBe(true);
    expect(isVisible(at("p.r@c1.r.s@c2"), scope)).toBe(false); // the inner agent's own turns stay in its branch
  });
});

describe("buildContents", () => {
  it("keeps the user's and its own events as they were stored, the same objects, and changes none of them", () => {
    const history = [say("user", "hi"), callEvent("me", [{ id: "c1", name: "look", args: { q: 1 } }]), responseEvent("me", "c1", "look", { ok: true }), say("me", "done")];
    const before = JSON.stringify(history);
    const contents = buildContents(history, "me", {});
    expect(contents).toHaveLength(4);
    contents.forEach((content, index) => expect(content).toBe(history[index]!.content));
    expect(JSON.stringify(history)).toBe(before);
  });

  it("skips events without content or parts", () => {
    const contents = buildContents(
      [event({ author: "user", actions: { stateDelta: { k: 1 } } }), event({ author: "me", content: { role: "model", parts: [] } }), say("user", "still here")],
      "me",
      {},
    );
    expect(texts(contents)).toEqual(["still here"]);
  });

  it("retells all of another agent's parts in one context message, leaving out its thoughts and keeping other parts", () => {
    const image = { inlineData: { mimeType: "image/png", data: "AAAA" } };
    const contents = buildContents(
      [
        event({
          author: "planner",
          content: { role: "model", parts: [{ text: "hidden reasoning", thought: true }, { text: "Here is the chart." }, image, { functionCall: { id: "c1", name: "plot" } }] },
        }),
      ],
      "writer",
      {},
    );
    expect(contents).toEqual([
      {
        role: "user",
        parts: [{ text: "For context:" }, { text: "[planner] said: Here is the chart." }, image, { text: "[planner] called tool `plot` with parameters: {}" }],
      },
    ]);
  });

  it("retells another agent's user-role events as context too, and never as the model's own words", () => {
    const contents = buildContents([responseEvent("helper", "c9", "search", { hits: 2 })], "me", {});
    expect(contents).toEqual([{ role: "user", parts: [{ text: "For context:" }, { text: '[helper] tool `search` returned result: {"hits":2}' }] }]);
  });

  it("removes the calls to the client and the client's answers, keeping the rest of a mixed event", () => {
    const contents = buildContents(
      [
        event({
          author: "me",
          content: {
            role: "model",
            parts: [{ text: "Need approval." }, { functionCall: { id: "ask1", name: "adk_request_confirmation", args: {} } }, { functionCall: { id: "ask2", name: "adk_request_credential", args: {} } }],
          },
        }),
        responseEvent("user", "ask1", "adk_request_confirmation", { confirmed: true }),
      ],
      "me",
      {},
    );
    expect(contents).toEqual([{ role: "model", parts: [{ text: "Need approval." }] }]);
  });

  it("puts a later response in place of the earlier one within an event that answered several calls", () => {
    const history = [
      callEvent("me", [
        { id: "a", name: "first" },
        { id: "b", name: "second" },
      ]),
      event({
        author: "me",
        content: {
          role: "user",
          parts: [{ functionResponse: { id: "a", name: "first", response: { done: 1 } } }, { functionResponse: { id: "b", name: "second", response: pausedResponse("confirmation") } }],
        },
      }),
      responseEvent("me", "b", "second", { done: 2 }),
    ];
    const contents = buildContents(history, "me", {});
    expect(contents).toHaveLength(2);
    expect(contents[1]!.parts!.map((part) => part.functionResponse!.response)).toEqual([{ done: 1 }, { done: 2 }]);
  });

  it("tells every response after the model spoke as an update of its own, in the order they came", () => {
    const history = [
      callEvent("me", [{ id: "job", name: "export" }]),
      responseEvent("me", "job", "export", { status: "pending" }),
      say("me", "Export started."),
      responseEvent("user", "job", "export", { status: "50%" }),
      responseEvent("user", "job", "export", { status: "done" }),
      say("user", "Is it finished?"),
    ];
    expect(texts(buildContents(history, "me", {}))).toEqual([
      "call export",
      "response export",
      "Export started.",
      'Update for the earlier call to export (id job): {"status":"50%"}',
      'Update for the earlier call to export (id job): {"status":"done"}',
      "Is it finished?",
    ]);
  });

  it("puts a response that arrives last right after its call, the latest for each call, as ADK does", () => {
    const history = [
      say("user", "Export my data."),
      callEvent("me", [{ id: "job", name: "export" }]),
      responseEvent("me", "job", "export", { status: "pending" }),
      say("me", "Export started."),
      responseEvent("user", "job", "export", { status: "50%" }),
      responseEvent("user", "job", "export", { status: "done" }),
    ];
    const contents = buildContents(history, "me", {});
    expect(texts(contents)).toEqual(["Export my data.", "call export", "response export"]);
    expect(contents.at(-1)).toEqual({ role: "user", parts: [{ functionResponse: { id: "job", name: "export", response: { status: "done" } } }] });
  });

  it("retells a later response to another agent's call in place, so the model never gets a response to a call it did not make", () => {
    const history = [
      say("user", "Refund order 7."),
      callEvent("shop", [{ id: "r1", name: "refund", args: { order: 7 } }]),
      responseEvent("shop", "r1", "refund", pausedResponse("confirmation")),
      responseEvent("shop", "r1", "refund", { refunded: true }),
    ];
    const contents = buildContents(history, "support", {});
    expect(contents.flatMap((content) => content.parts!).some((part) => part.functionResponse || part.functionCall)).toBe(false);
    expect(contents.at(-1)).toEqual({ role: "user", parts: [{ text: "For context:" }, { text: '[shop] tool `refund` returned result: {"refunded":true}' }] });
  });

  it("retells the replaced response in a context message that left thoughts out", () => {
    const history = [
      callEvent("shop", [{ id: "r1", name: "refund" }]),
      event({
        author: "shop",
        content: { role: "user", parts: [{ text: "noting", thought: true }, { functionResponse: { id: "r1", name: "refund", response: { status: "pending" } } }, { text: "Waiting." }] },
      }),
      responseEvent("user", "r1", "refund", { status: "done" }),
    ];
    // Arriving last, the result follows the call directly, retold as the shop's, and what came between is left out (ADK's rearrangement).
    expect(buildContents(history, "support", {}).at(-1)).toEqual({ role: "user", parts: [{ text: "For context:" }, { text: '[shop] tool `refund` returned result: {"status":"done"}' }] });
    // Once the conversation went on, it takes the pending response's place.
    expect(buildContents([...history, say("user", "And now?")], "support", {}).at(-2)).toEqual({
      role: "user",
      parts: [{ text: "For context:" }, { text: '[shop] tool `refund` returned result: {"status":"done"}' }, { text: "[shop] said: Waiting." }],
    });
  });

  it("shows each branch of a parallel run its own turns and the common history before it, and an agent after it every branch", () => {
    const history = [
      say("user", "Compare two hotels."),
      say("left", "Hotel A: 4 stars.", { branch: "fan.left" }),
      say("right", "Hotel B: 5 stars.", { branch: "fan.right" }),
      say("summary", "B is better.", { branch: "fan" }),
    ];
    expect(texts(buildContents(history, "left", { branch: "fan.left" }))).toEqual(["Compare two hotels.", "Hotel A: 4 stars.", "For context: | [summary] said: B is better."]);
    expect(texts(buildContents(history, "right", { branch: "fan.right" }))).toEqual(["Compare two hotels.", "Hotel B: 5 stars.", "For context: | [summary] said: B is better."]);
    // An agent after the parallel step, outside any branch, hears what every branch said (ADK's rule).
    expect(texts(buildContents(history, "after", {}))).toEqual([
      "Compare two hotels.",
      "For context: | [left] said: Hotel A: 4 stars.",
      "For context: | [right] said: Hotel B: 5 stars.",
      "For context: | [summary] said: B is better.",
    ]);
  });
});

describe("buildContents on a long history", () => {
  /** A history whose reads are counted: every index read of the array goes through the proxy. */
  function countedHistory(size: number) {
    const events = Array.from({ length: size }, (_, index) =>
      index % 4 === 0 ? say("user", `q${index}`) : index % 4 === 1 ? callEvent("me", [{ id: `c${index}`, name: "look", args: {} }]) : index % 4 === 2 ? responseEvent("me", `c${index - 1}`, "look", { n: index }) : say("me", `a${index}`),
    );
    let reads = 0;
    const history = new Proxy(events, {
      get(target, key, receiver) {
        if (typeof key === "string" && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    return { history, reads: () => reads };
  }

  it("reads each event of a 10,000-event history once, whether or not it ends with a late response", () => {
    for (const endsWithLateResponse of [false, true]) {
      const { history, reads } = countedHistory(10_000);
      if (endsWithLateResponse) history.push(responseEvent("me", "c1", "look", { late: true }));
      const contents = buildContents(history, "me", {});
      console.log(`buildContents over ${history.length} events${endsWithLateResponse ? ", ending with a late response" : ""}: ${reads()} event reads, ${contents.length} contents`);
      expect(reads()).toBeLessThanOrEqual(history.length + 10);
      expect(contents.length).toBeGreaterThan(endsWithLateResponse ? 0 : 9_999);
    }
  });

  it("reads only the events added since the last model call of the invocation, and gives what a whole build gives", () => {
    const { history, reads } = countedHistory(10_000);
    const memo = {};
    buildContents(history, "me", {}, memo);
    const afterFirst = reads();
    history.push(callEvent("me", [{ id: "new", name: "look", args: {} }]), responseEvent("me", "new", "look", { n: 1 }));
    const continued = buildContents(history, "me", {}, memo);
    console.log(`second model call over ${history.length} events: ${reads() - afterFirst} event reads`);
    expect(reads() - afterFirst).toBeLessThan(20);
    expect(continued).toEqual(buildContents(history.slice(), "me", {}));
    // Another agent, another branch, another isolation scope or a list cut back is built whole.
    expect(buildContents(history, "other", {}, memo)).toEqual(buildContents(history.slice(), "other", {}));
    history.push({ ...say("me", "in scope s"), isolationScope: "s" });
    expect(buildContents(history, "me", { isolationScope: "s" }, memo)).toEqual(buildContents(history.slice(), "me", { isolationScope: "s" }));
    expect(buildContents(history, "me", {}, memo)).toEqual(buildContents(history.slice(), "me", {}));
    expect(buildContents(history, "me", {}, memo).some((content) => content.parts?.[0]?.text === "in scope s")).toBe(false);
    history.pop();
    history.splice(-2, 2, say("user", "instead"));
    expect(buildContents(history, "me", {}, memo)).toEqual(buildContents(history.slice(), "me", {}));
  });

  it("hands each model call its own list: a change to one request's contents does not reach the next", () => {
    const { history } = countedHistory(8);
    const memo = {};
    const first = buildContents(history, "me", {}, memo);
    first.push({ role: "user", parts: [{ text: "added by a callback" }] });
    expect(buildContents(history, "me", {}, memo)).toHaveLength(first.length - 1);
  });

  it("costs time linear in the history: ten times the events, about ten times the time", () => {
    // The fastest of five rounds: a collection or another process landing in one round says nothing of the growth.
    const timeOf = (size: number) => {
      const history = countedHistory(size).history.slice();
      let fastest = Infinity;
      for (let round = 0; round < 5; round++) {
        const started = performance.now();
        buildContents(history, "me", {});
        fastest = Math.min(fastest, performance.now() - started);
      }
      return fastest;
    };
    timeOf(1_000);
    // Quadratic work would be x100 at every attempt. A machine busy with other work (the whole suite runs in
    // parallel) once stretched the 2,000-event build alone to x40; another attempt, up to five, tells the two apart.
    const ratios: number[] = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      const small = timeOf(2_000);
      const large = timeOf(20_000);
      ratios.push(large / small);
      console.log(`buildContents: 2,000 events ${small.toFixed(2)} ms, 20,000 events ${large.toFixed(2)} ms (x${(large / small).toFixed(1)})`);
      if (large / small < 40) break;
    }
    expect(Math.min(...ratios)).toBeLessThan(40);
  });
});
