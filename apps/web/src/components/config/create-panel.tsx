"use client";

import { type ReactNode, useState } from "react";

/** A button that opens a panel with a creation form, and Cancel to close it again. */
export function CreatePanel({ label, title, children }: { label: string; title: string; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  if (!open) {
    return (
      <div>
        <button type="button" onClick={() => setOpen(true)}>
          {label}
        </button>
      </div>
    );
  }
  return (
    <section className="panel" aria-label={label}>
      <div className="panel-head">
        <h2>{title}</h2>
        <button type="button" className="secondary" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
      {children}
    </section>
  );
}
