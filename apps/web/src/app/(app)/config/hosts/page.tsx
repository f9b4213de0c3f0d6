import { HostsList } from "~/components/config/hosts-list";

export default function HostsPage() {
  return <HostsList />;
}
