/**
 * Checks a parsed scenario file before the sim plays it: the shape (zod, unknown keys rejected) and
 * the cross-references (start/home screens, transition targets, package screens, raw dumps that parse).
 * Returns the typed Scenario or throws HarnessError INVALID_ARGUMENT listing every problem found.
 */
import { z } from "zod";
import { HarnessError } from "../../../contracts/errors.ts";
import { EDITOR_ACTIONS } from "../sim_device.ts";
import { readDump } from "./dump_xml.ts";
import { allNodes, isInput, nodeFromSpec, type SimNode } from "./sim_node.ts";
import { type NodeSpec, type Scenario, TRANSITION_TRIGGERS, type TransitionSpec } from "./types.ts";

const keys = z.object({
  resource_id: z.string().min(1).optional(),
  text: z.string().min(1).optional(),
  content_desc: z.string().min(1).optional(),
  text_contains: z.string().min(1).optional(),
  input_hint: z.string().min(1).optional(),
}).strict();

const selector = keys.extend({ within: keys.optional() }).strict();

const bounds = z.tuple([z.number().int(), z.number().int(), z.number().int(), z.number().int()]);
const byte = z.number().int().min(0).max(255);

const nodeSpec: z.ZodType<NodeSpec> = z.lazy(() =>
  z.object({
    class: z.string().optional(),
    text: z.string().optional(),
    id: z.string().optional(),
    desc: z.string().optional(),
    hint: z.string().optional(),
    bounds,
    package: z.string().optional(),
    clickable: z.boolean().optional(),
    checkable: z.boolean().optional(),
    checked: z.boolean().optional(),
    enabled: z.boolean().optional(),
    focusable: z.boolean().optional(),
    focused: z.boolean().optional(),
    scrollable: z.boolean().optional(),
    longClickable: z.boolean().optional(),
    password: z.boolean().optional(),
    selected: z.boolean().optional(),
    children: z.array(nodeSpec).optional(),
  }).strict()
);

const faults = z.object({
  hangCommands: z.array(z.string().min(1)).optional(),
  state: z.enum(["device", "offline", "unauthorized"]).optional(),
  bootCompleted: z.boolean().optional(),
  offlineAfterRequests: z.number().int().min(0).optional(),
  dumpError: z.object({ kind: z.enum(["null root node", "could not get idle state"]), count: z.number().int().min(0) }).strict().optional(),
  blankScreencap: z.boolean().optional(),
  tickingClock: z.boolean().optional(),
  uia2Error500: z.boolean().optional(),
  uia2SessionDiesAfter: z.number().int().min(0).optional(),
}).strict();

const packageName = z.string().regex(/^[A-Za-z][\w]*(\.[A-Za-z][\w]*)+$/, "not an Android package name");

