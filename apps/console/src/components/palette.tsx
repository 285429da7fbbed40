"use client";

import { Button } from "@fleet/ui";
import type { PageAction } from "../lib/commands.tsx";
import { usePalette } from "../lib/use-palette.ts";
import "./palette.css";
import { countOf } from "../lib/format.ts";

/**
 * The palette's search field over its results: a modal combobox over a listbox. The focus stays in the
 * search field, the arrows move the active option, Enter takes it.
 */
export function Palette({ onClose, actions }: { onClose: () => void; actions: PageAction[] }) {
  const palette = usePalette(actions, onClose);
  const { query, current, results, listId, optionId } = palette;
  return (
    <div className="palette">
      <input
        className="ui-input palette__input"
        type="text"
        role="combobox"
        aria-expanded="true"
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={results.length > 0 ? `${optionId}-${current}` : undefined}
        aria-label="Search pages, fleets, runners, API keys and actions"
        placeholder="Search pages, fleets, runners, keys, actions…"
        autoComplete="off"
        spellCheck={false}
        value={query}
        data-autofocus
        onChange={(event) => palette.search(event.target.value)}
        onKeyDown={palette.onKeyDown}
      />
      <div ref={palette.list} id={listId} role="listbox" aria-label="Results" className="palette__list">
        {palette.groups.map((group) => (
          // biome-ignore lint/a11y/useSemanticElements: a listbox's groups are role="group"; a fieldset is for form controls
          <div
            key={group.name}
            role="group"
            aria-labelledby={`${optionId}-group-${group.name}`}
            className="palette__group"
          >
            <div id={`${optionId}-group-${group.name}`} role="presentation" className="palette__group-name">
              {group.name}
            </div>
            {group.entries.map(({ entry, index }) => (
              // biome-ignore lint/a11y/useKeyWithClickEvents: the keys are the search field's (Enter takes the active option)
              <div
                key={entry.id}
                id={`${optionId}-${index}`}
                role="option"
                aria-selected={index === current}
                data-index={index}
                // Reached by the arrows from the search field (aria-activedescendant), never by Tab.
                tabIndex={-1}
                className="palette__option"
                // The focus stays in the search field; a press only chooses.
                onMouseDown={(event) => event.preventDefault()}
                onMouseMove={() => palette.setActive(index)}
                onClick={() => palette.take(entry)}
              >
                <span className="palette__label">{entry.label}</span>
                {entry.detail ? <span className="palette__detail">{entry.detail}</span> : null}
                {entry.shortcut ? (
                  <span className="palette__shortcut" aria-hidden="true">
                    {entry.shortcut.split(" ").map((key) => (
                      <kbd key={key}>{key}</kbd>
                    ))}
                  </span>
                ) : null}
              </div>
            ))}
          </div>
        ))}
      </div>
      <p className="palette__status" role="status">
        {results.length === 0
          ? `Nothing matches “${query.trim()}”.`
          : `${countOf(results.length, "result")}.`}
        {palette.note ? ` ${palette.note}` : ""}
      </p>
      <div className="palette__footer">
        <span>
          <kbd>↑</kbd> <kbd>↓</kbd> to move, <kbd>Enter</kbd> to go, <kbd>Esc</kbd> to close
        </span>
        <Button size="sm" variant="ghost" onClick={onClose}>
          Close
        </Button>
      </div>
    </div>
  );
}
