"use client";

import { useState } from "react";

/** Keyset pagination state: the cursor of every page visited, so Previous needs no offset. */
export function useKeyset() {
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  return {
    after: cursors.at(-1) ?? null,
    page: cursors.length,
    next: (cursor: string) => setCursors((c) => [...c, cursor]),
    previous: () => setCursors((c) => (c.length > 1 ? c.slice(0, -1) : c)),
    reset: () => setCursors([null]),
  };
}

export function Pager({ keyset, next }: { keyset: ReturnType<typeof useKeyset>; next: string | null | undefined }) {
  return (
    <div className="pager">
      <button type="button" disabled={keyset.page < 2} onClick={keyset.previous}>
        ← Previous
      </button>
      <span className="muted">Page {keyset.page}</span>
      <button type="button" disabled={!next} onClick={() => next && keyset.next(next)}>
        Next →
      </button>
    </div>
  );
}
