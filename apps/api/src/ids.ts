import { randomFillSync } from "node:crypto";

// Random bytes are drawn from the system in blocks: one syscall serves 256 ids.
const pool = Buffer.alloc(16 * 256);
let offset = pool.length;

function random10(): Buffer {
  if (offset + 10 > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const bytes = pool.subarray(offset, offset + 10);
  offset += 10;
  return bytes;
}

let lastMs = 0;
let sequence = 0;
const hex: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

/**
 * A UUIDv7 (RFC 9562): 48-bit epoch milliseconds, a 12-bit sequence that keeps the ids one process mints
 * in a millisecond in order, then 62 random bits.
 */
export function newId(now = Date.now()): string {
  const random = random10();
  if (now <= lastMs) {
    sequence = (sequence + 1) & 0xfff;
    if (sequence === 0) lastMs += 1; // sequence exhausted: borrow the next millisecond
    now = lastMs;
  } else {
    lastMs = now;
    sequence = ((random[0]! << 8) | random[1]!) & 0x3ff; // a random start that leaves room to count up
  }
  const b = Buffer.allocUnsafe(16);
  b.writeUIntBE(now, 0, 6);
  b[6] = 0x70 | (sequence >> 8);
  b[7] = sequence & 0xff;
  b[8] = 0x80 | (random[2]! & 0x3f);
  random.copy(b, 9, 3, 10);
  let s = "";
  for (let i = 0; i < 16; i++) {
    s += hex[b[i]!];
    if (i === 3 || i === 5 || i === 7 || i === 9) s += "-";
  }
  return s;
}
