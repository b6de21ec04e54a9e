import type { EventStore } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

interface StoredEvent {
  streamId: string;
  message: JSONRPCMessage;
}

/**
 * The messages sent on Streamable HTTP streams, kept so a client that lost
 * its connection can resume with `Last-Event-ID` and receive what it missed.
 * Bounded: beyond `maxEvents` the oldest are forgotten, and a client asking
 * to resume after a forgotten event is refused (it must start over) rather
 * than silently given a gap.
 */
export class InMemoryEventStore implements EventStore {
  readonly #events = new Map<string, StoredEvent>();
  readonly #maxEvents: number;
  #sequence = 0;

  constructor(options: { maxEvents?: number } = {}) {
    this.#maxEvents = options.maxEvents ?? 10_000;
  }

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const eventId = `${++this.#sequence}_${streamId}`;
    this.#events.set(eventId, { streamId, message });
    while (this.#events.size > this.#maxEvents) this.#events.delete(this.#events.keys().next().value!);
    return eventId;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.#events.get(eventId)?.streamId ?? streamIdOf(eventId);
  }

  async replayEventsAfter(lastEventId: string, { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> }): Promise<string> {
    const streamId = this.#events.get(lastEventId)?.streamId;
    if (streamId === undefined) throw new Error(`Event ${lastEventId} is not stored (unknown, or forgotten to keep memory bounded). Start a new request.`);
    let after = false;
    for (const [eventId, event] of this.#events) {
      if (eventId === lastEventId) after = true;
      // Priming events (empty, sent so the client has an id to resume from) carry no message to replay.
      else if (after && event.streamId === streamId && Object.keys(event.message).length > 0) await send(eventId, event.message);
    }
    return streamId;
  }
}

function streamIdOf(eventId: string): string | undefined {
  const separator = eventId.indexOf("_");
  return separator > 0 ? eventId.slice(separator + 1) : undefined;
}
