"use client";

import { type ReactNode, useId } from "react";

export interface Choice<T extends string> {
  value: T;
  label: string;
  /** A line under the label saying what the choice means (radio cards only). */
  description?: ReactNode;
}

interface ChoiceGroupProps<T extends string> {
  /** The group's name, as a legend (radio cards) or an accessible name (segmented control). */
  label: string;
  value: T;
  choices: readonly Choice<T>[];
  onChange: (value: T) => void;
  name?: string;
}

/**
 * One of a few options, as cards with a line of explanation each. Native radios in a fieldset: arrow
 * keys move the choice and screen readers announce "1 of 2".
 */
export function RadioCards<T extends string>({ label, value, choices, onChange, name }: ChoiceGroupProps<T>) {
  const generated = useId();
  const group = name ?? generated;
  return (
    <fieldset className="ui-radio-cards">
      <legend className="ui-label">{label}</legend>
      <div className="ui-radio-cards__options">
        {choices.map((choice) => {
          const id = `${group}-${choice.value}`;
          return (
            <label key={choice.value} htmlFor={id} className="ui-radio-card">
              <input
                id={id}
                type="radio"
                name={group}
                value={choice.value}
                checked={value === choice.value}
                onChange={() => onChange(choice.value)}
                // Named by the label alone; the explanation is read after it, as a description.
                aria-labelledby={`${id}-label`}
                aria-describedby={choice.description ? `${id}-description` : undefined}
              />
              <span className="ui-radio-card__text">
                <span id={`${id}-label`} className="ui-radio-card__label">
                  {choice.label}
                </span>
                {choice.description ? (
                  <span id={`${id}-description`} className="ui-radio-card__description">
                    {choice.description}
                  </span>
                ) : null}
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}

/** A compact switch between two or three views of the same thing (native radios, styled as segments). */
export function SegmentedControl<T extends string>({
  label,
  value,
  choices,
  onChange,
  name,
}: ChoiceGroupProps<T>) {
  const generated = useId();
  const group = name ?? generated;
  return (
    <div className="ui-segmented" role="radiogroup" aria-label={label}>
      {choices.map((choice) => {
        const id = `${group}-${choice.value}`;
        return (
          <span key={choice.value} className="ui-segmented__option">
            <input
              id={id}
              type="radio"
              name={group}
              value={choice.value}
              checked={value === choice.value}
              onChange={() => onChange(choice.value)}
            />
            <label htmlFor={id}>{choice.label}</label>
          </span>
        );
      })}
    </div>
  );
}
