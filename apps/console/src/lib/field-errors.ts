import { useCallback, useState } from "react";

export type FieldErrors<F extends string> = Partial<Record<F, string>>;

/** A field's problem removed, the others kept (the same object when it had none, so nothing re-renders). */
export function withoutError<F extends string>(errors: FieldErrors<F>, field: F): FieldErrors<F> {
  if (errors[field] === undefined) return errors;
  const rest = { ...errors };
  delete rest[field];
  return rest;
}

/**
 * A form's problems by field, set on submit. `clear(field)` belongs in the field's change handler: the
 * problem answered a value that is gone, so it goes too, and the next submit checks the new value.
 */
export function useFieldErrors<F extends string>() {
  const [errors, setErrors] = useState<FieldErrors<F>>({});
  const clear = useCallback((field: F) => setErrors((current) => withoutError(current, field)), []);
  return [errors, setErrors, clear] as const;
}

interface Failable {
  isPending: boolean;
  error: unknown;
  reset: () => void;
}

/**
 * A form's `onInput`: the first edit after a refusal forgets it (the refusal answered values that are
 * gone), so a corrected form does not go on showing the old error. Input events bubble from every
 * field: typing, ticking, choosing.
 */
export function forgetOnEdit(...actions: Failable[]) {
  return () => {
    for (const action of actions) if (action.error !== null && !action.isPending) action.reset();
  };
}
