/**
 * Building blocks for the hand-made screens of the built-in scenarios, shaped like the real captures
 * in fixtures/real (Settings rows with android:id/title + summary, toolbars, lists, bottom tabs), and
 * the two simulated phones (API 35 and API 33 Google emulators, 1080x2400 at 420 dpi).
 */
import type { AndroidSpec, NodeSpec } from "../scenario/types.ts";

export const WIDTH = 1080;
export const HEIGHT = 2400;

export const PIXEL_API35: AndroidSpec = {
  serial: "emulator-5554",
  api: 35,
  release: "15",
  model: "sdk_gphone64_x86_64",
  product: "sdk_gphone64_x86_64",
  device: "emu64xa",
  manufacturer: "Google",
  brand: "google",
  width: WIDTH,
  height: HEIGHT,
  density: 420,
};

export const PIXEL_API33: AndroidSpec = {
  ...PIXEL_API35,
  api: 33,
  release: "13",
  model: "sdk_gphone64_x86_64",
  device: "emulator64_x86_64",
};

/** The outer frames every app window has: FrameLayout > LinearLayout > android:id/content. */
export function appWindow(children: NodeSpec[], bounds: NodeSpec["bounds"] = [0, 0, WIDTH, HEIGHT]): NodeSpec {
  return {
    class: "android.widget.FrameLayout",
    bounds,
    children: [{
      class: "android.widget.LinearLayout",
      bounds,
      children: [{ class: "android.widget.FrameLayout", id: "android:id/content", bounds, children }],
    }],
  };
}

export function toolbar(pkg: string, title: string, withBack: boolean): NodeSpec {
  const children: NodeSpec[] = [];
  if (withBack) {
    children.push({ class: "android.widget.ImageButton", desc: "Navigate up", clickable: true, bounds: [0, 136, 147, 283] });
  }
  children.push({ class: "android.widget.TextView", text: title, bounds: [withBack ? 189 : 63, 170, 900, 250] });
  return { class: "android.view.ViewGroup", id: `${pkg}:id/action_bar`, bounds: [0, 136, WIDTH, 283], children };
}

/** A Settings-style row: clickable LinearLayout with an icon, android:id/title and android:id/summary. */
export function settingsRow(title: string, summary: string | undefined, top: number, height = 220): NodeSpec {
  const texts: NodeSpec[] = [{
    class: "android.widget.TextView",
    id: "android:id/title",
    text: title,
    bounds: [189, top + 50, 1017, top + (summary ? 116 : 170)],
  }];
  if (summary !== undefined) {
    texts.push({ class: "android.widget.TextView", id: "android:id/summary", text: summary, bounds: [189, top + 116, 1017, top + 170] });
  }
  return {
    class: "android.widget.LinearLayout",
    clickable: true,
    bounds: [0, top, WIDTH, top + height],
    children: [
      { class: "android.widget.ImageView", id: "android:id/icon", bounds: [63, top + 77, 126, top + 143] },
      { class: "android.widget.RelativeLayout", bounds: [189, top + 50, 1017, top + 170], children: texts },
    ],
  };
}

/** Rows stacked from `top`, each `height` tall. */
export function stackRows(rows: [string, string | undefined][], top: number, height = 220): NodeSpec[] {
  return rows.map(([title, summary], i) => settingsRow(title, summary, top + i * height, height));
}

export function recycler(id: string, top: number, bottom: number, children: NodeSpec[]): NodeSpec {
  return {
    class: "androidx.recyclerview.widget.RecyclerView",
    id,
    scrollable: true,
    focusable: true,
    bounds: [0, top, WIDTH, bottom],
    children,
  };
}
