import { randomBytes } from "node:crypto";
import { maskerOfValues, type SecretValue } from "../src/services/secrets/mask.ts";

/**
 * Issue 31 §2's masker, in process (no database, no server): the time to mask one text with the old
 * split/join per value (kept here as the reference) and with the one-pass masker, side by side in one run,
 * for a few counts of values and sizes of text, with no value in the text and with some. Each figure is
 * the median of 5 rounds of at least 200 ms each. The same results are proven in mask.test.ts.
 */
export interface MaskingFigure {
  values: number;
  textBytes: number;
  hits: number;
  splitJoinUs: number;
  onePassUs: number;
}

/** The masker before one pass: a split/join per value, longest first (the reference of mask.test.ts too). */
export function splitJoin(values: SecretValue[]): (text: string) => string {
  const sorted = [...values].sort((a, b) => b.value.length - a.value.length);
  return (text) => {
    let masked = text;
    for (const { name, value } of sorted) masked = masked.split(value).join(`[secret:${name}]`);
    return masked;
  };
}

/** Microseconds per call: the median of 5 rounds, each as many calls as fit in 200 ms. */
function timePerCall(mask: (text: string) => string, text: string): number {
  const rounds: number[] = [];
  let sink = 0;
  for (let round = 0; round < 5; round++) {
    let calls = 0;
    const start = process.hrtime.bigint();
    let elapsed = 0n;
    while (elapsed < 200_000_000n) {
      sink += mask(text).length;
      calls++;
      elapsed = process.hrtime.bigint() - start;
    }
    rounds.push(Number(elapsed) / 1000 / calls);
  }
  if (sink < 0) console.log(sink);
  return rounds.sort((a, b) => a - b)[2]!;
}

/** Ordinary prose of about `bytes` characters, with `hits` of the values spread through it. */
function textOf(bytes: number, values: SecretValue[], hits: number): string {
  const words = ["deploy", "the", "service", "token", "rotated", "build", "green", "check", "logs", "at"];
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < bytes; i++) {
    const word = words[(i * 7) % words.length]!;
    parts.push(word);
    length += word.length + 1;
  }
  for (let hit = 0; hit < hits; hit++)
    parts[Math.floor(((hit + 0.5) * parts.length) / hits)] = values[hit % values.length]!.value;
  return parts.join(" ");
}

export function benchMasking(): MaskingFigure[] {
  const figures: MaskingFigure[] = [];
  for (const count of [1, 8, 64]) {
    const values = Array.from({ length: count }, (_, i) => ({
      name: `SECRET_${i}`,
      value: `sk_live_${randomBytes(16).toString("hex")}`,
    }));
    const old = splitJoin(values);
    const onePass = maskerOfValues(values);
    for (const [textBytes, hits] of [
      [1024, 0],
      [64 * 1024, 0],
      [64 * 1024, 16],
      [512 * 1024, 64],
    ] as const) {
      const text = textOf(textBytes, values, hits);
      if (old(text) !== onePass(text)) throw new Error("the two maskers disagree");
      figures.push({
        values: count,
        textBytes,
        hits,
        splitJoinUs: timePerCall(old, text),
        onePassUs: timePerCall(onePass, text),
      });
    }
  }
  return figures;
}

export function printMaskingFigures(figures: MaskingFigure[]): void {
  console.log("\nLease masker (issue 31 §2), µs per text, median of 5 rounds, in process:");
  console.log("values  text      hits  split/join  one pass  ratio");
  for (const f of figures) {
    const size = f.textBytes >= 1024 ? `${f.textBytes / 1024} KiB` : `${f.textBytes} B`;
    console.log(
      `${String(f.values).padStart(6)}  ${size.padEnd(8)}  ${String(f.hits).padStart(4)}  ${f.splitJoinUs
        .toFixed(1)
        .padStart(10)}  ${f.onePassUs.toFixed(1).padStart(8)}  ${(f.splitJoinUs / f.onePassUs).toFixed(2)}×`,
    );
  }
}
