import fc from "fast-check";
import type { z } from "zod";

/**
 * Fast-check arbitraries derived from the contracts' zod schemas: values shaped like what each field
 * accepts (so generated requests reach the services), which the property test then makes hostile.
 * Covers the zod kinds the contracts use; an unknown kind yields any small JSON value.
 */

interface Def {
  type: string;
  [key: string]: unknown;
}

const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;
const checkDefs = (def: Def): Def[] =>
  ((def.checks as { _zod: { def: Def } }[] | undefined) ?? []).map((check) => check._zod.def);

/** A small JSON value, for free-form fields. */
export const smallJson = fc.jsonValue({ maxDepth: 2 });

function stringArbitrary(def: Def): fc.Arbitrary<string> {
  let minLength = 0;
  let maxLength = 40;
  for (const check of [def, ...checkDefs(def)]) {
    if (check.check === "min_length") minLength = check.minimum as number;
    if (check.check === "max_length") maxLength = Math.min(maxLength, check.maximum as number);
    if (check.format === "uuid") return fc.uuid({ version: 7 });
    if (check.format === "url") return fc.constantFrom("https://127.0.0.1/repo.git", "not a url");
    if (check.format === "email") return fc.emailAddress();
    if (check.format === "regex" && check.pattern instanceof RegExp) return fc.stringMatching(check.pattern);
  }
  return fc.string({ minLength, maxLength: Math.max(minLength, maxLength) });
}

function numberArbitrary(def: Def): fc.Arbitrary<number> {
  let min = -1_000;
  let max = 1_000_000;
  let integer = false;
  for (const check of checkDefs(def)) {
    if (check.check === "number_format") integer = true;
    if (check.check === "greater_than")
      min = (check.value as number) + (check.inclusive ? 0 : integer ? 1 : Number.EPSILON);
    if (check.check === "less_than") max = Math.min(check.value as number, min + 1_000_000);
  }
  if (max < min) max = min;
  return integer
    ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) })
    : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

/** An arbitrary for values the schema is meant to accept. */
export function arbitraryFor(schema: z.ZodType, depth = 0): fc.Arbitrary<unknown> {
  if (depth > 10) return fc.constant(undefined);
  const def = defOf(schema);
  const inner = (key: string) => arbitraryFor(def[key] as z.ZodType, depth + 1);
  switch (def.type) {
    case "string":
      return stringArbitrary(def);
    case "number":
      return numberArbitrary(def);
    case "boolean":
      return fc.boolean();
    case "literal":
      return fc.constantFrom(...(def.values as unknown[]));
    case "enum":
      return fc.constantFrom(...Object.values(def.entries as Record<string, unknown>));
    case "null":
      return fc.constant(null);
    case "undefined":
    case "void":
    case "never":
      return fc.constant(undefined);
    case "optional":
    case "default":
    case "prefault":
      return fc.option(inner("innerType"), { nil: undefined, freq: 3 });
    case "nullable":
      return fc.option(inner("innerType"), { nil: null, freq: 3 });
    case "readonly":
    case "catch":
    case "nonoptional":
      return inner("innerType");
    case "lazy":
      return arbitraryFor((def.getter as () => z.ZodType)(), depth + 1);
    case "pipe":
      // A preprocess (transform first) takes anything its output would: generate that.
      return defOf(def.in).type === "transform" ? inner("out") : inner("in");
    case "union":
      return fc.oneof(...(def.options as z.ZodType[]).map((option) => arbitraryFor(option, depth + 1)));
    case "array": {
      let minLength = 0;
      let maxLength = 3;
      for (const check of checkDefs(def)) {
        if (check.check === "min_length") minLength = check.minimum as number;
        if (check.check === "max_length") maxLength = Math.min(maxLength, check.maximum as number);
      }
      return fc.array(inner("element"), { minLength, maxLength: Math.max(minLength, maxLength) });
    }
    case "record":
      return fc.dictionary(fc.string({ maxLength: 12 }), inner("valueType"), { maxKeys: 4 });
    case "object":
      return arbitraryForShape(def.shape as Record<string, z.ZodType>, depth + 1);
    default:
      return smallJson;
  }
}

/** An arbitrary for an object of these fields: required ones always, the others sometimes. */
export function arbitraryForShape(
  shape: Record<string, z.ZodType>,
  depth = 0,
): fc.Arbitrary<Record<string, unknown>> {
  const required = Object.keys(shape).filter(
    (key) => (shape[key] as unknown as { _zod: { optin?: string } })._zod.optin === undefined,
  );
  const fields = Object.fromEntries(
    Object.entries(shape).map(([key, field]) => [key, arbitraryFor(field, depth)]),
  );
  return fc.record(fields, { requiredKeys: required }) as fc.Arbitrary<Record<string, unknown>>;
}
