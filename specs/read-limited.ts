/**
 * Reads a byte stream to its end, or stops at `limit` bytes: the bytes read, or undefined when the stream holds
 * more than the limit (the rest is cancelled, never buffered).
 */
export async function readStreamLimited(stream: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array | undefined> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
