"use client";

import { RECEIVER_KINDS, type ReceiverKind } from "@tidemark/alerts";
import { useState } from "react";
import { Field } from "~/components/config/field";
import { serverErrors } from "~/components/config/use-zod-form";
import {
  KIND_LABELS,
  type ReceiverDraft,
  type ReceiverErrors,
  type ReceiverInput,
  receiverInput,
  SEVERITIES,
  URL_HINTS,
} from "./receiver-draft";

/**
 * Adding or changing a receiver: its kind, where it sends, which alerts (severities and
 * host/service/item globs) and how often. Checked as the server checks it before sending; the
 * server's own refusal (an address it may not reach) is shown at the form.
 */
export function ReceiverForm({
  initial,
  title,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  initial: ReceiverDraft;
  title: string;
  submitLabel: string;
  onSubmit: (input: ReceiverInput) => Promise<unknown>;
  onCancel?: () => void;
}) {
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<ReceiverErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const set = <K extends keyof ReceiverDraft>(key: K, value: ReceiverDraft[K]) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  };
  const text = (
    key: "name" | "url" | "emailTo" | "emailFrom" | "host" | "service" | "item" | "repeatMinutes",
    label: string,
    placeholder?: string,
  ) => (
    <Field label={label} error={errors[key]}>
      <input
        aria-label={label}
        aria-invalid={errors[key] !== undefined}
        placeholder={placeholder}
        value={draft[key]}
        onChange={(e) => set(key, e.target.value)}
      />
    </Field>
  );

  async function submit() {
    const checked = receiverInput(draft);
    if (!checked.ok) {
      setErrors(checked.errors);
      setFormError("Some fields are not valid: see the messages under them.");
      return;
    }
    setPending(true);
    setFormError(null);
    try {
      await onSubmit(checked.input);
    } catch (error) {
      const s = serverErrors(error);
      setErrors(s.fields as ReceiverErrors);
      setFormError(s.form ?? "The server refused some fields: see the messages under them.");
    } finally {
      setPending(false);
    }
  }

  return (
    <form
      className="receiver-form"
      aria-label={title}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h3>{title}</h3>
      <div className="tl-form-grid">
        {text("name", "Receiver name", "e.g. on-call mail")}
        <Field label="Kind">
          <select aria-label="Kind" value={draft.kind} onChange={(e) => set("kind", e.target.value as ReceiverKind)}>
            {RECEIVER_KINDS.map((k) => (
              <option key={k} value={k}>
                {KIND_LABELS[k]}
              </option>
            ))}
          </select>
        </Field>
        {text("url", draft.kind === "email" ? "SMTP server" : "URL", URL_HINTS[draft.kind])}
        {draft.kind === "email" && text("emailTo", "To", "ops@example.com, dba@example.com")}
        {draft.kind === "email" && text("emailFrom", "From (optional)", "tidemark@example.com")}
      </div>
      <fieldset className="receiver-severities">
        <legend>Severities (none ticked: every severity)</legend>
        {SEVERITIES.map((s) => (
          <label key={s} className="tl-check">
            <input
              type="checkbox"
              checked={draft.severities.includes(s)}
              onChange={(e) => set("severities", e.target.checked ? [...draft.severities, s] : draft.severities.filter((x) => x !== s))}
            />{" "}
            {s}
          </label>
        ))}
        {errors.severities && <span className="field-error">{errors.severities}</span>}
      </fieldset>
      <div className="tl-form-grid">
        {text("host", "Host matches", "* (any), db*, web0?")}
        {text("service", "Service matches", "*")}
        {text("item", "Item matches", "*")}
        {text("repeatMinutes", "Repeat every (minutes)", draft.kind === "alertmanager" ? "resent every minute anyway" : "empty: send once")}
        <label className="tl-check receiver-enabled">
          <input type="checkbox" checked={draft.enabled} onChange={(e) => set("enabled", e.target.checked)} /> enabled
        </label>
      </div>
      {formError && (
        <p className="error" role="alert">
          {formError}
        </p>
      )}
      <div className="receiver-actions">
        <button type="submit" disabled={pending}>
          {pending ? "Saving…" : submitLabel}
        </button>
        {onCancel && (
          <button type="button" className="secondary" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
