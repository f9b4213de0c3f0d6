import { WebhooksPage } from "~/components/alerts/webhooks-page";

export default function WebhooksRoute() {
  return <WebhooksPage />;
}
