"use client";

import { serviceItemSchema } from "@tidemark/model";
import type { z } from "zod";
import { Field } from "./field";
import { useZodForm } from "./use-zod-form";

export const itemFieldsSchema = serviceItemSchema.omit({ policy: true });
export type ItemFields = z.output<typeof itemFieldsSchema>;

const EMPTY: ItemFields = { name: "", description: "", execStatement: "", thresholdClass: null, serviceItemClass: null, cacheMaxCount: null };

export function ItemForm({ initial, submitLabel, onSubmit }: { initial?: ItemFields; submitLabel: string; onSubmit: (f: ItemFields) => Promise<unknown> }) {
  const form = useZodForm(itemFieldsSchema, initial ?? EMPTY);
  const v = form.values;
  return (
    <form
      className="config-form"
      aria-label="Service item"
      onSubmit={(e) => {
        e.preventDefault();
        void form.submit(onSubmit);
      }}
    >
      <Field label="Name" error={form.errors.name}>
        <input aria-label="Name" aria-invalid={!!form.errors.name} value={v.name} onChange={(e) => form.set("name", e.target.value)} />
      </Field>
      <Field label="Exec statement" error={form.errors.execStatement} hint="A check command for the agent, or an expression such as avg(web01-http-latency[0:9]) for bischeck://">
        <textarea aria-label="Exec statement" aria-invalid={!!form.errors.execStatement} rows={2} value={v.execStatement} onChange={(e) => form.set("execStatement", e.target.value)} />
      </Field>
      <Field label="Description" error={form.errors.description}>
        <input aria-label="Description" value={v.description ?? ""} onChange={(e) => form.set("description", e.target.value)} />
      </Field>
      <Field label="Keep at most (points)" error={form.errors.cacheMaxCount} hint="Bischeck's cache purge; empty keeps points by retention">
        <input
          aria-label="Keep at most"
          inputMode="numeric"
          value={v.cacheMaxCount ?? ""}
          onChange={(e) => form.set("cacheMaxCount", e.target.value === "" ? null : Number(e.target.value))}
        />
      </Field>
      {form.formError && <p className="error">{form.formError}</p>}
      <button type="submit" disabled={form.pending}>
        {submitLabel}
      </button>
    </form>
  );
}
