import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/**
 * Serious and critical WCAG 2.1 A/AA violations, summarised so a failure names what to fix. Next streams a
 * dynamic page's metadata after its shell, so a page can show its heading before its `<title>` is set:
 * the pass waits for the title first (a page that never gets one fails here, by name).
 */
export async function seriousViolations(page: Page) {
  await expect(page, "the page has a title").toHaveTitle(/\S/);
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      targets: violation.nodes.map((node) => node.target.join(" ")),
    }));
}
