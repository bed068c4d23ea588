/**
 * A real capture as a still simulated device (`sim --screen dump.xml [--screenshot shot.png]`): the
 * dump (uiautomator or Appium page source) becomes the one screen of a frozen Android 15 scenario; the
 * foreground package, screen size, rotation and an open keyboard are read from the dump itself; the
 * screenshot, when given, is shown instead of a drawn one. Problems are HarnessError INVALID_ARGUMENT,
 * one line each, naming the file.
 */
import { HarnessError } from "../../../contracts/errors.ts";
import { PIXEL_API35 } from "../scenarios/layout.ts";
import { readDump } from "./dump_xml.ts";
import { allNodes, boundsOf, type SimNode } from "./sim_node.ts";
import type { PackageSpec, Scenario, ScreenSpec } from "./types.ts";

export interface CapturedScreen {
  /** The dump's text. */
  xml: string;
  /** The PNG taken with it, if any. */
  png?: Uint8Array;
  /** How messages name the dump (its path), default "the screen dump". */
  xmlName?: string;
  /** How messages name the screenshot, default "the screenshot". */
  pngName?: string;
}

export interface CaptureDevice {
  scenario: Scenario;
  /** Screenshots by screen id, for ScenarioDevice. */
  screenshots: Map<string, Uint8Array>;
}

const SCREEN = "capture";
/** Packages of soft keyboards (Gboard, AOSP LatinIME, Samsung Honeyboard, SwiftKey, Sogou/Baidu …). */
const KEYBOARD_PACKAGE = /inputmethod|honeyboard|swiftkey|keyboard|\.input$|\.ime$/i;
const SYSTEM_UI = "com.android.systemui";
const DUMP_HELP = "Pass a uiautomator dump or an Appium page source (XML with a <hierarchy> root).";

export function captureScenario(capture: CapturedScreen): CaptureDevice {
  const xmlName = capture.xmlName ?? "the screen dump";
  const binary = binaryKind(capture.xml);
  if (binary !== null) throw invalid(`${xmlName} is not a UI dump: it is ${binary}, not XML text. ${DUMP_HELP}`);
  let dump;
  try {
    dump = readDump(capture.xml);
  } catch (error) {
    throw invalid(`${xmlName} is not a UI dump: ${oneLine((error as Error).message)}. ${DUMP_HELP}`);
  }
  const nodes = allNodes(dump.roots);
  const extent = extentOf(dump.roots, dump.declared);
  if (nodes.length === 0 || extent.width === 0 || extent.height === 0) {
    throw invalid(`${xmlName} holds no nodes with bounds (an empty <hierarchy>). ${DUMP_HELP}`);
  }
  const shown = capture.png === undefined ? extent : screenshotSize(capture.png, capture.pngName ?? "the screenshot", extent);
  const rotation = ([0, 1, 2, 3] as const).find((r) => r === dump.rotation) ?? 0;
  const natural = rotation % 2 === 1 ? { width: shown.height, height: shown.width } : shown;
  const main = mainPackageOf(dump.roots);
  const keyboardTop = keyboardTopOf(dump.roots, main);
  const screen: ScreenSpec = {
    package: main,
    activity: `${main}.MainActivity`,
    xml: capture.xml,
    ...(rotation === 0 ? {} : { rotation }),
    ...(keyboardTop === null ? {} : { keyboard: { top: keyboardTop, openOnEnter: true } }),
  };
  const scenario: Scenario = {
    name: `screen ${xmlName}`,
    description: `A still device showing the capture ${xmlName}: acts are answered but change nothing.`,
    android: { ...PIXEL_API35, width: natural.width, height: natural.height, density: densityFor(natural) },
    start: SCREEN,
    screens: { [SCREEN]: screen },
    packages: packagesOf(nodes, main),
    transitions: [],
    frozen: true,
  };
  return { scenario, screenshots: capture.png === undefined ? new Map() : new Map([[SCREEN, capture.png]]) };
}

/** The larger of Appium's declared size and the window roots' extent on each axis. */
function extentOf(roots: readonly SimNode[], declared: { width: number; height: number } | undefined): { width: number; height: number } {
  let width = declared?.width ?? 0, height = declared?.height ?? 0;
  for (const root of roots) {
    const b = boundsOf(root);
    if (b === null) continue;
    width = Math.max(width, b.right);
    height = Math.max(height, b.bottom);
  }
  return { width, height };
}

