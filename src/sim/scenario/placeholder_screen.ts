/**
 * The screen a launchable package shows when its scenario gives it none: a full-screen frame with the
 * app's label as title and an "OK" button, ids under the package, so launching any installed app
 * puts that package in front with something to look at.
 */
import type { AndroidSpec, PackageSpec, ScreenSpec } from "./types.ts";

export function placeholderScreen(pkg: PackageSpec, android: AndroidSpec): ScreenSpec {
  const { width: w, height: h } = android;
  const label = pkg.label ?? pkg.name.split(".").pop() ?? pkg.name;
  const declared = pkg.activity ?? ".MainActivity";
  return {
    package: pkg.name,
    activity: declared.startsWith(".") ? pkg.name + declared : declared,
    root: {
      class: "android.widget.FrameLayout",
      bounds: [0, 0, w, h],
      children: [
        { class: "android.widget.TextView", text: label, id: `${pkg.name}:id/title`, bounds: [48, 160, w - 48, 280] },
        { class: "android.widget.Button", text: "OK", id: `${pkg.name}:id/ok`, clickable: true, bounds: [48, 360, w - 48, 504] },
      ],
    },
  };
}
