"use client";

import { type MemberRole, memberRoles, tenantScopes } from "@fleet/contracts";
import { SelectField } from "@fleet/ui";
import "./scope-picker.css";

/** Groups shown together, in the order the spec's scope table lists them. */
function groupOf(scope: string): string {
  return scope.split(":", 1)[0]!;
}

/**
 * The tenant scopes as checkboxes, grouped by resource. The API refuses a scope the caller does not hold
 * (403 naming it), so every scope is offered and the refusal is shown as it comes.
 */
export function ScopePicker({
  selected,
  name = "scopes",
  offered = tenantScopes,
  hint = "A higher level includes the lower ones (fleet:admin covers fleet:write and fleet:read).",
}: {
  selected: readonly string[];
  name?: string;
  /** The scopes to offer; every tenant scope unless narrowed (an API key offers only its creator's). */
  offered?: readonly string[];
  hint?: string;
}) {
  const groups = new Map<string, string[]>();
  for (const scope of offered) groups.set(groupOf(scope), [...(groups.get(groupOf(scope)) ?? []), scope]);
  return (
    <fieldset className="scope-picker">
      <legend className="ui-label">Scopes</legend>
      <p className="ui-hint">{hint}</p>
      <div className="scope-picker__groups">
        {[...groups].map(([group, scopes]) => (
          <div key={group} className="scope-picker__group">
            {scopes.map((scope) => (
              <label key={scope} className="scope-picker__scope">
                <input type="checkbox" name={name} value={scope} defaultChecked={selected.includes(scope)} />
                <code>{scope}</code>
              </label>
            ))}
          </div>
        ))}
      </div>
    </fieldset>
  );
}

export function RoleField({ value }: { value: MemberRole }) {
  return (
    <SelectField
      label="Role"
      name="role"
      defaultValue={value}
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
    scopes: data.getAll("scopes").map(String) as (typeof tenantScopes)[number][],
    role: String(data.get("role") ?? "member") as MemberRole,
  };
}
