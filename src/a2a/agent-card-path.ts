/** Where an A2A agent's card is served, under its base URL (`@a2a-js/sdk`'s and ADK's `AGENT_CARD_PATH`). */
export const AGENT_CARD_PATH = ".well-known/agent-card.json";
