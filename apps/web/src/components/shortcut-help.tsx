"use client";

import { useEffect, useRef } from "react";

const SHORTCUTS: [keys: string, what: string][] = [
  ["?", "Show this list"],
  ["Ctrl + S  /  ⌘ + S", "Save the threshold (item page)"],
  ["↑ ↓  (Shift: ×10)", "Move the focused point of the day curve"],
  ["Enter", "Take the highlighted completion in an expression (never a new line)"],
  [
    "Escape",
    "Close a list, a picker or this dialog; undo a day-curve drag; else, on the item page, discard every unsaved change (asks first)",
  ],
  ["Drag across a time chart", "Zoom into that span; Back returns to the range before"],
];

/** Whether a key press belongs to what the user is typing in. */
export const isTyping = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));

/** The keyboard shortcuts, on `?` anywhere outside a text field. */
export function ShortcutHelp() {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "?" || e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return;
      e.preventDefault();
      dialog.current?.showModal();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
  return (
    <dialog ref={dialog} className="shortcut-dialog" aria-labelledby="shortcut-title">
      <h2 id="shortcut-title">Keyboard shortcuts</h2>
      <table className="shortcut-table">
        <tbody>
          {SHORTCUTS.map(([keys, what]) => (
            <tr key={keys}>
              <th scope="row" className="mono">
                {keys}
              </th>
              <td>{what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <form method="dialog">
        <button type="submit">Close</button>
      </form>
    </dialog>
  );
}
