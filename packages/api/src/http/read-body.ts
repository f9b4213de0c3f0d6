/** Reads a request body up to `limit` bytes; null when it is larger (the caller answers 413). */
export async function readBodyWithLimit(request: Request, limit: number): Promise<string | null> {
  return (await readBytesWithLimit(request, limit))?.toString("utf8") ?? null;
}

/** The raw bytes of a request body up to `limit` bytes; null when it is larger. */
export async function readBytesWithLimit(request: Request, limit: number): Promise<Buffer | null> {
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (declared > limit) return null;
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
