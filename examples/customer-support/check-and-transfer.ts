import { FunctionTool } from "toolsmith";

/** Hands urgent queries to the support agent by setting `actions.transferToAgent`. */
export const checkAndTransfer = new FunctionTool({
  name: "check_and_transfer",
  description: "Checks if the query requires escalation and transfers to another agent if needed.",
  parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
  execute: ({ query }, context) => {
    if (String(query).toLowerCase().includes("urgent")) {
      context.actions.transferToAgent = "support_agent";
      return "Transferring to the support agent...";
    }
    return "Processed query successfully.";
  },
});
