"use client";

import { serviceSchema } from "@tidemark/model";
import { useState } from "react";
import type { z } from "zod";
import { AgentSelect } from "./agent-select";
import { Field, FormShell, TextField } from "./field";
import { useZodForm } from "./use-zod-form";

export const serviceFieldsSchema = serviceSchema.omit({ items: true });
export type ServiceFields = z.output<typeof serviceFieldsSchema>;

const NEW_SERVICE: ServiceFields = { name: "", description: "", schedules: ["5M"], url: "shell://localhost", sendServiceData: true };

export function ServiceForm({
  initial,
  initialAgentId = null,
  submitLabel,
  onSubmit,
}: {
  initial?: ServiceFields;
  initialAgentId?: string | null;
  submitLabel: string;
  /** `agentId`: the agent that runs it (null: none; calculations always run on the server). */
  onSubmit: (f: ServiceFields, agentId: string | null) => Promise<unknown>;
}) {
  const form = useZodForm(serviceFieldsSchema, initial ?? NEW_SERVICE);
  const [agentId, setAgentId] = useState(initialAgentId);
  const [schedulesText, setSchedulesText] = useState((initial ?? NEW_SERVICE).schedules.join("\n"));
  const v = form.values;
  return (
    <FormShell
      label="Service"
      submitLabel={submitLabel}
      pending={form.pending}
      formError={form.formError}
      onSubmit={() => void form.submit((fields) => onSubmit(fields, agentId))}
    >
      <TextField label="Name" value={v.name} error={form.errors.name} onChange={(x) => form.set("name", x)} />
      <TextField
        label="Connection URL"
        value={v.url}
        error={form.errors.url}
        hint="shell:// (the agent runs a check), bischeck://cache (a calculation), http(s)://, postgres://"
        onChange={(x) => form.set("url", x)}
      />
      {v.url.startsWith("bischeck://") ? (
        <p className="muted">A bischeck:// calculation runs on the server (the worker), not on an agent.</p>
      ) : (
        <Field
          label="Agent"
          hint={
            agentId === null ? "No agent: this service runs nowhere until you pick one" : "The agent that runs this check once deployed"
          }
        >
          <AgentSelect label="Agent" value={agentId} onChange={setAgentId} />
        </Field>
      )}
      <TextField
        label="Schedules"
        rows={2}
        value={schedulesText}
        error={form.errors.schedules}
        hint="One a line: 30S, 5M, 1H, a Quartz cron expression, or after:host-service"
        onChange={(x) => {
          setSchedulesText(x);
          form.set(
            "schedules",
            x
              .split("\n")
              .map((s) => s.trim())
              .filter(Boolean),
          );
        }}
      />
      <TextField
        label="Description"
        value={v.description ?? ""}
        error={form.errors.description}
        onChange={(x) => form.set("description", x)}
      />
      <label className="checkbox">
        <input type="checkbox" checked={v.sendServiceData ?? true} onChange={(e) => form.set("sendServiceData", e.target.checked)} /> Send
        service data
      </label>
    </FormShell>
  );
}
