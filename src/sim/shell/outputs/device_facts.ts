/**
 * The read-only facts every shell renderer needs, gathered from the device in one value, plus stable
 * fake hex ids (window/record hashes) derived from names, so repeated dumps print the same tokens.
 */
import type { ScenarioDevice } from "../../scenario_device.ts";

export interface DeviceFacts {
  api: 33 | 35;
  release: string;
  width: number;
  height: number;
  density: number;
  pkg: string;
  /** Fully qualified activity class. */
  activity: string;
  keyboard: { open: boolean; top?: number };
}

export function factsOf(device: ScenarioDevice): DeviceFacts {
  return {
    api: device.android.api,
    release: device.android.release,
    width: device.width,
    height: device.height,
    density: device.density,
    pkg: device.foregroundPackage(),
    activity: device.foregroundActivity(),
    keyboard: device.keyboard(),
  };
}

/** `com.x/.Main` when the class is inside the package, else `com.x/other.pkg.Main` (as ActivityRecord prints it). */
export function shortComponent(pkg: string, activity: string): string {
  return activity.startsWith(pkg + ".") ? `${pkg}/${activity.slice(pkg.length)}` : `${pkg}/${activity}`;
}

/** A 7-hex-digit token stable for a given name, like the identity hashes Android prints. */
export function hashOf(name: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0;
  return (h & 0xfffffff).toString(16).padStart(7, "0");
}

export function dpi(facts: DeviceFacts): string {
  return `${facts.density}dpi`;
}
