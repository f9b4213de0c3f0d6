"use client";

import { serviceItemSchema } from "@tidemark/model";
import type { z } from "zod";
import { FormShell, TextField } from "./field";
import { useZodForm } from "./use-zod-form";

export const itemFieldsSchema = serviceItemSchema.omit({ policy: true });
export type ItemFields = z.output<typeof itemFieldsSchema>;

const NEW_ITEM: ItemFields = {
  name: "",
  description: "",
  execStatement: "",
  thresholdClass: null,
  serviceItemClass: null,
  cacheMaxCount: null,
};

export function ItemForm({
  initial,
  submitLabel,
  onSubmit,
}: {
  initial?: ItemFields;
  submitLabel: string;
  onSubmit: (f: ItemFields) => Promise<unknown>;
}) {
  const form = useZodForm(itemFieldsSchema, initial ?? NEW_ITEM);
  const v = form.values;
  return (
    <FormShell
      label="Service item"
      submitLabel={submitLabel}
      pending={form.pending}
      formError={form.formError}
      onSubmit={() => void form.submit(onSubmit)}
    >
      <TextField label="Name" value={v.name} error={form.errors.name} onChange={(x) => form.set("name", x)} />
      <TextField
        label="Exec statement"
        rows={2}
        value={v.execStatement}
        error={form.errors.execStatement}
        hint="A check command for the agent, or an expression such as avg(web01-http-latency[0:9]) for bischeck://"
        onChange={(x) => form.set("execStatement", x)}
      />
      <TextField
        label="Description"
        value={v.description ?? ""}
        error={form.errors.description}
        onChange={(x) => form.set("description", x)}
      />
      <TextField
        label="Keep at most (points)"
        value={v.cacheMaxCount === null || v.cacheMaxCount === undefined ? "" : String(v.cacheMaxCount)}
        error={form.errors.cacheMaxCount}
        hint="Bischeck's cache purge; empty keeps points by retention"
        onChange={(x) => form.set("cacheMaxCount", x === "" ? null : Number(x))}
      />
    </FormShell>
  );
}