const scenarioSchema = z.object({
  name: z.string().min(1),
  description: z.string(),
  android: z.object({
    serial: z.string().regex(/^[\w.:-]+$/, "letters, digits, '.', ':', '-' only"),
    api: z.union([z.literal(33), z.literal(35)]),
    release: z.string().min(1),
    model: z.string().min(1),
    product: z.string().min(1),
    device: z.string().min(1),
    manufacturer: z.string().min(1),
    brand: z.string().min(1),
    width: z.number().int().min(16).max(8192),
    height: z.number().int().min(16).max(8192),
    density: z.number().int().min(60).max(1000),
    adbFeatures: z.array(z.string().min(1)).optional(),
  }).strict(),
  home: z.string().optional(),
  start: z.string().min(1),
  screens: z.record(
    z.string(),
    z.object({
      package: packageName,
      activity: z.string().min(1),
      root: nodeSpec.optional(),
      xml: z.string().optional(),
      keyboard: z.object({ top: z.number().int().min(0), openOnEnter: z.boolean().optional() }).strict().optional(),
      rotation: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]).optional(),
      after: z.object({ ms: z.number().int().min(1).max(600_000), to: z.string().min(1) }).strict().optional(),
      filter: z.object({
        field: z.string().min(1),
        row: z.string().min(1),
        match: z.string().min(1).optional(),
        count: z.string().min(1).optional(),
        empty: z.string().min(1),
      }).strict().optional(),
      paint: z.object({
        frame_ms: z.number().int().min(1).max(600_000),
        frames: z.array(
          z.array(
            z.object({
              rect: bounds,
              rgb: z.tuple([byte, byte, byte]),
            }).strict(),
          ).max(200),
        ).min(1).max(60),
      }).strict().optional(),
    }).strict(),
  ),
  packages: z.array(
    z.object({
      name: packageName,
      system: z.boolean().optional(),
      screen: z.string().optional(),
      activity: z.string().optional(),
      label: z.string().optional(),
      data: z.array(z.string().min(1)).optional(),
      launchWhen: z.array(z.object({ flag: z.string().min(1), screen: z.string().min(1) }).strict()).optional(),
    }).strict(),
  ),
  transitions: z.array(
    z.object({
      from: z.union([z.string(), z.array(z.string())]).optional(),
      on: z.enum(TRANSITION_TRIGGERS),
      selector: selector.optional(),
      to: z.string().min(1),
      sets: z.string().min(1).optional(),
      replace: z.boolean().optional(),
      ime_action: z.enum(EDITOR_ACTIONS).optional(),
      saves: z.object({ list: z.string().min(1), texts: z.record(z.string().min(1), z.string().min(1)) }).strict().optional(),
      header: z.object({ from: z.string().min(1), into: z.string().min(1) }).strict().optional(),
    }).strict(),
  ),
  links: z.array(
    z.object({ prefix: z.string().regex(/^[a-z][a-z0-9+.-]*:/, "a URL prefix with its scheme"), screen: z.string().min(1) }).strict(),
  ).optional(),
  notifications: z.array(
    z.object({ package: packageName, title: z.string().min(1), text: z.string(), screen: z.string().optional() }).strict(),
  ).optional(),
  faults: faults.optional(),
  frozen: z.boolean().optional(),
}).strict();

export function validateScenario(input: unknown, source = "scenario"): Scenario {
  const parsed = scenarioSchema.safeParse(input);
  if (!parsed.success) {
    const lines = parsed.error.issues.slice(0, 8).map((i) => `${i.path.join(".") || "(top)"}: ${i.message}`);
    throw invalid(source, lines);
  }
  const scenario = parsed.data as Scenario;
  const problems = crossReferenceProblems(scenario);
  if (problems.length > 0) throw invalid(source, problems);
  return scenario;
}

