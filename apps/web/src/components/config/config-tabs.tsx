"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import "./config.css";

const TABS = [
  { href: "/config/hosts", label: "Hosts" },
  { href: "/config/services", label: "Services" },
  { href: "/config/items", label: "Service items" },
] as const;

export function ConfigTabs() {
  const path = usePathname();
  return (
    <nav className="tabs" aria-label="Configuration">
      {TABS.map((t) => (
        <Link key={t.href} href={t.href} aria-current={path.startsWith(t.href) ? "page" : undefined}>
          {t.label}
        </Link>
      ))}
    </nav>
  );
}
