import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { splitJoin } from "../../../bench/masking.ts";
import { maskerOfValues, type SecretValue, secretValues } from "./mask.ts";

/** Every occurrence of every value, overlapping ones included, found by brute force. */
function occurrences(values: SecretValue[], text: string) {
  const found: { start: number; end: number; value: string }[] = [];
  for (const { value } of values)
    for (let at = text.indexOf(value); at !== -1; at = text.indexOf(value, at + 1))
      found.push({ start: at, end: at + value.length, value });
  return found.sort((a, b) => a.start - b.start || b.end - a.end);
}

/** What masking must give: each run of overlapping occurrences one `[secret:NAME]`, its longest value's name. */
function oracle(values: SecretValue[], text: string): string {
  const nameOf = new Map<string, string>();
  for (const { name, value } of values) if (!nameOf.has(value)) nameOf.set(value, name);
  let out = "";
  let copied = 0;
  let run: { start: number; end: number; longest: string } | null = null;
  const close = () => {
    if (run === null) return;
    out += `${text.slice(copied, run.start)}[secret:${nameOf.get(run.longest)}]`;
    copied = run.end;
  };
  for (const hit of occurrences(values, text)) {
    if (run !== null && hit.start < run.end) {
      run.end = Math.max(run.end, hit.end);
      if (hit.value.length > run.longest.length) run.longest = hit.value;
      continue;
    }
    close();
    run = { start: hit.start, end: hit.end, longest: hit.value };
  }
  close();
  return out + text.slice(copied);
}

/** Whether any two occurrences overlap without one holding the other (the only case the old masker leaked). */
function crossing(values: SecretValue[], text: string): boolean {
  const found = occurrences(values, text);
  return found.some((a) => found.some((b) => a.start < b.start && b.start < a.end && a.end < b.end));
}

const value = fc.string({ unit: fc.constantFrom("a", "b", "c", ".", "*", "("), minLength: 4, maxLength: 9 });
const values = fc.array(fc.record({ name: fc.constantFrom("ONE", "TWO", "THREE"), value }), {
  minLength: 1,
  maxLength: 6,
});
const text = fc.string({ unit: fc.constantFrom("a", "b", "c", ".", "*", "(", "0", " "), maxLength: 80 });

describe("the one-pass masker", () => {
  it("masks every occurrence, overlapping ones as one run named by its longest value", () => {
    fc.assert(
      fc.property(values, text, (list, written) => {
        const masked = maskerOfValues(list)(written);
        expect(masked).toBe(oracle(list, written));
        for (const { value: secret } of list) expect(masked).not.toContain(secret);
      }),
      { numRuns: 2_000 },
    );
  });

  it("answers what split/join answered wherever no two occurrences cross", () => {
    fc.assert(
      fc.property(values, text, (list, written) => {
        fc.pre(!crossing(list, written));
        expect(maskerOfValues(list)(written)).toBe(splitJoin(list)(written));
      }),
      { numRuns: 2_000 },
    );
  });

  it("masks whole what split/join left a piece of, and never looks inside a mask", () => {
    const list = [
      { name: "SHORT", value: "ab1234" },
      { name: "LONG", value: "12345678" },
    ];
    expect(splitJoin(list)("ab12345678")).toBe("ab[secret:LONG]");
    expect(maskerOfValues(list)("ab12345678 x")).toBe("[secret:LONG] x");
    expect(maskerOfValues([{ name: "R", value: "abab" }])("ababab abab")).toBe("[secret:R] [secret:R]");
    const inMask = [
      { name: "TOKEN", value: "sk-live-1234" },
      { name: "WORD", value: "secret" },
    ];
    expect(splitJoin(inMask)("use sk-live-1234")).toBe("use [[secret:WORD]:TOKEN]");
    expect(maskerOfValues(inMask)("use sk-live-1234, secret")).toBe("use [secret:TOKEN], [secret:WORD]");
  });

  it("takes values literally, keeps the first name of a value listed twice, and skips short ones", () => {
    const mask = maskerOfValues([
      { name: "A", value: "a.b*c(d)[e]$" },
      { name: "B", value: "same" },
      { name: "C", value: "same" },
    ]);
    expect(mask("x a.b*c(d)[e]$ axbbc(d)[e]$ same")).toBe("x [secret:A] axbbc(d)[e]$ [secret:B]");
    const leaves = secretValues([
      { name: "D", data: { short: "abc", long: "abcd", nested: [{ n: "wxyz" }] } },
    ]);
    expect(leaves.map((item) => item.value)).toEqual(["abcd", "wxyz"]);
    expect(maskerOfValues([])("anything")).toBe("anything");
    expect(mask("")).toBe("");
  });
});
