import { permanentRedirect } from "next/navigation";

/** The receivers page was called Webhooks before it had other kinds: old links land on it. */
export default function WebhooksRoute() {
  permanentRedirect("/alerts/receivers");
}
