import { OrganizationPanel } from "~/components/settings/organization-panel";

export default function OrganizationSettingsPage() {
  return <OrganizationPanel />;
}
