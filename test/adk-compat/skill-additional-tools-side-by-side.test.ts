import * as adk from "@google/adk";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { SkillToolset } from "../../src/tools/builtin/index.js";
import { call, runOnBoth, runTurn, text, type Framework } from "./side-by-side.js";

/**
 * ADK's `SkillToolset({ additionalTools })`: a skill whose front matter lists tools under
 * `metadata.adk_additional_tools` makes them available once the agent loaded it. Run on `@google/adk` 2.0 and
 * on toolsmith with the same scripted model: the same tools offered at each model call, the same events and the
 * same state.
 */
describe("SkillToolset additionalTools, side by side with @google/adk 2.0", () => {
  it("offers a skill's additional tools from the step after load_skill, and records the loaded skill in state", async () => {
    const script = [call("load_skill", { name: "weather-report" }), call("get_weather", { city: "Lisbon" }), text("Sunny in Lisbon.")];
    const { adk: onAdk, toolsmith } = await runOnBoth(script, async (f: Framework, model) => {
      const skill = {
        frontmatter: { name: "weather-report", description: "Reports the weather.", metadata: { adk_additional_tools: ["get_weather", "not_given"] } },
        instructions: "Call get_weather for the city, then report it.",
        resources: { references: {}, assets: {}, scripts: {} },
      };
      const otherSkill = { frontmatter: { name: "small-talk", description: "Chats." }, instructions: "Chat.", resources: { references: {}, assets: {}, scripts: {} } };
      const getWeather = new f.FunctionTool({ name: "get_weather", description: "Weather in a city.", parameters: z.object({ city: z.string() }), execute: ({ city }: { city: string }) => ({ city, sky: "sunny" }) });
      const getTime = new f.FunctionTool({ name: "get_time", description: "Time.", parameters: z.object({}), execute: () => ({ time: "10:00" }) });
      const Skills = f === adk ? adk.SkillToolset : SkillToolset;
      const agent = new f.LlmAgent({ name: "forecaster", model, tools: [new Skills([skill, otherSkill], { additionalTools: [getWeather, getTime] })] });
      const { runner, events, session } = await runTurn(f, agent, "Weather in Lisbon?");
      return { runner, events, output: session.state };
    });
    // ADK offers run_skill_script without a way to run it; toolsmith only with runScript (docs/adk-compat.md, Skills).
    const toolsAtEachCall = (record: typeof toolsmith) => record.requests.map((request) => request.tools.filter((name) => name !== "run_skill_script").sort());
    expect(toolsAtEachCall(toolsmith)).toEqual(toolsAtEachCall(onAdk));
    expect(toolsAtEachCall(toolsmith)).toEqual([
      ["list_skills", "load_skill", "load_skill_resource"],
      ["get_weather", "list_skills", "load_skill", "load_skill_resource"],
      ["get_weather", "list_skills", "load_skill", "load_skill_resource"],
    ]);
    expect(toolsmith.output).toEqual(onAdk.output);
    expect(toolsmith.output).toEqual({ _adk_activated_skill_forecaster: ["weather-report"] });
    expect(toolsmith.events.map((event) => event.author)).toEqual(onAdk.events.map((event) => event.author));
  });
});
