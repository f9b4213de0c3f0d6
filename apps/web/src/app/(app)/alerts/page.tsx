import { Suspense } from "react";
import { AlertsPage } from "~/components/alerts/alerts-page";

export default function AlertsRoute() {
  return (
    <Suspense>
      <AlertsPage />
    </Suspense>
  );
}
