import { Problem } from "@fleet/contracts";

/**
 * Cursors are opaque to clients; inside, the keyset of the last row served and what the cursor is bound
 * to (the route and its sort), so a cursor from elsewhere is refused rather than misread.
 */
export interface Keyset {
  /** What the cursor is bound to, e.g. `api-keys:-created_at`. */
  bind: string;
  /** The sort value of the last row (epoch ms or text). */
  value: number | string;
  id: string;
}

export function encodeCursor(keyset: Keyset): string {
  return Buffer.from(JSON.stringify([keyset.bind, keyset.value, keyset.id])).toString("base64url");
}

/** Decodes a cursor issued for `bind`; `valueType` is what its sort value must be. */
export function decodeCursor(
  cursor: string,
  bind: string,
  valueType: "number" | "string" = "number",
): Keyset {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    parsed = null;
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 3 ||
    typeof parsed[0] !== "string" ||
    !(Number.isSafeInteger(parsed[1]) || (typeof parsed[1] === "string" && parsed[1].length <= 1024)) ||
    typeof parsed[2] !== "string" ||
    !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(parsed[2])
  ) {
    throw new Problem("UZ-REQ-001", { detail: "starting_after is not a cursor this route issued." });
  }
  if (parsed[0] !== bind) {
    throw new Problem("UZ-REQ-001", {
      detail: "starting_after was issued for another sort or route; start again without it.",
    });
  }
  if (typeof parsed[1] !== valueType) {
    throw new Problem("UZ-REQ-001", { detail: "starting_after is not a cursor this route issued." });
  }
  return { bind, value: parsed[1], id: parsed[2] };
}
