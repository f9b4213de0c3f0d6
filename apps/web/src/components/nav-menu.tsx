"use client";

import { usePathname } from "next/navigation";
import { type ReactNode, useEffect, useId, useState } from "react";

/**
 * The top bar's navigation and account controls: in line on a wide screen, behind a Menu button
 * on a narrow one (CSS decides which; the button only toggles). Closes when the page changes.
 */
export function NavMenu({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const pathname = usePathname();
  const id = useId();
  // biome-ignore lint/correctness/useExhaustiveDependencies: closes on every navigation.
  useEffect(() => setOpen(false), [pathname]);
  return (
    <>
      <button type="button" className="menu-button" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
        <span aria-hidden="true">☰</span> Menu
      </button>
      <div id={id} className={`topbar-menu${open ? " is-open" : ""}`}>
        {children}
      </div>
    </>
  );
}
