/** A JSON-RPC error as the MCP SDK sends it: `code`, `message` (without the SDK's `MCP error <code>:` prefix), `data`. */
export class ProtocolError extends Error {
  override name = "ProtocolError";

  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}
