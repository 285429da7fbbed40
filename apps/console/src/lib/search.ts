/** A page's search parameters as Next hands them to a server component. */
export type Search = Record<string, string | string[] | undefined>;

/** The first value of a parameter, or undefined when it is absent or empty. */
export function first(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  return text === undefined || text === "" ? undefined : text;
}
