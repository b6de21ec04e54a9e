/**
 * The home automation agent of ADK's evaluation fixtures, rebuilt for the eval
 * tests: two device tools, and a model that replays recorded responses.
 */
import { FunctionTool, LlmAgent, type Model } from "../../src/index.js";
import { functionCallsResponse, ScriptedModel, textResponse } from "../../src/testing/index.js";

const devices: Record<string, { location: string; status: string }> = {
  device_1: { location: "Living Room", status: "ON" },
  device_2: { location: "Bedroom", status: "ON" },
  device_3: { location: "Kitchen", status: "OFF" },
};

/** The agent with any model. */
export function homeAutomationAgent(model: Model): LlmAgent {
  const state = structuredClone(devices);
  return new LlmAgent({
    name: "home_automation_agent",
    model,
    instruction: "You control the devices of a home. Use get_device_info to read a device and set_device_info to change one.",
    tools: [
      new FunctionTool({
        name: "get_device_info",
        description: "Reads a device's location and status.",
        parameters: { type: "object", properties: { device_id: { type: "string" } }, required: ["device_id"] },
        execute: ({ device_id }) => state[String(device_id)] ?? { error: "no such device" },
      }),
      new FunctionTool({
        name: "set_device_info",
        description: "Sets a device's status.",
        parameters: { type: "object", properties: { location: { type: "string" }, device_id: { type: "string" }, status: { type: "string" } }, required: ["device_id", "status"] },
        execute: ({ device_id, status }) => {
          const device = state[String(device_id)];
          if (device) device.status = String(status);
          return { status: "success" };
        },
      }),
    ],
  });
}

/** The responses a model gave on the fixture's cases, in order: case 1 (one turn), then case 2 (two turns). */
export function recordedResponses(): ScriptedModel {
  return new ScriptedModel([
    functionCallsResponse({ name: "set_device_info", args: { location: "Bedroom", device_id: "device_2", status: "OFF" } }),
    textResponse("I have set the device_2 status to off."),
    functionCallsResponse({ name: "get_device_info", args: { device_id: "device_3" } }),
    textResponse("The device_3 in the Kitchen is currently off."),
    // The recorded run switched the device on without repeating its location.
    functionCallsResponse({ name: "set_device_info", args: { device_id: "device_3", status: "ON" } }),
    textResponse("Done: device_3 is on now."),
  ]);
}
