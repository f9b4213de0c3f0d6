import { defaultShouldDehydrateQuery, QueryClient } from "@tanstack/react-query";
import superjson from "superjson";

/**
 * The query client's settings, for the browser's client and for the per-request one server
 * components prefetch into. Data crosses from server to browser as superjson (dates stay dates),
 * and a query still running when the page streams out is handed over as its promise: it resolves
 * in the browser when the answer arrives later in the same response, and is not asked again.
 */
export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 10_000, refetchOnWindowFocus: false },
      dehydrate: {
        serializeData: superjson.serialize,
        shouldDehydrateQuery: (query) => defaultShouldDehydrateQuery(query) || query.state.status === "pending",
        // Next.js redacts server errors itself, and recognises its own control-flow errors only unredacted.
        shouldRedactErrors: () => false,
      },
      hydrate: { deserializeData: superjson.deserialize },
    },
  });
}
