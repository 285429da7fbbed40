"use client";

import { type Choice, SegmentedControl } from "@fleet/ui";
import { useSyncExternalStore } from "react";
import { readTheme, subscribeTheme, type ThemeChoice, writeTheme } from "../lib/theme.ts";

const choices: readonly Choice<ThemeChoice>[] = [
  { value: "system", label: "System" },
  { value: "light", label: "Light" },
  { value: "dark", label: "Dark" },
];

/** System, light or dark: applied at once, remembered in this browser, followed by the console's other tabs. */
export function ThemeSwitch() {
  // The server cannot know the stored choice: it renders "system", the browser corrects it on hydration.
  const theme = useSyncExternalStore(subscribeTheme, readTheme, () => "system" as const);
  return (
    <div className="theme-switch">
      <SegmentedControl label="Theme" name="theme" value={theme} choices={choices} onChange={writeTheme} />
    </div>
  );
}
