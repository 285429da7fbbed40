/** The colour theme: the system's (the default), or one the person chose, remembered in this browser. */
export type ThemeChoice = "system" | "light" | "dark";

export const THEME_STORAGE_KEY = "fleet-theme";

/**
 * Runs in the document's head before the first paint, so a chosen theme never flashes the other one.
 * It only sets `data-theme` on the root; the stylesheet's light-dark() pairs do the rest. Storage can be
 * refused (a privacy mode): the system's theme is then the answer.
 */
export const themeScript = `try{var t=localStorage.getItem("${THEME_STORAGE_KEY}");if(t==="light"||t==="dark")document.documentElement.dataset.theme=t}catch(e){}`;

/** A stored value is a choice only if it is one of the two themes; anything else means "system". */
export function parseTheme(stored: string | null): ThemeChoice {
  return stored === "light" || stored === "dark" ? stored : "system";
}

export function readTheme(): ThemeChoice {
  try {
    return parseTheme(localStorage.getItem(THEME_STORAGE_KEY));
  } catch {
    return "system";
  }
}

const CHANGED = "fleet-theme-change";

/** Applies a choice at once and remembers it; "system" forgets the choice. */
export function writeTheme(choice: ThemeChoice) {
  const root = document.documentElement;
  if (choice === "system") delete root.dataset.theme;
  else root.dataset.theme = choice;
  try {
    if (choice === "system") localStorage.removeItem(THEME_STORAGE_KEY);
    else localStorage.setItem(THEME_STORAGE_KEY, choice);
  } catch {
    // Storage refused: the choice holds for this page only.
  }
  window.dispatchEvent(new Event(CHANGED));
}

/** Follows the choice made here and in other tabs of the console (the storage event). */
export function subscribeTheme(onChange: () => void) {
  const onStorage = (event: StorageEvent) => {
    if (event.key !== THEME_STORAGE_KEY && event.key !== null) return;
    const choice = parseTheme(event.newValue);
    const root = document.documentElement;
    if (choice === "system") delete root.dataset.theme;
    else root.dataset.theme = choice;
    onChange();
  };
  window.addEventListener(CHANGED, onChange);
  window.addEventListener("storage", onStorage);
  return () => {
    window.removeEventListener(CHANGED, onChange);
    window.removeEventListener("storage", onStorage);
  };
}
