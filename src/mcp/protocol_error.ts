/**
 * A JSON-RPC error for the SDK's protocol layer to send: an Error whose `code` it copies into the answer. Not
 * the SDK's McpError, whose message already starts "MCP error -32602: " and so reached clients doubled
 * ("MCP error -32602: MCP error -32602: …") once their own McpError wrapped it again.
 */
export function protocolError(code: number, message: string, data?: Record<string, unknown>): Error & { code: number } {
  return Object.assign(new Error(message), data === undefined ? { code } : { code, data });
}
