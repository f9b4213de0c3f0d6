import { AuditPanel } from "~/components/settings/audit-panel";

export default function AuditPage() {
  return <AuditPanel />;
}
