import { describe, expect, it } from "vitest";
import { isToolsmithError, ToolsmithError } from "../../src/index.js";
import { HttpError, toHttpError } from "../../src/server/http-error.js";
import { BackendError } from "../../src/tools/builtin/filesystem/backend.js";
import { ModelProviderError } from "../../src/models/model-provider-error.js";

describe("one family of errors, one vocabulary of codes", () => {
  it("makes the HTTP API's and the filesystem backends' errors ToolsmithErrors a caller can switch on", () => {
    const refused = new HttpError(404, "ARTIFACT_NOT_FOUND", "No artifact report.txt.");
    const backend = new BackendError("PATH_REFUSED", "/etc/passwd is outside the root.");
    for (const error of [refused, backend]) expect(isToolsmithError(error) && error instanceof ToolsmithError).toBe(true);
    expect([refused.name, refused.code, refused.status]).toEqual(["HttpError", "ARTIFACT_NOT_FOUND", 404]);
    expect([backend.name, backend.code, backend.message]).toEqual(["BackendError", "PATH_REFUSED", "/etc/passwd is outside the root."]);
  });

  it("maps each provider status to its own model code", () => {
    const codes = [undefined, 500, 429, 401, 403, 404, 400].map((status) => new ModelProviderError({ provider: "openai", status, providerMessage: "x" }).code);
    expect(codes).toEqual(["MODEL_UNAVAILABLE", "MODEL_UNAVAILABLE", "MODEL_RATE_LIMITED", "MODEL_AUTH", "MODEL_AUTH", "MODEL_NOT_FOUND", "MODEL_BAD_REQUEST"]);
  });

  it("answers a state value that is not JSON with 400 over HTTP, as the client's mistake, and an unknown failure with 500 and no internals", () => {
    const stateError = new ToolsmithError("STATE_VALUE_NOT_JSON", 'State key "when" holds a Date; store JSON values.');
    expect(toHttpError(stateError)).toMatchObject({ status: 400, code: "STATE_VALUE_NOT_JSON" });
    expect(toHttpError(new TypeError("x is undefined"))).toMatchObject({ status: 500, code: "INTERNAL" });
    expect(toHttpError(new ToolsmithError("NO_MODEL", "Agent a has no model."))).toMatchObject({ status: 500, code: "NO_MODEL", message: "Agent a has no model." });
  });
});
