"use client";

import type { RolePreset } from "@fleet/contracts";
import { useId } from "react";

/** A preset as the picker offers it: why it cannot be chosen, when it cannot. */
export interface OfferedPreset {
  preset: RolePreset;
  unavailable: string | null;
}

/**
 * The role presets as radio cards, with "Custom" chosen whenever the ticks match none. A preset the person
 * cannot grant stays in its place, disabled, saying why in a tooltip (its description for screen readers).
 */
export function PresetChoice({
  offered,
  chosen,
  onChoose,
}: {
  offered: readonly OfferedPreset[];
  /** The preset the ticks are exactly; undefined: custom. */
  chosen: string | undefined;
  onChoose: (preset: RolePreset) => void;
}) {
  const group = useId();
  return (
    <fieldset className="preset-choice">
      <legend className="ui-label">Role preset</legend>
      <div className="preset-choice__options">
        {offered.map(({ preset, unavailable }) => {
          const id = `${group}-${preset.id}`;
          return (
            <div key={preset.id} className="preset-choice__option">
              <label htmlFor={id} className="ui-radio-card" data-unavailable={unavailable ? "" : undefined}>
                <input
                  id={id}
                  type="radio"
                  name={`${group}-preset`}
                  value={preset.id}
                  checked={chosen === preset.id}
                  aria-disabled={unavailable ? true : undefined}
                  aria-labelledby={`${id}-label`}
                  aria-describedby={`${id}-description${unavailable ? ` ${id}-why` : ""}`}
                  onChange={() => {
                    if (!unavailable) onChoose(preset);
                  }}
                />
                <span className="ui-radio-card__text">
                  <span id={`${id}-label`} className="ui-radio-card__label">
                    {preset.label}
                  </span>
                  <span id={`${id}-description`} className="ui-radio-card__description">
                    {preset.description}
                  </span>
                </span>
              </label>
              {unavailable ? (
                <span role="tooltip" id={`${id}-why`} className="ui-tooltip preset-choice__tip">
                  {unavailable}
                </span>
              ) : null}
            </div>
          );
        })}
        <div className="preset-choice__option">
          <label htmlFor={`${group}-custom`} className="ui-radio-card">
            <input
              id={`${group}-custom`}
              type="radio"
              name={`${group}-preset`}
              value="custom"
              checked={chosen === undefined}
              aria-labelledby={`${group}-custom-label`}
              aria-describedby={`${group}-custom-description`}
              // Custom is what the ticks are when they match no preset; choosing it changes no tick.
              onChange={() => {}}
            />
            <span className="ui-radio-card__text">
              <span id={`${group}-custom-label`} className="ui-radio-card__label">
                Custom
              </span>
              <span id={`${group}-custom-description`} className="ui-radio-card__description">
                Exactly the scopes ticked below.
              </span>
            </span>
          </label>
        </div>
      </div>
    </fieldset>
  );
}
