import http from "node:http";
import { PEER_HEADER } from "@tidemark/auth";

let installed = false;

/** Every HTTP server of this process stamps each request with its socket's remote address. */
export function stampPeerAddress(): void {
  if (installed) return;
  installed = true;
  const emit = http.Server.prototype.emit as (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean;
  http.Server.prototype.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event === "request") {
      const request = args[0] as http.IncomingMessage;
      request.headers[PEER_HEADER] = request.socket.remoteAddress ?? "";
    }
    return emit.call(this, event, ...args);
  } as typeof http.Server.prototype.emit;
}
