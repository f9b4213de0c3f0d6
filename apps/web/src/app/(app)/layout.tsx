import Link from "next/link";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { OrgSwitcher } from "~/components/settings/org-switcher";
import { SignOutButton } from "~/components/sign-out-button";
import { currentSession } from "~/server/current-session";

export const dynamic = "force-dynamic";

const SECTIONS = [
  ["/", "Overview"],
  ["/config/items", "Configuration"],
  ["/import", "Import / export"],
  ["/alerts", "Alerts"],
  ["/deploy", "Deploy"],
  ["/agents", "Agents"],
] as const;

export default async function AppLayout({ children }: { children: ReactNode }) {
  const session = await currentSession();
  if (!session) redirect("/sign-in");
  // Not prefetched: every page here is rendered per request, so prefetching the topbar's links
  // costs a server render (and a session lookup) per link on every page view, which lands while
  // the page itself is still loading, for a click that usually never comes.
  return (
    <div className="shell">
      <header className="topbar">
        <Link href="/" className="brand" prefetch={false}>
          <span className="brand-mark">≋</span> Tidemark
        </Link>
        <nav>
          {SECTIONS.map(([href, label]) => (
            <Link key={href} href={href} prefetch={false}>
              {label}
            </Link>
          ))}
          {session.role === "admin" && (
            <Link href="/settings/members" prefetch={false}>
              Settings
            </Link>
          )}
        </nav>
        <div className="who">
          <span title={session.email}>{session.name}</span>
          <span className="org">
            {session.organizationName} · {session.role}
          </span>
          <OrgSwitcher activeOrganizationId={session.organizationId} />
          <SignOutButton />
        </div>
      </header>
      <main className="content">{children}</main>
    </div>
  );
}
