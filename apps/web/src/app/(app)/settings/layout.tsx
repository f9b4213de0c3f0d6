import type { ReactNode } from "react";
import { SettingsTabs } from "~/components/settings/settings-tabs";
import { currentSession } from "~/server/current-session";

export const dynamic = "force-dynamic";

/** Organisation settings are for admins; the server refuses everything here to others anyway. */
export default async function SettingsLayout({ children }: { children: ReactNode }) {
  const session = await currentSession();
  if (session?.role !== "admin") {
    return (
      <section className="panel">
        <h2>Settings</h2>
        <p className="muted">
          Members, API tokens, the audit log, the organisation's time zone and its Prometheus remote-write settings are for admins of{" "}
          {session?.organizationName}; ask one of them.
        </p>
      </section>
    );
  }
  return (
    <div className="stack">
      <SettingsTabs />
      {children}
    </div>
  );
}
