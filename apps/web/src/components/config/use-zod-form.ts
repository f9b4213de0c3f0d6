"use client";

import { TRPCClientError } from "@trpc/client";
import { useState } from "react";
import type { z } from "zod";

export type Errors = Partial<Record<string, string>>;

/** Field messages from a failed call: the API's zod field errors, or a name conflict. */
export function serverErrors(error: unknown): { fields: Errors; form: string | null } {
  if (!(error instanceof TRPCClientError)) return { fields: {}, form: error instanceof Error ? error.message : String(error) };
  const data = error.data as { code?: string; fieldErrors?: Record<string, string[] | undefined> | null } | undefined;
  if (data?.code === "CONFLICT") return { fields: { name: error.message }, form: null };
  const fields: Errors = {};
  for (const [k, v] of Object.entries(data?.fieldErrors ?? {})) if (v?.[0]) fields[k.split(".").at(-1) ?? k] = v[0];
  return { fields, form: Object.keys(fields).length > 0 ? null : error.message };
}

/**
 * A form over one zod object schema (the same one the API validates with): values, the schema's
 * messages per field once submitted, and the server's messages after a failed submit.
 */
export function useZodForm<S extends z.ZodObject>(schema: S, initial: z.input<S>) {
  const [values, setValues] = useState<z.input<S>>(initial);
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  function set<K extends keyof z.input<S>>(key: K, value: z.input<S>[K]) {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => ({ ...e, [key as string]: undefined }));
  }

  async function submit(onValid: (values: z.output<S>) => Promise<unknown>): Promise<boolean> {
    const parsed = schema.safeParse(values);
    if (!parsed.success) {
      const next: Errors = {};
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0] ?? "");
        next[key] ??= issue.message;
      }
      setErrors(next);
      return false;
    }
    setPending(true);
    setFormError(null);
    try {
      await onValid(parsed.data);
      return true;
    } catch (error) {
      const s = serverErrors(error);
      setErrors(s.fields);
      setFormError(s.form);
      return false;
    } finally {
      setPending(false);
    }
  }

  return { values, set, errors, formError, pending, submit, reset: setValues };
}