/** The PNG's size from its header; it must be a PNG and cover the whole dump. */
function screenshotSize(png: Uint8Array, name: string, extent: { width: number; height: number }): { width: number; height: number } {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  const isPng = png.length >= 33 && signature.every((b, i) => png[i] === b) && String.fromCharCode(...png.subarray(12, 16)) === "IHDR";
  if (!isPng) {
    throw invalid(
      `${name} is not a PNG (${png.length} bytes). Pass the PNG taken with the dump (adb exec-out screencap -p > shot.png), or leave --screenshot out to have the screen drawn.`,
    );
  }
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const size = { width: view.getUint32(16), height: view.getUint32(20) };
  if (size.width < extent.width || size.height < extent.height) {
    throw invalid(
      `${name} is ${size.width}x${size.height} but the dump reaches ${extent.width}x${extent.height}: pass the screenshot taken with this dump, or leave --screenshot out.`,
    );
  }
  return size;
}

/** The package owning most nodes outside keyboard windows and the status bar; else the largest window's. */
function mainPackageOf(roots: readonly SimNode[]): string {
  const counts = new Map<string, number>();
  for (const root of roots) {
    if (KEYBOARD_PACKAGE.test(root.attrs["package"] ?? "")) continue;
    for (const node of allNodes([root])) {
      const pkg = node.attrs["package"] ?? "";
      if (pkg !== "" && pkg !== SYSTEM_UI) counts.set(pkg, (counts.get(pkg) ?? 0) + 1);
    }
  }
  const best = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (best !== undefined) return best;
  const named = roots.filter((r) => (r.attrs["package"] ?? "") !== "");
  const area = (n: SimNode) => {
    const b = boundsOf(n);
    return b === null ? 0 : Math.max(0, b.right - b.left) * Math.max(0, b.bottom - b.top);
  };
  return named.sort((a, b) => area(b) - area(a))[0]?.attrs["package"] ?? "android";
}

/** The top of a keyboard window (a root of a keyboard's package that is not the app's own), or null. */
function keyboardTopOf(roots: readonly SimNode[], main: string): number | null {
  let top = Infinity;
  for (const root of roots) {
    const pkg = root.attrs["package"] ?? "";
    if (!KEYBOARD_PACKAGE.test(pkg) || pkg === main) continue;
    for (const node of allNodes([root])) {
      const b = boundsOf(node);
      if (b !== null && b.bottom > b.top) top = Math.min(top, b.top);
    }
  }
  return top === Infinity ? null : top;
}

/** Every package the dump shows, the foreground one launchable; Android's own marked as system. */
function packagesOf(nodes: readonly SimNode[], main: string): PackageSpec[] {
  const names = new Set([main, ...nodes.map((n) => n.attrs["package"] ?? "").filter((p) => p !== "")]);
  return [...names].map((name) => {
    const system = name === "android" || /^com\.(google\.)?android\./.test(name) || KEYBOARD_PACKAGE.test(name);
    return name === main ? { name, system, screen: SCREEN } : { name, system };
  });
}

/** A density that suits the screen's short side (the dump does not say): 420 dpi at 1080 px, as on a Pixel. */
function densityFor(size: { width: number; height: number }): number {
  const short = Math.min(size.width, size.height);
  return short >= 1440 ? 560 : short >= 1080 ? 420 : short >= 720 ? 320 : short >= 480 ? 240 : 160;
}

/** "a PNG image" / "binary data" when the text cannot be a dump, else null. */
function binaryKind(text: string): string | null {
  const head = text.slice(0, 1024);
  if (/^(\u0089|\ufffd)PNG/.test(head)) return "a PNG image (pass it as --screenshot)";
  // deno-lint-ignore no-control-regex
  return /[\u0000-\u0008\u000e-\u001a]|\ufffd{2}/.test(head) ? "binary data" : null;
}

function oneLine(text: string): string {
  // deno-lint-ignore no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f\ufffd]+/g, " ").replace(/\s+/g, " ").trim().slice(0, 160);
}

function invalid(message: string): HarnessError {
  return new HarnessError("INVALID_ARGUMENT", message);
}
