import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { terminalSafe } from "../../src/cli/terminal-text.js";

const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe("terminalSafe", () => {
  it("shows escape sequences, bells, carriage returns and bidirectional overrides as symbols, keeping new lines and tabs", () => {
    expect(terminalSafe("\u001b]52;c;cm0gLXJmIH4=\u0007")).toBe("␛]52;c;cm0gLXJmIH4=␇");
    expect(terminalSafe("approve ls\r\u001b[2Krm -rf ~")).toBe("approve ls␍␛[2Krm -rf ~");
    expect(terminalSafe("a\u202eevil\u202c b\u2066x\u2069")).toBe("a<U+202E>evil<U+202C> b<U+2066>x<U+2069>");
    expect(terminalSafe("\u009b31m\u007f")).toBe("<U+009B>31m␡");
    expect(terminalSafe("lines\r\nand\ttabs\n")).toBe("lines\nand\ttabs\n");
  });

  it("never lets a control character through, and leaves text without any as it is (fast-check)", () => {
    let runs = 0;
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 60 }), (text) => {
        runs++;
        const shown = terminalSafe(text);
        expect(shown).not.toMatch(UNSAFE);
        if (!UNSAFE.test(text.replace(/\r\n/g, "\n"))) expect(shown).toBe(text.replace(/\r\n/g, "\n"));
      }),
      { numRuns: 3_000 },
    );
    console.log(`terminalSafe fuzz: ${runs} strings of any code points, no control character through`);
  });
});
