import { expect } from "vitest";
import { callAt } from "./harness.ts";

/** The scrape token of the instances that take one. */
export const TOKEN = "scrape-token-0123456789abcdef";

/** One sample of the exposition: a metric name and its labels. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export function samples(text: string): Sample[] {
  const found: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (match === null) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g))
      labels[key!] = value!;
    found.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return found;
}

/** The value of the one sample with this name and (at least) these labels; undefined when there is none. */
export function value(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const matching = samples(text).filter(
    (sample) =>
      sample.name === name && Object.entries(labels).every(([key, want]) => sample.labels[key] === want),
  );
  expect(matching.length, `${name} ${JSON.stringify(labels)}`).toBeLessThanOrEqual(1);
  return matching[0]?.value;
}

export async function scrape(baseUrl: string, token: string | null = TOKEN): Promise<string> {
  const answer = await callAt(baseUrl, "GET", "/metrics", token === null ? {} : { token });
  expect(answer.status, answer.text).toBe(200);
  expect(answer.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return answer.text;
}

export function expectProblem(
  answer: { status: number; headers: Headers; body: unknown },
  status: number,
  code: string,
) {
  expect(answer.status).toBe(status);
  expect(answer.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  expect(answer.body).toMatchObject({ error_code: code });
}
