import type { ReactNode } from "react";

/** A labelled form field with its error right under it. */
export function Field({ label, error, children, hint }: { label: string; error?: string; children: ReactNode; hint?: string }) {
  return (
    <label className="field">
      <span>{label}</span>
      {children}
      {hint && !error && <span className="muted field-hint">{hint}</span>}
      {error && <span className="field-error">{error}</span>}
    </label>
  );
}
