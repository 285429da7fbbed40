"use client";

import {
  hasScope,
  lackedScopes,
  type MemberRole,
  memberRoles,
  presetOf,
  type RolePreset,
  rolePresets,
  type TenantScope,
  tenantScopes,
} from "@fleet/contracts";
import { SelectField } from "@fleet/ui";
import { useId, useState } from "react";
import { useHeldScopes } from "../../lib/access.ts";
import { PresetChoice } from "./preset-choice.tsx";
import { scopeGroups, scopeWords } from "./scope-words.ts";
import "./scope-picker.css";

/** The first preset, least to most, that someone holding `held` can grant whole; none: no scope. */
export function leastPreset(held: readonly string[]): readonly TenantScope[] {
  return rolePresets.find((preset) => lackedScopes(preset.scopes, held).length === 0)?.scopes ?? [];
}

/**
 * The scopes to grant (a member's, with their role, or an API key's): role presets that tick their scopes,
 * then the tenant scopes as checkboxes grouped by resource, "Custom" whenever the ticks match no preset. A
 * scope the person does not hold cannot be granted (the API refuses it, 403 naming it): its checkbox and
 * the presets holding it are disabled and say why. A scope the grantee already holds (`kept`) can stay.
 */
export function ScopePicker({
  initial,
  kept = [],
  memberRole,
  callerRole,
  name = "scopes",
  hint = "A higher level includes the lower ones (fleet:write covers fleet:read).",
}: {
  initial: readonly string[];
  /** Scopes the grantee holds already: unticking them is allowed even to someone who lacks them. */
  kept?: readonly string[];
  /** For a member: their role, chosen here beside the scopes (Owner is a role as well as a preset). */
  memberRole?: MemberRole;
  /** The role of the person granting, when known: only an owner makes an owner. */
  callerRole?: MemberRole;
  name?: string;
  hint?: string;
}) {
  const held = useHeldScopes();
  const [scopes, setScopes] = useState<readonly string[]>(initial);
  const [chosenRole, setRole] = useState<MemberRole | undefined>(memberRole);
  const hintId = useId();
  const grantable = (scope: string) => held === undefined || hasScope(held, scope) || kept.includes(scope);
  const why = (scope: string) => `You do not hold ${scope}, so you cannot grant it.`;

  const offered = rolePresets.map((preset) => {
    const lacking = preset.scopes.filter((scope) => !grantable(scope) && !scopes.includes(scope));
    const notOwner = memberRole !== undefined && preset.role === "owner" && callerRole === "member";
    return {
      preset,
      unavailable: notOwner
        ? "Only an owner can make an owner."
        : lacking.length > 0
          ? `You do not hold ${lacking.join(", ")}: you can grant only scopes you hold.`
          : null,
    };
  });
  const choose = (preset: RolePreset) => {
    setScopes(preset.scopes);
    if (chosenRole !== undefined) setRole(preset.role);
  };
  const toggle = (scope: string, on: boolean) =>
    setScopes((was) => (on ? [...was, scope] : was.filter((s) => s !== scope)));

  return (
    <div className="scope-picker">
      {chosenRole !== undefined ? <RoleField value={chosenRole} onChange={setRole} /> : null}
      <PresetChoice offered={offered} chosen={presetOf(scopes, chosenRole)?.id} onChoose={choose} />
      <fieldset className="scope-picker__scopes" aria-describedby={hintId}>
        <legend className="ui-label">Scopes</legend>
        <p id={hintId} className="ui-hint">
          {hint}
        </p>
        <div className="scope-picker__groups">
          {scopeGroups.map((group) => (
            <fieldset key={group.resource} className="scope-picker__group">
              <legend className="scope-picker__group-name">{group.label}</legend>
              {tenantScopes
                .filter((scope) => scope.startsWith(`${group.resource}:`))
                .map((scope) => (
                  <ScopeBox
                    key={scope}
                    scope={scope}
                    name={name}
                    checked={scopes.includes(scope)}
                    unavailable={grantable(scope) || scopes.includes(scope) ? null : why(scope)}
                    onChange={(on) => toggle(scope, on)}
                  />
                ))}
            </fieldset>
          ))}
        </div>
      </fieldset>
    </div>
  );
}

/** One scope's checkbox, named by the scope, with what it allows; unavailable, it says why and stays put. */
function ScopeBox({
  scope,
  name,
  checked,
  unavailable,
  onChange,
}: {
  scope: TenantScope;
  name: string;
  checked: boolean;
  unavailable: string | null;
  onChange: (on: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="scope-picker__scope" data-unavailable={unavailable ? "" : undefined}>
      <input
        id={id}
        type="checkbox"
        name={name}
        value={scope}
        checked={checked}
        // Focusable while unavailable, so the reason is reachable by keyboard; a tick does nothing.
        aria-disabled={unavailable ? true : undefined}
        aria-describedby={`${id}-words${unavailable ? ` ${id}-why` : ""}`}
        onChange={(event) => {
          if (!unavailable) onChange(event.target.checked);
        }}
      />
      <label htmlFor={id} className="scope-picker__label">
        <code>{scope}</code>
        <span id={`${id}-words`} className="scope-picker__words">
          {scopeWords[scope]}
        </span>
      </label>
      {unavailable ? (
        <span role="tooltip" id={`${id}-why`} className="ui-tooltip scope-picker__tip">
          {unavailable}
        </span>
      ) : null}
    </div>
  );
}

export function RoleField({ value, onChange }: { value: MemberRole; onChange: (role: MemberRole) => void }) {
  return (
    <SelectField
      label="Role"
      name="role"
      value={value}
      onChange={(event) => onChange(event.target.value as MemberRole)}
      hint="An owner can make and remove owners; the tenant keeps at least one."
    >
      {memberRoles.map((role) => (
        <option key={role} value={role}>
          {role === "owner" ? "Owner" : "Member"}
        </option>
      ))}
    </SelectField>
  );
}

/** The scopes and role a member form was submitted with. */
export function readMemberForm(form: HTMLFormElement) {
  const data = new FormData(form);
  return {
    scopes: data.getAll("scopes").map(String) as TenantScope[],
    role: String(data.get("role") ?? "member") as MemberRole,
  };
}
