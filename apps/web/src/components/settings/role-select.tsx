"use client";

import { ROLE_HELP, ROLES, type RoleName } from "./roles";

export function RoleSelect({
  label,
  value,
  onChange,
  disabled,
}: {
  label: string;
  value: RoleName;
  onChange: (role: RoleName) => void;
  disabled?: boolean;
}) {
  return (
    <select
      className="settings-select"
      aria-label={label}
      value={value}
      disabled={disabled}
      onChange={(e) => onChange(e.target.value as RoleName)}
    >
      {ROLES.map((r) => (
        <option key={r} value={r} title={ROLE_HELP[r]}>
          {r}
        </option>
      ))}
    </select>
  );
}
