/** One thing the command palette can go to or run. */
export interface PaletteItem {
  id: string;
  /** The group it is listed under ("Pages", "Fleets", "Actions"). */
  group: string;
  label: string;
  /** A second line: the workspace of a fleet, a runner's labels. */
  detail?: string;
  keywords?: string;
  shortcut?: string;
}

/**
 * How well `query` names `item`: 3 when the label starts with its first word, 2 when a word of the label does, 1 when
 * the label or the keywords contain it anywhere, 0 when not at all. Case and accents are ignored, and
 * every word of the query must be found ("bil alp" finds "billing-alpha").
 */
export function matchScore(item: Pick<PaletteItem, "label" | "keywords" | "detail">, query: string): number {
  const words = fold(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return 1;
  const label = fold(item.label);
  const all = `${label} ${fold(item.keywords ?? "")} ${fold(item.detail ?? "")}`;
  if (!words.every((word) => all.includes(word))) return 0;
  const first = words[0] ?? "";
  if (label.startsWith(first)) return 3;
  if (label.split(/[\s\-_./:]+/).some((part) => part.startsWith(first))) return 2;
  return 1;
}

/**
 * The items that match, best first within each group (groups keep the order they came in), each group cut
 * to `perGroup` so a tenant with a thousand fleets still gets a short list.
 */
export function matchItems<T extends PaletteItem>(items: readonly T[], query: string, perGroup: number): T[] {
  const groups = new Map<string, { item: T; score: number; index: number }[]>();
  items.forEach((item, index) => {
    const score = matchScore(item, query);
    if (score === 0) return;
    const group = groups.get(item.group) ?? [];
    group.push({ item, score, index });
    groups.set(item.group, group);
  });
  return [...groups.values()].flatMap((group) =>
    group
      .sort((a, b) => b.score - a.score || a.index - b.index)
      .slice(0, perGroup)
      .map(({ item }) => item),
  );
}

function fold(text: string): string {
  return text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
}
