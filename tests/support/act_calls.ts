/**
 * What the in-process act contract tests share (act_tools, hands, wait_tool): a harness server over the
 * in-memory transport on an act world, one call answered as its envelope, the summary the device's screen
 * gives now (as the tools compute it), and the evidence reference of the n-th screenshot of the fake clock.
 */
import { createHarnessServer } from "../../src/mcp/server.ts";
import { summaryFromCapture } from "../../src/screen/mod.ts";
import { screenFingerprint } from "../../src/png/mod.ts";
import type { ActWorld } from "./act_world.ts";
import { type Connected, connectInMemory, envelopeOf } from "./mcp_client.ts";

/** Runs `body` against a harness server on `world`; closes the client and every UI session after, also on failure. */
export async function withActServer(world: ActWorld, body: (c: Connected) => Promise<void>): Promise<void> {
  const connected = await connectInMemory(createHarnessServer(world.deps));
  try {
    await body(connected);
  } finally {
    await connected.close();
    await world.layer.closeAll("test over");
  }
}

/** tools/call through the SDK client, answered as the envelope. */
export const callEnvelope = async (c: Connected, name: string, args: Record<string, unknown> = {}) =>
  envelopeOf(await c.client.callTool({ name, arguments: args }));

/** The summary the device's current screen gives, as the tools compute it. */
export function deviceScreen(world: ActWorld) {
  const d = world.device;
  return summaryFromCapture({
    xml: d.hierarchyXml(),
    screen: { width: d.width, height: d.height, density: d.density },
    keyboard: d.keyboard(),
    foregroundPackage: d.foregroundPackage(),
  }).summary;
}

/**
 * The summary an act answers for the device's current screen: deviceScreen, with the fingerprint of its screenshot
 * where the screen offers no text and no action (its PNG is then taken before the answer; docs/contract.md).
 */
export function actScreen(world: ActWorld) {
  const screen = deviceScreen(world);
  if (screen.texts.length > 0 || screen.actions.length > 0) return screen;
  return { ...screen, fingerprint: screenFingerprint(world.device.screenshotPng()) };
}

/** The evidence reference of the n-th screenshot stored under the act world's fake clock and store. */
export function evidenceRef(n: number, tool: string) {
  const id = `20261129-231622-${String(282673 + n)}-${tool.replaceAll("_", "-")}.png`;
  return { artifact_id: id, path: `/artifacts/${id}`, uri: `artifact://${id}` };
}
