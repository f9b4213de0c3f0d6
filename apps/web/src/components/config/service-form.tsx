"use client";

import { serviceSchema } from "@tidemark/model";
import { useState } from "react";
import type { z } from "zod";
import { Field } from "./field";
import { useZodForm } from "./use-zod-form";

export const serviceFieldsSchema = serviceSchema.omit({ items: true });
export type ServiceFields = z.output<typeof serviceFieldsSchema>;

export function ServiceForm({ initial, submitLabel, onSubmit }: { initial?: ServiceFields; submitLabel: string; onSubmit: (f: ServiceFields) => Promise<unknown> }) {
  const form = useZodForm(serviceFieldsSchema, initial ?? { name: "", description: "", schedules: ["5M"], url: "shell://localhost", sendServiceData: true });
  const [schedulesText, setSchedulesText] = useState((initial?.schedules ?? ["5M"]).join("\n"));
  const v = form.values;
  return (
    <form
      className="config-form"
      aria-label="Service"
      onSubmit={(e) => {
        e.preventDefault();
        void form.submit(onSubmit);
      }}
    >
      <Field label="Name" error={form.errors.name}>
        <input aria-label="Name" aria-invalid={!!form.errors.name} value={v.name} onChange={(e) => form.set("name", e.target.value)} />
      </Field>
      <Field label="Connection URL" error={form.errors.url} hint="shell:// (the agent runs a check), bischeck://cache (a calculation), http(s)://, postgres://">
        <input aria-label="Connection URL" aria-invalid={!!form.errors.url} value={v.url} onChange={(e) => form.set("url", e.target.value)} />
      </Field>
      <Field label="Schedules (one a line)" error={form.errors.schedules} hint="30S, 5M, 1H, a Quartz cron expression, or after:host-service">
        <textarea
          aria-label="Schedules"
          rows={2}
          value={schedulesText}
          onChange={(e) => {
            setSchedulesText(e.target.value);
            form.set("schedules", e.target.value.split("\n").map((s) => s.trim()).filter(Boolean));
          }}
        />
      </Field>
      <Field label="Description" error={form.errors.description}>
        <input aria-label="Description" value={v.description ?? ""} onChange={(e) => form.set("description", e.target.value)} />
      </Field>
      <label className="checkbox">
        <input type="checkbox" checked={v.sendServiceData ?? true} onChange={(e) => form.set("sendServiceData", e.target.checked)} /> Send service data
      </label>
      {form.formError && <p className="error">{form.formError}</p>}
      <button type="submit" disabled={form.pending}>
        {submitLabel}
      </button>
    </form>
  );
}
