"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import "./settings.css";

const TABS = [
  { href: "/settings/members", label: "Members" },
  { href: "/settings/tokens", label: "API tokens" },
  { href: "/settings/audit", label: "Audit log" },
  { href: "/settings/organization", label: "Organisation" },
];

export function SettingsTabs() {
  const pathname = usePathname();
  return (
    <nav className="settings-tabs" aria-label="Settings">
      {TABS.map((t) => (
        <Link key={t.href} href={t.href} aria-current={pathname === t.href ? "page" : undefined}>
          {t.label}
        </Link>
      ))}
    </nav>
  );
}
