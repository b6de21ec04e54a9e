import * as adk from "@google/adk";
import { describe, expect, it } from "vitest";
import * as toolsmith from "../../src/index.js";

describe("OAuthGrantType, side by side with @google/adk 2.0", () => {
  it("has ADK's four grant types, by the same names and values (those of an OpenAPI scheme's flows, in snake case)", () => {
    expect({ ...toolsmith.OAuthGrantType }).toEqual({ ...adk.OAuthGrantType });
    expect(Object.values(toolsmith.OAuthGrantType)).toEqual(["client_credentials", "authorization_code", "implicit", "password"]);
  });
});
