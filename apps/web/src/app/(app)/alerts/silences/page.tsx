import { Suspense } from "react";
import { SilencesPage } from "~/components/alerts/silences-page";

export default function SilencesRoute() {
  return (
    <Suspense>
      <SilencesPage />
    </Suspense>
  );
}
