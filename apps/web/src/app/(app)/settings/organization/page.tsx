import { OrganizationPanel } from "~/components/settings/organization-panel";
import { PrometheusPanel } from "~/components/settings/prometheus-panel";

export default function OrganizationSettingsPage() {
  return (
    <div className="stack">
      <OrganizationPanel />
      <PrometheusPanel />
    </div>
  );
}
