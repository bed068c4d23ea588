/**
 * The one in-process way to call a tool (flow, tree, serve --record's tests): by name, through the same
 * gate as an MCP call (runOperation), answering the tool's envelope with `data` typed by its declaration.
 * A tool this harness does not serve is INVALID_ARGUMENT naming the ones it does.
 */
import type { ToolEnvelope } from "../../contracts/envelope.ts";
import type { ToolData, ToolName } from "../../contracts/tools.ts";
import { HarnessError } from "../errors.ts";
import type { AnyToolHandler, ToolHandler } from "../ports/operation.ts";
import { type CallOptions, type OperationDeps, runOperation } from "./run_operation.ts";

export interface InProcessClient {
  readonly deps: OperationDeps;
  serves(name: ToolName): boolean;
  /** Runs the tool as one operation; the arguments are validated by the gate, as an MCP call's are. */
  call<N extends ToolName>(name: N, args: Record<string, unknown>, options?: CallOptions): Promise<ToolEnvelope<ToolData<N>>>;
}

export function inProcessClient(tools: readonly AnyToolHandler[], deps: OperationDeps): InProcessClient {
  return {
    deps,
    serves: (name) => tools.some((tool) => tool.name === name),
    async call(name, args, options = {}) {
      const handler = handlerOf(tools, name);
      if (handler === undefined) throw unservedTool(name, tools.map((t) => t.name));
      return (await runOperation(handler, args, deps, options)).envelope;
    },
  };
}

/** Runs a tool and answers its data, or throws its typed error (for callers that stop at the first failure). */
export async function callForData<N extends ToolName>(
  client: InProcessClient,
  name: N,
  args: Record<string, unknown>,
): Promise<ToolData<N>> {
  const envelope = await client.call(name, args);
  if (!envelope.ok) throw new HarnessError(envelope.error.code, envelope.error.message, envelope.error.details);
  return envelope.data;
}

function handlerOf<N extends ToolName>(tools: readonly AnyToolHandler[], name: N): ToolHandler<N> | undefined {
  // The served list holds at most one handler per name, each typed by its name (ToolHandlers); TS cannot follow that through find.
  return tools.find((tool) => tool.name === name) as ToolHandler<N> | undefined;
}

function unservedTool(tool: ToolName, served: string[]): HarnessError {
  return new HarnessError(
    "INVALID_ARGUMENT",
    `This harness does not serve ${tool}; it serves ${served.join(", ")}. Update android-mcp-harness or remove the step.`,
    { tool },
  );
}
