import Link from "next/link";

const PAGES = [
  ["/alerts", "Timeline"],
  ["/alerts/silences", "Silences"],
  ["/alerts/receivers", "Receivers"],
] as const;

/** The heading of an alert page and the links to the other alert pages. */
export function AlertPagesTitle({ title, current }: { title: string; current: (typeof PAGES)[number][0] }) {
  return (
    <div className="tl-title">
      <h1>{title}</h1>
      <nav className="tl-subnav" aria-label="Alert pages">
        {PAGES.filter(([href]) => href !== current).map(([href, label]) => (
          <Link key={href} href={href} prefetch={false}>
            {label}
          </Link>
        ))}
      </nav>
    </div>
  );
}
