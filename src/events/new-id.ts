import { randomFillSync } from "node:crypto";

const HEX = "0123456789abcdef";
// Random bytes for 4,096 ids per refill: each refill is a call into the system's generator, and a busy server
// makes a dozen ids per run (with 256 per refill it showed as 2 % of a loaded server's profile).
const random = Buffer.alloc(16 * 4096);
let offset = random.length;
const text = Buffer.alloc(64);

/**
 * A random UUID v4 as a flat string. `crypto.randomUUID()` returns a string
 * built by concatenation, which V8 keeps as a tree of ~20 pieces (about 500
 * bytes); ids are stored on every event, so this one is written in one piece
 * (about 60 bytes). A prefix (`adk-`, `e-`) is written in the same piece.
 */
export function newId(prefix = ""): string {
  const start = takeRandom(16);
  // Byte by byte, not `text.write(prefix)`: a call into C++ for a few characters cost as much as the rest.
  let position = 0;
  for (let index = 0; index < prefix.length; index++) text[position++] = prefix.charCodeAt(index);
  for (let index = 0; index < 16; index++) {
    let byte = random[start + index]!;
    if (index === 6) byte = (byte & 0x0f) | 0x40;
    if (index === 8) byte = (byte & 0x3f) | 0x80;
    if (index === 4 || index === 6 || index === 8 || index === 10) text[position++] = 0x2d;
    text[position++] = HEX_CODES[byte >> 4]!;
    text[position++] = HEX_CODES[byte & 0x0f]!;
  }
  return latin1Slice.call(text, 0, position);
}

const HEX_CODES = Array.from(HEX, (digit) => digit.charCodeAt(0));

const ALPHANUMERIC_CODES = Array.from("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", (character) => character.charCodeAt(0));
/** Random bytes below this map evenly onto the 62 letters and digits (4 × 62); the rest are skipped. */
const EVEN_BELOW = 248;
/** An event id's length: 12 letters and digits, about 71 random bits. */
export const EVENT_ID_LENGTH = 12;

/**
 * An event's id: 12 random letters and digits, as ADK's TypeScript makes event ids (it makes 8). Every stored
 * event keeps one, and 12 characters fit a 32-byte string where a UUID takes 56; the chance that two events of a
 * session of 100,000 share an id is about 1 in 10^12 (with 8, about 1 in 40,000).
 */
export function newEventId(): string {
  let position = 0;
  while (position < EVENT_ID_LENGTH) {
    // A few more bytes than needed: a byte is skipped 8 times in 256, so one draw nearly always suffices.
    const start = takeRandom(16);
    for (let index = 0; index < 16 && position < EVENT_ID_LENGTH; index++) {
      const byte = random[start + index]!;
      if (byte < EVEN_BELOW) text[position++] = ALPHANUMERIC_CODES[byte % 62]!;
    }
  }
  return latin1Slice.call(text, 0, EVENT_ID_LENGTH);
}
/**
 * Buffer's own latin1 decoder, which `toString("latin1", …)` reaches after checking its arguments and
 * encoding name (half the time of an id); `toString` where a runtime has no such method.
 */
const latin1Slice: (this: Buffer, start: number, end: number) => string =
  (Buffer.prototype as unknown as { latin1Slice?: (this: Buffer, start: number, end: number) => string }).latin1Slice ??
  function (this: Buffer, start: number, end: number) {
    return this.toString("latin1", start, end);
  };

/** `byteCount` random bytes as lowercase hex (OpenTelemetry's trace and span ids), from the same pool as {@link newId}. */
export function randomHex(byteCount: number): string {
  const start = takeRandom(byteCount);
  return random.toString("hex", start, start + byteCount);
}

/** Reserves `byteCount` unused bytes of the pool, refilling it when too few are left; returns where they start. */
function takeRandom(byteCount: number): number {
  if (offset + byteCount > random.length) {
    randomFillSync(random);
    offset = 0;
  }
  const start = offset;
  offset += byteCount;
  return start;
}
