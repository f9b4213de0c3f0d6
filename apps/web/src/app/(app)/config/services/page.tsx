import { ServicesList } from "~/components/config/services-list";

export default function ServicesPage() {
  return <ServicesList />;
}
