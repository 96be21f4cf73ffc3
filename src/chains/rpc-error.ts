/** A failed node call, described without the RPC URL (it often embeds the provider's API key). */
export class RpcError extends Error {
  constructor(
    readonly method: string,
    readonly status: number | undefined,
    detail: string,
    /** The JSON-RPC error code, when the node answered with one. */
    readonly code?: number | undefined,
  ) {
    super(`${method} failed${status ? ` (HTTP ${status})` : ''}: ${detail}`);
  }
}
