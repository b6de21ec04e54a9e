import { crc32 } from "node:zlib";

/** A zip record of `size` bytes with little-endian fields written at their offsets: `[offset, bytes (2 or 4), value]`. */
function record(size: number, fields: [offset: number, bytes: 2 | 4, value: number][]): Buffer {
  const buffer = Buffer.alloc(size);
  for (const [offset, bytes, value] of fields) {
    if (bytes === 2) buffer.writeUInt16LE(value, offset);
    else buffer.writeUInt32LE(value, offset);
  }
  return buffer;
}

/**
 * A zip archive of uncompressed ("stored") entries, enough for a test wheel;
 * written by hand so the tests need no zip library the package does not declare.
 */
export function storedZip(entries: Record<string, string>): Buffer {
  const parts: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(entries)) {
    const nameBytes = Buffer.from(name);
    const data = Buffer.from(text);
    const crc = crc32(data);
    // Local file header (version 2.0, stored), then the central directory's entry pointing at it.
    const local = record(30, [[0, 4, 0x04034b50], [4, 2, 20], [14, 4, crc], [18, 4, data.length], [22, 4, data.length], [26, 2, nameBytes.length]]);
    const central = record(46, [[0, 4, 0x02014b50], [4, 2, 20], [6, 2, 20], [16, 4, crc], [20, 4, data.length], [24, 4, data.length], [28, 2, nameBytes.length], [42, 4, offset]]);
    parts.push(local, nameBytes, data);
    directory.push(central, nameBytes);
    offset += local.length + nameBytes.length + data.length;
  }
  const count = Object.keys(entries).length;
  const centralBytes = Buffer.concat(directory);
  const end = record(22, [[0, 4, 0x06054b50], [8, 2, count], [10, 2, count], [12, 4, centralBytes.length], [16, 4, offset]]);
  return Buffer.concat([...parts, centralBytes, end]);
}
