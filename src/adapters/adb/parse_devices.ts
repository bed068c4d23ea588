/**
 * Parses `adb devices` and `adb devices -l`: one entry per device line, whatever the separators
 * (tab, or spaces from a console copy), CRLF, a trailing space after the header, daemon start-up
 * lines before it, `no permissions (...)` states and `-l` properties. Pure; never throws.
 */
import { toLines } from "./text_lines.ts";

export type DeviceState = "device" | "offline" | "unauthorized" | "no permissions" | string;

export interface ListedDevice {
  serial: string;
  state: DeviceState;
  /** `-l` fields such as `usb`, `product`, `model`, `device`, `transport_id`. */
  properties: Record<string, string>;
  /** The text after `no permissions`, when adb explains it (udev rules, plugdev group). */
  detail?: string;
}

const KNOWN_STATES = [
  "no permissions",
  "unauthorized",
  "authorizing",
  "connecting",
  "offline",
  "device",
  "recovery",
  "rescue",
  "sideload",
  "bootloader",
  "host",
  "unknown",
  "no device",
];

export function parseAdbDevices(text: string): ListedDevice[] {
  const devices: ListedDevice[] = [];
  for (const line of toLines(text)) {
    if (line === "" || line.startsWith("* ") || line.startsWith("List of devices attached")) continue;
    if (/^(adb:|adb server|error:|This adb|Try '|Otherwise )/.test(line)) continue;
    const parsed = parseDeviceLine(line);
    if (parsed !== null) devices.push(parsed);
  }
  return devices;
}

function parseDeviceLine(line: string): ListedDevice | null {
  const match = /^(\S+)\s+(.*)$/.exec(line);
  if (match === null) return null;
  const serial = match[1]!;
  const rest = match[2]!;
  const state = KNOWN_STATES.find((s) =>
    rest === s || rest.startsWith(`${s} `) || rest.startsWith(`${s}(`) ||
    rest.startsWith(`${s};`)
  );
  if (state === undefined) return null;
  const tail = rest.slice(state.length).trim();
  const device: ListedDevice = { serial, state, properties: {} };
  if (state === "no permissions") {
    if (tail !== "") device.detail = tail;
    return device;
  }
  for (const field of tail.split(/\s+/)) {
    const colon = field.indexOf(":");
    if (colon > 0) device.properties[field.slice(0, colon)] = field.slice(colon + 1);
  }
  return device;
}