function crossReferenceProblems(s: Scenario): string[] {
  const problems: string[] = [];
  const screenIds = new Set(Object.keys(s.screens));
  const known = (id: string, where: string) => {
    if (!screenIds.has(id)) problems.push(`${where}: unknown screen "${id}" (screens are: ${[...screenIds].join(", ")})`);
  };
  known(s.start, "start");
  if (s.home !== undefined) known(s.home, "home");
  for (const [id, screen] of Object.entries(s.screens)) {
    if ((screen.root === undefined) === (screen.xml === undefined)) {
      problems.push(`screens.${id}: give exactly one of "root" (a node tree) or "xml" (a uiautomator dump)`);
    }
    if (screen.xml !== undefined) {
      try {
        readDump(screen.xml);
      } catch (error) {
        problems.push(`screens.${id}.xml: ${(error as Error).message}`);
      }
    }
    if (screen.after !== undefined) known(screen.after.to, `screens.${id}.after.to`);
    if (screen.filter !== undefined) {
      const { field, row, match, count, empty } = screen.filter;
      const nodes = nodesOf(s, id);
      if (nodes !== null && !nodes.some((n) => isInput(n) && n.attrs["resource-id"] === field)) {
        problems.push(`screens.${id}.filter.field: no input with resource-id "${field}" on the screen`);
      }
      for (const [key, rid] of [["row", row], ["match", match], ["count", count], ["empty", empty]] as const) {
        if (nodes === null || rid === undefined || nodes.some((n) => n.attrs["resource-id"] === rid)) continue;
        problems.push(`screens.${id}.filter.${key}: no node with resource-id "${rid}" on the screen`);
      }
    }
    if (screen.keyboard !== undefined && screen.keyboard.top >= s.android.height) {
      problems.push(`screens.${id}.keyboard.top: ${screen.keyboard.top} is below the screen height ${s.android.height}`);
    }
  }
  s.transitions.forEach((t, i) => {
    for (const from of [t.from ?? []].flat()) known(from, `transitions.${i}.from`);
    if (t.to.startsWith("@launch:")) {
      const pkg = t.to.slice("@launch:".length);
      if (!s.packages.some((p) => p.name === pkg)) problems.push(`transitions.${i}.to: "${pkg}" is not in "packages"`);
    } else if (t.to !== "@back") known(t.to, `transitions.${i}.to`);
    if (!t.on.startsWith("scroll_") && t.selector === undefined) problems.push(`transitions.${i}: a "${t.on}" transition needs a selector`);
    if (t.saves !== undefined && t.on !== "tap") problems.push(`transitions.${i}.saves: only a "tap" transition saves`);
    if (t.saves !== undefined) problems.push(...savesProblems(s, t.saves, [t.from ?? []].flat(), t.to, `transitions.${i}.saves`));
    if (t.header !== undefined && t.on !== "tap" && t.on !== "long_press") {
      problems.push(`transitions.${i}.header: only a "tap" or "long_press" transition names what was pressed`);
    }
    if (t.ime_action !== undefined && t.on !== "submit") {
      problems.push(`transitions.${i}.ime_action: only a "submit" transition answers an IME action`);
    }
  });
  const names = new Set<string>();
  s.packages.forEach((p, i) => {
    if (names.has(p.name)) problems.push(`packages.${i}: "${p.name}" is listed twice`);
    names.add(p.name);
    if (p.screen !== undefined) known(p.screen, `packages.${i}.screen`);
    p.launchWhen?.forEach((w, j) => known(w.screen, `packages.${i}.launchWhen.${j}.screen`));
  });
  s.links?.forEach((l, i) => known(l.screen, `links.${i}.screen`));
  s.notifications?.forEach((n, i) => {
    if (n.screen !== undefined) known(n.screen, `notifications.${i}.screen`);
    if (!names.has(n.package)) problems.push(`notifications.${i}.package: "${n.package}" is not in "packages"`);
  });
  for (const [id, screen] of Object.entries(s.screens)) {
    if (!names.has(screen.package)) problems.push(`screens.${id}.package: "${screen.package}" is not in "packages"`);
  }
  return problems;
}

/** The nodes a screen starts with, or null when it is unknown or its dump does not parse (reported apart). */
function nodesOf(s: Scenario, id: string): SimNode[] | null {
  const screen = s.screens[id];
  if (screen === undefined) return null;
  try {
    if (screen.root !== undefined) return allNodes([nodeFromSpec(screen.root, screen.package)]);
    return screen.xml === undefined ? null : allNodes(readDump(screen.xml).roots);
  } catch {
    return null;
  }
}

/** A Save's inputs must be on each screen it is tapped from, its list on the screen it goes to (unknown for @back). */
function savesProblems(s: Scenario, saves: NonNullable<TransitionSpec["saves"]>, from: string[], to: string, where: string): string[] {
  const problems: string[] = [];
  if (Object.keys(saves.texts).length === 0) problems.push(`${where}.texts: names no input, so nothing would ever be saved`);
  const listOn = to.startsWith("@") ? null : nodesOf(s, to);
  if (listOn !== null && !listOn.some((n) => n.attrs["resource-id"] === saves.list)) {
    problems.push(`${where}.list: no node with resource-id "${saves.list}" on the screen "${to}"`);
  }
  for (const screen of from) {
    const nodes = nodesOf(s, screen);
    for (const [rowId, inputId] of Object.entries(saves.texts)) {
      if (nodes === null || nodes.some((n) => isInput(n) && n.attrs["resource-id"] === inputId)) continue;
      problems.push(`${where}.texts.${rowId}: no input with resource-id "${inputId}" on the screen "${screen}"`);
    }
  }
  return problems;
}

function invalid(source: string, lines: string[]): HarnessError {
  return new HarnessError(
    "INVALID_ARGUMENT",
    `The ${source} is not a valid simulated-device scenario:\n  - ${
      lines.join("\n  - ")
    }\nFix the file (see docs/simulated-device.md) and start the sim again.`,
    { problems: lines },
  );
}
