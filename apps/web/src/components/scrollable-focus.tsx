"use client";

import { useEffect } from "react";

const SCROLLERS = "main .table, main .table-scroll, main .summary-grid, main .tl-scroll";

/**
 * A table that scrolls sideways (on a phone), or the alert timeline's lanes scrolling down, must be reachable by keyboard to be scrolled
 * (WCAG 2.1.1; axe's scrollable-region-focusable): whichever of them overflows gets tabindex=0,
 * and loses it again when it fits. Watches the page's changes and the window's size.
 */
export function ScrollableFocus() {
  useEffect(() => {
    let frame = 0;
    const mark = () => {
      frame = 0;
      for (const el of document.querySelectorAll<HTMLElement>(SCROLLERS)) {
        // Downwards only where the element is a scroll container (a table's rows are not).
        const scrolls =
          el.scrollWidth > el.clientWidth + 1 ||
          (/auto|scroll/.test(getComputedStyle(el).overflowY) && el.scrollHeight > el.clientHeight + 1);
        if (scrolls && !el.hasAttribute("tabindex")) {
          el.tabIndex = 0;
          el.dataset.scrollFocus = "";
        } else if (!scrolls && el.dataset.scrollFocus !== undefined) {
          el.removeAttribute("tabindex");
          delete el.dataset.scrollFocus;
        }
      }
    };
    const schedule = () => {
      frame ||= requestAnimationFrame(mark);
    };
    const observer = new MutationObserver(schedule);
    observer.observe(document.body, { childList: true, subtree: true });
    window.addEventListener("resize", schedule);
    schedule();
    return () => {
      observer.disconnect();
      window.removeEventListener("resize", schedule);
      cancelAnimationFrame(frame);
    };
  }, []);
  return null;
}
