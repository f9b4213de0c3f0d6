import type { ReactNode } from "react";
import { ConfigTabs } from "~/components/config/config-tabs";

export default function ConfigLayout({ children }: { children: ReactNode }) {
  return (
    <div className="stack">
      <ConfigTabs />
      {children}
    </div>
  );
}
