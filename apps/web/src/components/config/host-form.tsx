"use client";

import { hostSchema } from "@tidemark/model";
import type { z } from "zod";
import { Field } from "./field";
import { useZodForm } from "./use-zod-form";

export const hostFieldsSchema = hostSchema.omit({ services: true });
export type HostFields = z.output<typeof hostFieldsSchema>;

export function HostForm({ initial, submitLabel, onSubmit }: { initial?: HostFields; submitLabel: string; onSubmit: (f: HostFields) => Promise<unknown> }) {
  const form = useZodForm(hostFieldsSchema, initial ?? { name: "", alias: null, description: "" });
  const v = form.values;
  return (
    <form
      className="config-form"
      aria-label="Host"
      onSubmit={(e) => {
        e.preventDefault();
        void form.submit(onSubmit);
      }}
    >
      <Field label="Name" error={form.errors.name}>
        <input aria-label="Name" aria-invalid={!!form.errors.name} value={v.name} onChange={(e) => form.set("name", e.target.value)} />
      </Field>
      <Field label="Alias" error={form.errors.alias}>
        <input aria-label="Alias" value={v.alias ?? ""} onChange={(e) => form.set("alias", e.target.value || null)} />
      </Field>
      <Field label="Description" error={form.errors.description}>
        <input aria-label="Description" value={v.description ?? ""} onChange={(e) => form.set("description", e.target.value)} />
      </Field>
      {form.formError && <p className="error">{form.formError}</p>}
      <button type="submit" disabled={form.pending}>
        {submitLabel}
      </button>
    </form>
  );
}
