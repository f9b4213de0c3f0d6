import type { ReactNode } from "react";

/** A labelled form field with its error right under it. */
export function Field({ label, error, children, hint }: { label: string; error?: string; children: ReactNode; hint?: string }) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the control is passed in as children
    <label className="field">
      <span>{label}</span>
      {children}
      {hint && !error && <span className="muted field-hint">{hint}</span>}
      {error && <span className="field-error">{error}</span>}
    </label>
  );
}

/** A text input (or a textarea with `rows`) in a Field, named by its label. */
export function TextField({
  label,
  value,
  onChange,
  error,
  hint,
  rows,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: string;
  hint?: string;
  rows?: number;
}) {
  const common = {
    "aria-label": label,
    "aria-invalid": error !== undefined,
    value,
    onChange: (e: { target: { value: string } }) => onChange(e.target.value),
  };
  return (
    <Field label={label} error={error} hint={hint}>
      {rows ? <textarea rows={rows} {...common} /> : <input {...common} />}
    </Field>
  );
}

/** The frame of a configuration form: submit without reload, the form-level error, one button. */
export function FormShell({
  label,
  submitLabel,
  pending,
  formError,
  onSubmit,
  children,
}: {
  label: string;
  submitLabel: string;
  pending: boolean;
  formError: string | null;
  onSubmit: () => void;
  children: ReactNode;
}) {
  return (
    <form
      className="config-form"
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {children}
      {formError && <p className="error">{formError}</p>}
      <button type="submit" disabled={pending}>
        {submitLabel}
      </button>
    </form>
  );
}
