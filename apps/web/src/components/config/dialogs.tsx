"use client";

import { nameSchema } from "@tidemark/model";
import { type ReactNode, useRef, useState } from "react";
import { serverErrors } from "./use-zod-form";

/** A button that asks before it acts; the question names what will be lost. */
export function ConfirmButton({
  label,
  question,
  onConfirm,
  danger = true,
}: {
  label: string;
  question: ReactNode;
  onConfirm: () => Promise<unknown>;
  danger?: boolean;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  return (
    <>
      <button type="button" className={danger ? "danger-button" : "secondary"} onClick={() => dialog.current?.showModal()}>
        {label}
      </button>
      <dialog ref={dialog} className="dialog" aria-label={label}>
        <p>{question}</p>
        {error && <p className="error">{error}</p>}
        <div className="dialog-actions">
          <button type="button" className="secondary" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
          <button
            type="button"
            className={danger ? "danger-button" : undefined}
            disabled={pending}
            onClick={async () => {
              setPending(true);
              setError(null);
              try {
                await onConfirm();
                dialog.current?.close();
              } catch (e) {
                setError(serverErrors(e).form ?? serverErrors(e).fields.name ?? "failed");
              } finally {
                setPending(false);
              }
            }}
          >
            Yes, {label.toLowerCase()}
          </button>
        </div>
      </dialog>
    </>
  );
}

/** Clone under a new name, validated with the model's name rule before it is sent. */
export function CloneButton({
  what,
  initialName,
  onClone,
}: {
  what: string;
  initialName: string;
  onClone: (name: string) => Promise<unknown>;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [name, setName] = useState(`${initialName}-copy`);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  return (
    <>
      <button type="button" className="secondary" onClick={() => dialog.current?.showModal()}>
        Clone
      </button>
      <dialog ref={dialog} className="dialog" aria-label={`Clone ${what}`}>
        <form
          method="dialog"
          onSubmit={async (e) => {
            e.preventDefault();
            const parsed = nameSchema.safeParse(name);
            if (!parsed.success) {
              setError(parsed.error.issues[0]?.message ?? "invalid name");
              return;
            }
            setPending(true);
            try {
              await onClone(parsed.data);
              dialog.current?.close();
            } catch (err) {
              const s = serverErrors(err);
              setError(s.fields.name ?? s.form);
            } finally {
              setPending(false);
            }
          }}
        >
          <label className="field">
            <span>Name of the copy</span>
            <input
              aria-label="Name of the copy"
              value={name}
              onChange={(e) => {
                setName(e.target.value);
                setError(null);
              }}
            />
            {error && <span className="field-error">{error}</span>}
          </label>
          <div className="dialog-actions">
            <button type="button" className="secondary" onClick={() => dialog.current?.close()}>
              Cancel
            </button>
            <button type="submit" disabled={pending}>
              Clone {what}
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
