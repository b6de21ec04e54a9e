/**
 * A shop assistant for `toolsmith web examples`: looks up orders (state, a
 * text and an image artifact), refunds (over 50 needs a person's confirmation)
 * asks a manager (a long-running call answered later) and reads loyalty points
 * (asks for an API key: a credential request). Its model is a FunctionModel
 * that follows a few rules, so it runs without credentials; give `model` a name
 * such as "gemini-2.5-flash" to use a real one.
 */
import { FunctionTool, LlmAgent, LongRunningFunctionTool } from "toolsmith";
import { FunctionModel, lastFunctionResponse, lastUserText, streamedText } from "toolsmith/testing";

const ORDER_PHOTO_PNG = "iVBORw0KGgoAAAANSUhEUgAAABgAAAAYCAIAAABvFaqvAAAANElEQVR4nGP4fzENDb3I0kJDxKhhGDWIjgaRpw1TzahB9DRo8KWjUYMIGzT40tGoQQTVAAAZPCh9xM+MTwAAAABJRU5ErkJggg==";

export const lookupOrder = new FunctionTool({
  name: "lookup_order",
  description: "Looks up an order by id; saves its receipt and photo as artifacts.",
  parameters: { type: "object", properties: { orderId: { type: "string", description: "Like A-17." } }, required: ["orderId"] },
  execute: async ({ orderId }, context) => {
    const id = String(orderId);
    context.state.set("last_order", id);
    await context.saveArtifact(`receipt-${id}.txt`, { text: `Receipt for order ${id}: 1 teapot, 120 EUR.` });
    await context.saveArtifact("order-photo.png", { inlineData: { mimeType: "image/png", data: ORDER_PHOTO_PNG } });
    return { status: "success", orderId: id, item: "teapot", price: 120, shipped: true };
  },
});

export const issueRefund = new FunctionTool({
  name: "issue_refund",
  description: "Refunds an order. Refunds over 50 need a person's confirmation.",
  parameters: {
    type: "object",
    properties: { orderId: { type: "string" }, amount: { type: "number", minimum: 0 }, reason: { type: "string", enum: ["damaged", "late", "other"] } },
    required: ["orderId", "amount"],
  },
  requireConfirmation: (args) => (args.amount as number) > 50,
  execute: ({ orderId, amount }, context) => {
    context.state.set("refunded", { orderId, amount });
    return { status: "refunded", orderId, amount };
  },
});

export const askManager = new LongRunningFunctionTool({
  name: "ask_manager",
  description: "Asks a manager; the answer comes later.",
  parameters: { type: "object", properties: { question: { type: "string" } }, required: ["question"] },
  execute: ({ question }) => ({ status: "pending", ticketId: "ticket-1", question }),
});

const LOYALTY_KEY = { authScheme: { type: "apiKey", in: "header", name: "X-Loyalty-Key" } };

export const loyaltyPoints = new FunctionTool({
  name: "loyalty_points",
  description: "Reads the customer's loyalty points; needs their loyalty API key.",
  parameters: { type: "object", properties: {} },
  execute: async (_args, context) => {
    const credential = await context.loadCredential(LOYALTY_KEY);
    if (!credential?.apiKey) {
      context.requestCredential(LOYALTY_KEY);
      return { status: "pending", message: "Waiting for the loyalty API key." };
    }
    return { status: "success", points: 420, keyEndsWith: credential.apiKey.slice(-2) };
  },
});

const HELP = "I can look up an order (say 'order A-17'), refund one ('refund A-17 120') or ask a manager ('ask manager about a discount') or show your loyalty points ('points').";

export const rootAgent = new LlmAgent({
  name: "shop_assistant",
  description: "Answers questions about orders and refunds.",
  instruction: "Help customers with their orders.",
  tools: [lookupOrder, issueRefund, askManager, loyaltyPoints],
  model: new FunctionModel((request) => {
    const result = lastFunctionResponse(request);
    if (result) return streamedText(`Done: ${result.name} answered ${JSON.stringify(result.response)}.`);
    const text = lastUserText(request) ?? "";
    const refund = /refund\s+(\S+)\s+(\d+(?:\.\d+)?)/i.exec(text);
    if (refund) return { content: { role: "model", parts: [{ functionCall: { name: "issue_refund", args: { orderId: refund[1], amount: Number(refund[2]) } } }] } };
    const order = /order\s+(\S+)/i.exec(text);
    if (order) return { content: { role: "model", parts: [{ functionCall: { name: "lookup_order", args: { orderId: order[1] } } }] } };
    const manager = /manager\s+(?:about\s+)?(.+)/i.exec(text);
    if (manager) return { content: { role: "model", parts: [{ functionCall: { name: "ask_manager", args: { question: manager[1] } } }] } };
    if (/points/i.test(text)) return { content: { role: "model", parts: [{ functionCall: { name: "loyalty_points", args: {} } }] } };
    return streamedText(`Hello! ${HELP}`);
  }, { name: "shop-rules", chunkDelayMs: 25 }),
});
