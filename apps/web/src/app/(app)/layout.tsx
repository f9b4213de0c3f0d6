import Link from "next/link";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { OrgSwitcher } from "~/components/settings/org-switcher";
import { SignOutButton } from "~/components/sign-out-button";
import { currentSession } from "~/server/current-session";

export const dynamic = "force-dynamic";

export default async function AppLayout({ children }: { children: ReactNode }) {
  const session = await currentSession();
  if (!session) redirect("/sign-in");
  return (
    <div className="shell">
      <header className="topbar">
        <Link href="/" className="brand">
          <span className="brand-mark">≋</span> Tidemark
        </Link>
        <nav>
          <Link href="/">Overview</Link>
          <Link href="/config/items">Configuration</Link>
          <Link href="/import">Import / export</Link>
          <Link href="/alerts">Alerts</Link>
          <Link href="/deploy">Deploy</Link>
          <Link href="/agents">Agents</Link>
          {session.role === "admin" && <Link href="/settings/members">Settings</Link>}
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
