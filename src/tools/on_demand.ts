/**
 * The served tools as a server starts with them: one entry per declared available tool, in publication order, that
 * loads `./mod.ts` (every handler and what they use: the device room, the screen model and its XML parser, the PNG
 * work, the adb parsers) when the gate first readies a tool, before it starts the operation's clock. A server that
 * lists its tools, or reads a resource, never loads them (about 0.1 CPU-second of a start under Node 20, which
 * compiles each module anew: docs/performance.md). The handlers themselves, and the compiler's hold on each act
 * tool's pipeline, are mod.ts's `TOOL_HANDLERS`.
 */
import { AVAILABLE_TOOL_NAMES, type ToolName } from "../../contracts/tools.ts";
import type { AnyToolHandler, ToolHandler } from "../ports/operation.ts";

// Each entry is its own name's handler; TS types a map over the names with their union.
export const SERVED_TOOLS_ON_DEMAND: readonly AnyToolHandler[] = AVAILABLE_TOOL_NAMES.map((name) => onDemand(name) as AnyToolHandler);

function onDemand<N extends ToolName>(name: N): ToolHandler<N> {
  let handler: ToolHandler<N> | undefined;
  const load = async (): Promise<ToolHandler<N>> => {
    // A literal specifier: the single executable's bundler follows it.
    const { TOOL_HANDLERS } = await import("./mod.ts");
    // TOOL_HANDLERS holds each name's own handler (ToolHandlers); TS cannot follow that through a generic index.
    return handler ??= TOOL_HANDLERS[name] as ToolHandler<N>;
  };
  return {
    name,
    async ready() {
      if (handler === undefined) await load();
    },
    async run(args, ctx, ports) {
      return await (handler ?? await load()).run(args, ctx, ports);
    },
  };
}
