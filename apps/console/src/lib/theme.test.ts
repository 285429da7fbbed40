import assert from "node:assert/strict";
import { test } from "node:test";
import { parseTheme, THEME_STORAGE_KEY, themeScript } from "./theme.ts";

test("only the two themes are a choice; anything else stored means the system's", () => {
  assert.equal(parseTheme("dark"), "dark");
  assert.equal(parseTheme("light"), "light");
  assert.equal(parseTheme(null), "system");
  assert.equal(parseTheme("system"), "system");
  assert.equal(parseTheme('"><script>'), "system");
});

/** Runs the head script against a fake storage and root, as the browser would before the first paint. */
function runScript(getItem: (key: string) => string | null) {
  const root = { dataset: {} as Record<string, string> };
  new Function("localStorage", "document", themeScript)({ getItem }, { documentElement: root });
  return root.dataset.theme;
}

test("the head script sets the stored theme on the root, and only a known one", () => {
  const stored = (value: string | null) => (key: string) => (key === THEME_STORAGE_KEY ? value : null);
  assert.equal(runScript(stored("dark")), "dark");
  assert.equal(runScript(stored("light")), "light");
  assert.equal(runScript(stored(null)), undefined);
  assert.equal(runScript(stored("purple")), undefined);
});

test("the head script survives refused storage (a privacy mode): the system's theme applies", () => {
  const refuse = () => {
    throw new Error("denied");
  };
  assert.equal(runScript(refuse), undefined);
});
