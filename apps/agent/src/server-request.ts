import http from "node:http";
import https from "node:https";

export interface ServerAnswer {
  status: number;
  /** 2xx. */
  ok: boolean;
  text: string;
}

/**
 * One request to the Tidemark server (the agent's token, a JSON body or none), answered with
 * its status and body text. Node's own http client rather than fetch: the first fetch loads
 * undici, which costs an agent about 15 MB of resident memory (a quarter of its budget) and
 * more CPU per request. Node's global agents keep connections alive between requests and
 * retire them before the server's announced keep-alive timeout.
 */
export function serverRequest(
  url: string,
  options: {
    method: "GET" | "POST";
    token: string;
    json?: string;
    /** Gives up when the server has sent nothing for this long. */
    timeoutMs: number;
    signal?: AbortSignal;
  },
): Promise<ServerAnswer> {
  const headers: http.OutgoingHttpHeaders = { authorization: `Bearer ${options.token}` };
  if (options.json !== undefined) {
    headers["content-type"] = "application/json";
    headers["content-length"] = Buffer.byteLength(options.json);
  }
  const client = url.startsWith("https:") ? https : http;
  return new Promise<ServerAnswer>((resolve, reject) => {
    const request = client.request(url, { method: options.method, headers, signal: options.signal }, (response) => {
      response.setEncoding("utf8");
      let text = "";
      response.on("data", (chunk: string) => {
        text += chunk;
      });
      response.once("end", () => {
        const status = response.statusCode ?? 0;
        resolve({ status, ok: status >= 200 && status <= 299, text });
      });
      response.on("error", reject);
      response.once("close", () => {
        if (!response.complete) reject(new Error("the server closed the connection before its answer was complete"));
      });
    });
    request.once("error", reject);
    // A socket timeout rather than AbortSignal.timeout: no timer object per request that outlives
    // it (a long-poll's would live 40 s), only the socket's own idle timer.
    request.setTimeout(options.timeoutMs, () => request.destroy(new Error(`no answer within ${options.timeoutMs / 1000} s`)));
    request.end(options.json);
  });
}
