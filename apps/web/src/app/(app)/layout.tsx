import Link from "next/link";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { NavMenu } from "~/components/nav-menu";
import { OrgInUrl } from "~/components/org-in-url";
import { ScrollableFocus } from "~/components/scrollable-focus";
import { OrgSwitcher } from "~/components/settings/org-switcher";
import { ShortcutHelp } from "~/components/shortcut-help";
import { SignOutButton } from "~/components/sign-out-button";
import { ThemeToggle } from "~/components/theme-toggle";
import { currentSession } from "~/server/current-session";
import { themeChoice } from "~/server/theme";

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
  const theme = await themeChoice();
  // Not prefetched: every page here is rendered per request, so prefetching the topbar's links
  // costs a server render (and a session lookup) per link on every page view, which lands while
  // the page itself is still loading, for a click that usually never comes.
  return (
    <div className="shell">
      <header className="topbar">
        <Link href="/" className="brand" prefetch={false}>
          <span className="brand-mark">≋</span> Tidemark
        </Link>
        <span className="org topbar-org">
          {session.organizationName} · {session.role}
        </span>
        <NavMenu>
          <nav aria-label="Sections">
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
            <span className="who-name" title={session.email}>
              {session.name}
            </span>
            <OrgSwitcher activeOrganizationId={session.organizationId} />
            <ThemeToggle initial={theme} />
            <SignOutButton />
          </div>
        </NavMenu>
      </header>
      <ShortcutHelp />
      <ScrollableFocus />
      <main className="content" id="main">
        <OrgInUrl active={{ id: session.organizationId, slug: session.organizationSlug, name: session.organizationName }} />
        {children}
      </main>
    </div>
  );
}
