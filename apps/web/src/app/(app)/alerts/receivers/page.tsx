import { ReceiversPage } from "~/components/alerts/receivers-page";

export default function ReceiversRoute() {
  return <ReceiversPage />;
}
