/**
 * Runs once when the server starts. Route handlers cannot see the TCP peer of a request, and
 * X-Forwarded-For is whatever the client sent unless a trusted proxy wrote it; so every incoming
 * request gets the socket's address in PEER_HEADER here, replacing anything a client put there
 * (@tidemark/auth's clientAddress reads it).
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { stampPeerAddress } = await import("./server/peer-address");
  stampPeerAddress();
}
