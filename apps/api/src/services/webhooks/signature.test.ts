import { describe, expect, it } from "vitest";
import { refusal, sign, verify } from "./signature.ts";

const SECRET = "agt_wtest-secret";
const NOW_MS = 1_780_000_000_500;
const NOW_S = Math.floor(NOW_MS / 1000);
const BODY = '{"grant_id":"g","decision":"approved","nonce":"n-1"}';

function headersAt(ts: number, body = BODY, secret = SECRET) {
  return { timestamp: String(ts), signature: sign(secret, ts, body) };
}

describe("webhook signatures", () => {
  it("signs v0:<ts>:<raw body> with HMAC-SHA256 as v0=<hex>", () => {
    // Fixed vector: a change in the format breaks every sender, so it is pinned here.
    expect(sign("key", 1, "body")).toBe(
      "v0=1ed60689c833c6e0155375486100f66305fb8a6e78a6fd3e3b748a3261fd1eef",
    );
    expect(sign("key", 1, "body")).toMatch(/^v0=[0-9a-f]{64}$/);
    expect(sign("key", 1, "body")).toBe(sign("key", "1", Buffer.from("body")));
    expect(sign("key", 1, "body")).not.toBe(sign("key", 2, "body"));
  });

  it.each([-300, -299, 0, 299, 300])("accepts a timestamp %i s from the clock", (offset) => {
    expect(verify(SECRET, headersAt(NOW_S + offset), BODY, NOW_MS)).toBe("valid");
  });

  it.each([-301, 301, -86_400])("refuses a timestamp %i s from the clock as stale", (offset) => {
    expect(verify(SECRET, headersAt(NOW_S + offset), BODY, NOW_MS)).toBe("stale");
    expect(refusal("stale").code).toBe("UZ-WEBHOOK-003");
  });

  it("refuses a tampered body, a wrong secret and a tampered timestamp", () => {
    const headers = headersAt(NOW_S);
    expect(verify(SECRET, headers, BODY.replace("approved", "denied"), NOW_MS)).toBe("mismatch");
    expect(verify(SECRET, headers, `${BODY} `, NOW_MS)).toBe("mismatch");
    expect(verify("agt_wother", headers, BODY, NOW_MS)).toBe("mismatch");
    expect(verify(SECRET, { ...headers, timestamp: String(NOW_S - 1) }, BODY, NOW_MS)).toBe("mismatch");
    expect(refusal("mismatch").code).toBe("UZ-WEBHOOK-002");
  });

  it("refuses missing and malformed headers before computing anything", () => {
    const headers = headersAt(NOW_S);
    expect(verify(SECRET, { ...headers, signature: undefined }, BODY, NOW_MS)).toBe("malformed");
    expect(verify(SECRET, { ...headers, timestamp: undefined }, BODY, NOW_MS)).toBe("malformed");
    expect(verify(SECRET, { ...headers, timestamp: `${NOW_S}.5` }, BODY, NOW_MS)).toBe("malformed");
    expect(verify(SECRET, { ...headers, timestamp: "-1" }, BODY, NOW_MS)).toBe("malformed");
    expect(verify(SECRET, { ...headers, signature: headers.signature.slice(0, -2) }, BODY, NOW_MS)).toBe(
      "malformed",
    );
    expect(verify(SECRET, { ...headers, signature: `v1=${headers.signature.slice(3)}` }, BODY, NOW_MS)).toBe(
      "malformed",
    );
    expect(refusal("malformed").code).toBe("UZ-WEBHOOK-001");
  });

  it("reads the hex digits in either case", () => {
    const headers = headersAt(NOW_S);
    expect(
      verify(
        SECRET,
        { ...headers, signature: headers.signature.toUpperCase().replace("V0=", "v0=") },
        BODY,
        NOW_MS,
      ),
    ).toBe("valid");
  });
});
