/**
 * Built-in scenario "canvas": Android 13 (API 33) game drawn on a SurfaceView, as a Unity or libGDX game is: its
 * accessibility tree is only the window's frames and the surface (no text, no description, nothing clickable), the
 * same on both of its screens, so no selector tells them apart and only the screen's pixels do (issue 26's
 * fingerprint). The title screen (a light sky, the game's name as a dark block, a pulsing "tap to play" bar and a
 * bird that bobs) gives way to the play screen (a night sky, pipes and the bird moving) on a tap anywhere on the
 * surface; BACK returns to the title. Each screen animates in three frames of 400 ms that move a few cells'
 * brightness by less than the fingerprint's default tolerance. A tap lands through the window's content frame
 * (`{"resource_id": "android:id/content"}`), the one node a selector can name.
 */
import type { NodeSpec, PaintRect, Scenario } from "../scenario/types.ts";
import { HEIGHT, PIXEL_API33, WIDTH } from "./layout.ts";
import { SETTINGS_APP, withSettingsApps } from "./settings.ts";

const PKG = "com.example.skyhop";
const ACTIVITY = "com.unity3d.player.UnityPlayerActivity";
const FRAME_MS = 400;

/** The window as a game shows it: decor frame, content frame, and the surface it draws on. */
const surfaceWindow: NodeSpec = {
  class: "android.widget.FrameLayout",
  bounds: [0, 0, WIDTH, HEIGHT],
  children: [{
    class: "android.widget.FrameLayout",
    id: "android:id/content",
    bounds: [0, 0, WIDTH, HEIGHT],
    children: [{ class: "android.view.SurfaceView", bounds: [0, 0, WIDTH, HEIGHT] }],
  }],
};

const fill = (left: number, top: number, right: number, bottom: number, rgb: PaintRect["rgb"]): PaintRect => ({
  rect: [left, top, right, bottom],
  rgb,
});

const BIRD: PaintRect["rgb"] = [255, 214, 0];

/** The title: sky, ground, the name, the "tap to play" bar (its colour pulses) and the bird (it bobs). */
function titleFrame(frame: number): PaintRect[] {
  const bar: PaintRect["rgb"][] = [[250, 200, 60], [225, 175, 40], [238, 188, 50]];
  const birdTop = 1200 + [0, 60, 120][frame]!;
  return [
    fill(0, 0, WIDTH, HEIGHT, [135, 190, 235]),
    fill(0, 1950, WIDTH, HEIGHT, [86, 160, 70]),
    fill(140, 480, 940, 820, [30, 40, 90]),
    fill(290, 1300, 790, 1420, bar[frame]!),
    fill(470, birdTop, 590, birdTop + 100, BIRD),
  ];
}

/** Play: a night sky, the ground, two pipes that scroll a little, the bird that flaps up and down. */
function playFrame(frame: number): PaintRect[] {
  const shift = [0, 12, 24][frame]!;
  const birdTop = 1100 - [0, 40, 20][frame]!;
  return [
    fill(0, 0, WIDTH, HEIGHT, [20, 24, 48]),
    fill(0, 2050, WIDTH, HEIGHT, [60, 52, 40]),
    fill(620 - shift, 150, 760 - shift, 900, [40, 150, 60]),
    fill(620 - shift, 1500, 760 - shift, 2050, [40, 150, 60]),
    fill(200, birdTop, 310, birdTop + 90, BIRD),
  ];
}

const frames = (draw: (frame: number) => PaintRect[]) => ({ frame_ms: FRAME_MS, frames: [0, 1, 2].map(draw) });

export const CANVAS_SCENARIO: Scenario = {
  name: "canvas",
  description: "Android 13 (API 33) game on a SurfaceView: an empty accessibility tree on both screens (title, play), " +
    "told apart only by their pixels (the screen fingerprint); each animates in frames; " +
    "a tap on the surface starts, BACK returns to the title.",
  android: PIXEL_API33,
  start: "title",
  screens: {
    ...SETTINGS_APP.screens,
    title: { package: PKG, activity: ACTIVITY, root: surfaceWindow, paint: frames(titleFrame) },
    play: { package: PKG, activity: ACTIVITY, root: surfaceWindow, paint: frames(playFrame) },
  },
  packages: withSettingsApps([{ name: PKG, screen: "title", label: "Sky Hop" }, SETTINGS_APP.package]),
  transitions: [
    { from: "title", on: "tap", selector: { resource_id: "android:id/content" }, to: "play" },
    ...SETTINGS_APP.transitions,
  ],
};
