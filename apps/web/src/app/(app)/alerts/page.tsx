import { Suspense } from "react";
import { AlertsPage } from "~/components/alerts/alerts-page";
import { parseView, timelineRequest } from "~/components/alerts/url-state";
import { getQueryClient, HydrateClient, serverTRPC } from "~/trpc/server";

type SearchParams = Record<string, string | string[] | undefined>;

function toURLSearchParams(record: SearchParams): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(record)) for (const v of [value ?? []].flat()) params.append(key, v);
  return params;
}

/**
 * The timeline's query starts here, while the browser is still loading the page's scripts, and
 * its answer streams in with the HTML (not awaited: the page shell goes out first). Waiting for
 * hydration to ask for it would put the query after everything else.
 */
export default async function AlertsRoute({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const view = parseView(toURLSearchParams(await searchParams));
  const now = Math.floor(Date.now() / 1000) * 1000;
  const queryClient = getQueryClient();
  void queryClient.prefetchQuery(serverTRPC.alerts.timeline.queryOptions(timelineRequest(view, now)));
  void queryClient.prefetchQuery(serverTRPC.session.me.queryOptions());
  return (
    <HydrateClient>
      <Suspense>
        <AlertsPage serverNow={now} />
      </Suspense>
    </HydrateClient>
  );
}
