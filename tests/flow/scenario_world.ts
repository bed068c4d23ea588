/**
 * A flow harness over a ScenarioDevice without adb or Appium, for the runner's own tests: the real
 * observe tools (ui_get_tree, ui_screenshot) read the device through a recording observer, and stand-in
 * act tools of the shape ACT_CONTRACT.md declares (data: foreground_package, settled, changed, screen;
 * evidence after the act) drive it directly. Every call passes the real gate (runOperation: validation,
 * lock, audit) and the real evidence store in a temporary directory. The end-to-end tests use the real
 * act tools on the simulated device instead.
 */
import { randomUUID } from "node:crypto";
import { createAuditLog, createEvidenceStore, createNodeFileSystem } from "../../src/adapters/evidence/mod.ts";
import { createSystemClock } from "../../src/adapters/system_clock.ts";
import { HarnessError } from "../../src/errors.ts";
import type { FlowHarness } from "../../src/flow/runner.ts";
import type { AuditRecord } from "../../src/ports/evidence.ts";
import { silentLogger } from "../support/silent_logger.ts";
import { locate, summaryFromXml } from "../../src/screen/mod.ts";
import type { Scenario } from "../../src/sim/mod.ts";
import { resolveScenario, ScenarioDevice } from "../../src/sim/mod.ts";
import { defineTool, type OperationContext, type ToolDefinition, type ToolPorts } from "../../src/tools/tool_definition.ts";
import { uiGetTreeTool } from "../../src/tools/ui_get_tree.ts";
import { uiScreenshotTool } from "../../src/tools/ui_screenshot.ts";
import { fakeLock, fakeObserver, type FakeLock, type FakeObserver } from "../support/mcp_fakes.ts";

export interface ScenarioWorld {
  harness: FlowHarness;
  device: ScenarioDevice;
  observer: FakeObserver;
  lock: FakeLock;
  audit: AuditRecord[];
  sessions: { opened: string[]; closed: string[] };
  /** Acts report `settled: false` while this is true (a screen that never holds still). */
  unsettled: boolean;
  /** The device lock's holders at each act (to prove it is held throughout). */
  heldDuringActs: number[];
  artifactsDir: string;
}

export function scenarioWorld(scenario: string | Scenario, artifactsDir: string): ScenarioWorld {
  const device = new ScenarioDevice(resolveScenario(scenario));
  const observer = fakeObserver();
  observer.behaviour.tree = async () => ({
    xml: device.hierarchyXml(),
    screen: { width: device.width, height: device.height, density: device.density },
    keyboard: device.keyboard(),
    foregroundPackage: device.foregroundPackage(),
  });
  observer.behaviour.screenshot = async () => device.screenshotPng();
  const lock = fakeLock();
  const audit: AuditRecord[] = [];
  const fs = createNodeFileSystem();
  const clock = createSystemClock();
  const log = createAuditLog({ directory: artifactsDir, fs });
  const world: ScenarioWorld = {
    device, observer, lock, audit, sessions: { opened: [], closed: [] }, unsettled: false, heldDuringActs: [], artifactsDir,
    harness: {
      deps: {
        ports: { observer, evidence: createEvidenceStore({ directory: artifactsDir, fs, clock }) },
        lock,
        audit: { append: async (record) => { audit.push(record); await log.append(record); } },
        clock,
        logger: silentLogger,
        actionTimeoutMs: 10_000,
        newOperationId: randomUUID,
      },
      tools: [],
      description: `simulated device ${device.serial}`,
      simulated: true,
    },
  };
  world.harness.tools = [uiGetTreeTool, uiScreenshotTool, ...actTools(world)];
  return world;
}

function actTools(world: ScenarioWorld): ToolDefinition[] {
  const { device } = world;
  const act = async (name: string, ctx: OperationContext, ports: ToolPorts, sessionId: string | undefined, work: () => Record<string, unknown>) => {
    if (sessionId !== undefined && (!world.sessions.opened.includes(sessionId) || world.sessions.closed.includes(sessionId))) {
      throw new HarnessError("SESSION_NOT_FOUND", `Session ${sessionId} is unknown or closed.`);
    }
    world.heldDuringActs.push(world.lock.held.size);
    await ports.observer.status({ timeoutMs: ctx.remainingMs() }); // a device that went away fails here, as adb would
    const before = device.hierarchyXml();
    const extra = work();
    const after = device.hierarchyXml();
    const screen = summaryFromXml({
      xml: after,
      context: { width: device.width, height: device.height, density: device.density, keyboard: device.keyboard(), foregroundPackage: device.foregroundPackage() },
    }).summary;
    ctx.attachEvidence(await ports.evidence.savePng(name, device.screenshotPng()));
    return { data: { foreground_package: device.foregroundPackage(), settled: !world.unsettled, changed: before !== after, screen: { ...screen }, ...extra } };
  };
  const target = (selector: Record<string, unknown>) => {
    const element = locate(summaryFromXml({ xml: device.hierarchyXml(), context: {} }).tree, selector);
    return element;
  };
  return [
    defineTool({
      name: "app_launch",
      run: (args, ctx, ports) => act("app_launch", ctx, ports, args.session_id, () => {
        if (!device.launch(args.package)) throw new HarnessError("APP_NOT_FOUND", `${args.package} is not installed.`);
        return { package: args.package };
      }),
    }),
    defineTool({
      name: "settings_open",
      run: (args, ctx, ports) => act("settings_open", ctx, ports, args.session_id, () => (device.launch("com.android.settings"), {})),
    }),
    defineTool({
      name: "ui_tap",
      run: (args, ctx, ports) => act("ui_tap", ctx, ports, args.session_id, () => {
        const element = target(args.selector);
        device.tapAt(element.bounds.left + element.bounds.width / 2, element.bounds.top + element.bounds.height / 2);
        return { target: args.selector, element_label: element.label };
      }),
    }),
    defineTool({
      name: "ui_type_text",
      run: (args, ctx, ports) => act("ui_type_text", ctx, ports, args.session_id, () => {
        const { node, label } = target(args.selector);
        const b = node.bounds!;
        device.setText({ bounds: `[${b.left},${b.top}][${b.right},${b.bottom}]`, class: node.className, "resource-id": node.resourceId }, args.text);
        return { target: args.selector, element_label: label, typed_length: [...args.text].length };
      }),
    }),
    defineTool({
      name: "ui_scroll",
      run: (args, ctx, ports) => act("ui_scroll", ctx, ports, args.session_id, () => (device.scroll(args.direction), { direction: args.direction })),
    }),
    defineTool({
      name: "device_back",
      run: (args, ctx, ports) => act("device_back", ctx, ports, args.session_id, () => (device.back(), {})),
    }),
    defineTool({
      name: "ui_session_open",
      async run() {
        const id = `s${world.sessions.opened.length + 1}`;
        world.sessions.opened.push(id);
        return { data: { session_id: id, expires_at: new Date(Date.now() + 60_000).toISOString(), idle_timeout_s: 60, max_actions: 200 } };
      },
    }),
    defineTool({
      name: "ui_session_close",
      async run(args) {
        const known = world.sessions.opened.includes(args.session_id) && !world.sessions.closed.includes(args.session_id);
        if (known) world.sessions.closed.push(args.session_id);
        return { data: { session_id: args.session_id, closed: known } };
      },
    }),
  ];
}
