"use client";

import { hostSchema } from "@tidemark/model";
import type { z } from "zod";
import { FormShell, TextField } from "./field";
import { useZodForm } from "./use-zod-form";

export const hostFieldsSchema = hostSchema.omit({ services: true });
export type HostFields = z.output<typeof hostFieldsSchema>;

export function HostForm({
  initial,
  submitLabel,
  onSubmit,
}: {
  initial?: HostFields;
  submitLabel: string;
  onSubmit: (f: HostFields) => Promise<unknown>;
}) {
  const form = useZodForm(hostFieldsSchema, initial ?? { name: "", alias: null, description: "" });
  const v = form.values;
  return (
    <FormShell
      label="Host"
      submitLabel={submitLabel}
      pending={form.pending}
      formError={form.formError}
      onSubmit={() => void form.submit(onSubmit)}
    >
      <TextField label="Name" value={v.name} error={form.errors.name} onChange={(x) => form.set("name", x)} />
      <TextField label="Alias" value={v.alias ?? ""} error={form.errors.alias} onChange={(x) => form.set("alias", x || null)} />
      <TextField
        label="Description"
        value={v.description ?? ""}
        error={form.errors.description}
        onChange={(x) => form.set("description", x)}
      />
    </FormShell>
  );
}
