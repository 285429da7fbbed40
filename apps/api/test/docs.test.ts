import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import SwaggerParser from "@apidevtools/swagger-parser";
import { errorRegistry, type Operation } from "@fleet/contracts";
import { describe, expect, it } from "vitest";

// biome-ignore lint/suspicious/noExplicitAny: the test walks an untyped JSON document
type Json = any;

import { operations } from "../src/router/root.ts";
import { call } from "./harness.ts";
import { specPath, specPresent } from "./spec-file.ts";

/** Every code the specification's Errors table names, with ranges (`UZ-VAULT-001..003`) expanded. */
function specCodes(): string[] {
  const text = readFileSync(specPath, "utf8");
  const codes = new Set<string>();
  for (const line of text.split("\n")) {
    const cell = /^\| (UZ-[A-Z]+-[0-9][^|]*?) \|/.exec(line)?.[1];
    if (!cell) continue;
    const prefix = /^(UZ-[A-Z]+-)/.exec(cell)![1]!;
    const range = /^UZ-[A-Z]+-(\d+)\.\.(\d+)$/.exec(cell);
    if (range) {
      for (let n = Number(range[1]); n <= Number(range[2]); n++)
        codes.add(`${prefix}${String(n).padStart(3, "0")}`);
      continue;
    }
    for (const part of cell.split(",")) {
      const digits = /(\d+)\s*$/.exec(part.trim())![1]!;
      codes.add(`${prefix}${digits.padStart(3, "0")}`);
    }
  }
  return [...codes];
}

describe("documentation", () => {
  it("serves every operation a contract file declares, each at the path its id names", async () => {
    const contracts = join(import.meta.dirname, "..", "..", "..", "packages", "contracts", "src");
    const declared: string[] = [];
    for (const file of readdirSync(contracts, { recursive: true, encoding: "utf8" })) {
      if (!file.endsWith(".ts") || file.endsWith(".test.ts")) continue;
      const module = (await import(join(contracts, file))) as Record<string, unknown>;
      for (const value of Object.values(module)) {
        const op = value as Partial<Operation> | null;
        if (op && typeof op === "object" && typeof op.id === "string" && op.input !== undefined)
          declared.push(op.id);
      }
    }
    const served = operations.map((op) => op.id);
    expect(new Set(declared).size).toBeGreaterThanOrEqual(62);
    expect(served.sort()).toEqual([...new Set(declared)].sort());
  });

  it.skipIf(!specPresent)("has every error code of the specification in the registry", async () => {
    const codes = specCodes();
    expect(codes.length).toBeGreaterThanOrEqual(46);
    const page = await call("GET", "/docs/errors");
    for (const code of codes) {
      expect(errorRegistry, code).toHaveProperty(code);
      expect(page.text, code).toContain(`id="${code}"`);
    }
  });

  it("documents every registered error code on the served page", async () => {
    const page = await call("GET", "/docs/errors");
    expect(page.headers.get("content-type")).toMatch(/text\/html/);
    for (const [code, entry] of Object.entries(errorRegistry)) {
      expect(entry.meaning.length, code).toBeGreaterThan(10);
      expect(page.text).toContain(`id="${code}"`);
    }
    expect(errorRegistry["UZ-AUTH-022"].status).toBe(403);
    expect(errorRegistry["UZ-INV-004"].status).toBe(409);
    expect(errorRegistry["UZ-RUN-014"].status).toBe(404);
    expect(errorRegistry["UZ-BUNDLE-003"].status).toBe(424);
  });

  it("serves an OpenAPI 3.1 document that a validator accepts, with real statuses and problems", async () => {
    const response = await call<Record<string, Json>>("GET", "/v1/openapi.json");
    expect(response.status).toBe(200);
    const document = response.body;
    expect(document.openapi).toBe("3.1.0");
    expect(document.info.version).toBe("1.0.0");
    await SwaggerParser.validate(structuredClone(document) as never);
    for (const op of operations) {
      const entry = document.paths[op.path][op.method.toLowerCase()];
      expect(entry, op.id).toBeDefined();
      expect(Object.keys(entry.responses)).toContain(String(op.successStatus));
      if (op.successStatus === 204) expect(entry.responses["204"].content).toBeUndefined();
      for (const [status, body] of Object.entries(entry.responses as Record<string, Json>)) {
        if (Number(status) >= 400) {
          expect(body.content["application/problem+json"].schema.$ref).toBe("#/components/schemas/Problem");
        }
      }
      expect(entry.security.length).toBe(op.credentials.length);
    }
    expect(document.paths["/v1/api-keys"].post.responses["201"]).toBeDefined();
    expect(document.components.schemas.Problem.properties.error_code).toMatchObject({ type: "string" });
    expect(document.components.schemas.Problem.required).toEqual(
      expect.arrayContaining(["error_code", "title", "detail", "docs_uri", "request_id"]),
    );
    expect(document.paths["/v1/auth/sign-in-links/exchange"].post.responses["401"]).toBeDefined();
    expect(document.paths["/v1/api-keys/{id}"].delete.responses["204"]).toBeDefined();
  });

  it("serves the API reference page", async () => {
    const page = await call("GET", "/docs");
    expect(page.status).toBe(200);
    expect(page.text).toContain("/v1/openapi.json");
    const script = await call("GET", "/docs/reference.js");
    expect(script.status).toBe(200);
    expect(script.text.length).toBeGreaterThan(100_000);
  });

  it("forbids framing the documentation pages (clickjacking)", async () => {
    for (const path of ["/docs", "/docs/errors"]) {
      const page = await call("GET", path);
      expect(page.status, path).toBe(200);
      expect(page.headers.get("content-security-policy"), path).toBe("frame-ancestors 'none'");
      expect(page.headers.get("x-frame-options"), path).toBe("DENY");
    }
  });
});
