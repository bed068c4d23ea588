/**
 * The simulated device's state, driven by a validated Scenario: Android-like tasks (one stack of screens
 * per package, the launcher's task below them), the soft keyboard, the focused input, installed
 * packages, a tiny file system for `pull`, fault switches and the command log. User actions (tap, type,
 * back, scroll, launch, HOME) move between screens through the scenario's transitions; an action that
 * matches no transition changes nothing, like a dead button. HOME shows the launcher without stacking;
 * BACK on a task's first screen returns to the launcher; launching a running package resumes its task.
 * A `frozen` scenario (a replayed capture) answers every act and changes nothing; a screen may show a
 * given real screenshot (with the SIMULATED badge stamped on it) instead of a drawn one.
 */
import { readDump, writeDump } from "./scenario/dump_xml.ts";
import { matchesSelector } from "./scenario/selector_match.ts";
import { findByAttributes } from "./scenario/find_node.ts";
import { placeholderScreen } from "./scenario/placeholder_screen.ts";
import { type ApkManifest, readApkManifest } from "./shell/apk_manifest.ts";
import {
  allNodes,
  ancestors,
  inputText,
  isAncestor,
  isInput,
  markShownHints,
  nodeFromSpec,
  setInputText,
  type SimNode,
} from "./scenario/sim_node.ts";
import type { AndroidSpec, PackageSpec, Scenario, ScreenSpec, TransitionSpec, TransitionTrigger } from "./scenario/types.ts";
import { notificationShade, type Overlay, recentsScreen } from "./scenario/overlays.ts";
import { drawScreenPng, type ImeKey, stampSimulatedBadge } from "./png/screencap.ts";
import type { EditorAction, NodeAttributes, Point, ScrollDirection, SimDevice, SimFaults, Stroke } from "./sim_device.ts";
import { CommandLog } from "./command_log.ts";
import { DeviceFiles } from "./scenario/device_files.ts";
import { shortComponent } from "./scenario/component_name.ts";
import { filterRows, prependRow } from "./scenario/list_rows.ts";
import { clicks, nodeUnderFinger, onDrawerScrim, takesTouch, touchTarget, visibleCentreOf } from "./scenario/touch_point.ts";
import { isDoubleTap, strokeKind, type TapRecord, type TouchConfig } from "./scenario/gestures.ts";

export type ConnectionState = "device" | "offline" | "unauthorized";

/** One task: the screens opened from a package's launch, front one last. */
interface Task {
  package: string;
  /** True for the launcher's task (the scenario's `home` screen at its root). */
  home: boolean;
  screens: string[];
}

interface LiveScreen {
  id: string;
  spec: ScreenSpec;
  roots: SimNode[];
}

export interface ScenarioDeviceOptions {
  /** Real screenshots by screen id, shown instead of drawing those screens (the badge is stamped on them). */
  screenshots?: ReadonlyMap<string, Uint8Array>;
  /** The device's clock in ms (timed screens: `after`); default Date.now. */
  now?: () => number;
}

/**
 * Drawn screenshots by what draws them (ScenarioDevice.screenshotPng's key), the most recently shown last: drawing
 * and encoding a screen costs 50–300 ms of CPU, and every device of a process showing that screen gets the same bytes.
 */
const DRAWN_PNGS = new Map<string, Uint8Array>();
const DRAWN_PNGS_KEPT = 32;

/** Android key codes the sim acts on (KeyEvent.KEYCODE_*). */
export const KEYCODE = { HOME: 3, BACK: 4, ENTER: 66, DEL: 67, APP_SWITCH: 187 } as const;

export class ScenarioDevice implements SimDevice {
  readonly scenario: Scenario;
  readonly android: AndroidSpec;
  readonly faults: SimFaults;
  readonly log = new CommandLog();
  /** Device-side files (`/sdcard/window_dump.xml`, screencap targets) that `adb pull` serves. */
  readonly files = new DeviceFiles();

  readonly #screens = new Map<string, LiveScreen>();
  readonly #packages: PackageSpec[];
  readonly #versions = new Map<string, { code: number; name: string }>();
  /** Tasks in recency order: the one in front is last. */
  #tasks: Task[] = [];
  #keyboardOpen = false;
  #focused: SimNode | null = null;
  #serviceRequests = 0;
  readonly #serverQuitListeners = new Set<() => void>();
  #uia2Instrumented = false;
  /** The last given screenshot stamped with the badge, by screen id. */
  #lastPng: { key: string; png: Uint8Array } | null = null;
  readonly #frozen: boolean;
  readonly #givenScreenshots: ReadonlyMap<string, Uint8Array>;
  readonly #now: () => number;
  /** When the screen in front came there (device clock), for timed screens. */
  #shownAt = 0;
  /** When a timed screen last gave way to the next, and after how long it did (null since an act moved the screen). */
  #frameAt = Number.NEGATIVE_INFINITY;
  #frameMs: number | null = null;
  /** The notification shade or recents, drawn over the tasks until BACK, HOME or a choice closes it. */
  #overlay: Overlay | null = null;
  /** Each package's data flags (`sets`, `data`), kept across force-stop, forgotten by `pm clear`. */
  readonly #data = new Map<string, Set<string>>();
  /** A finger put down by `input motionevent DOWN` and not lifted yet: where and when (device clock). */
  #finger: { from: Point; downAt: number } | null = null;
  /** The last plain tap (place, when its finger lifted, the node under it): the first half of a double tap. */
  #lastTap: (TapRecord & { under: SimNode | null }) | null = null;

  constructor(scenario: Scenario, options: ScenarioDeviceOptions = {}) {
    this.scenario = scenario;
    this.#now = options.now ?? Date.now;
    for (const p of scenario.packages) if (p.data !== undefined) this.#data.set(p.name, new Set(p.data));
    this.#frozen = scenario.frozen === true;
    this.#givenScreenshots = options.screenshots ?? new Map();
    this.android = scenario.android;
    this.faults = { ...(scenario.faults ?? {}) };
    this.#packages = scenario.packages.map((p) => ({ ...p }));
    if (scenario.home !== undefined) this.#tasks.push(this.#newTask(scenario.home));
    if (scenario.start !== scenario.home) this.#tasks.push(this.#newTask(scenario.start));
    this.#afterMove();
  }

  get serial(): string {
    return this.android.serial;
  }
  get model(): string {
    return this.android.model;
  }
  get apiLevel(): number {
    return this.android.api;
  }
  get width(): number {
    return this.android.width;
  }
  get height(): number {
    return this.android.height;
  }
  get density(): number {
    return this.android.density;
  }

  /** Id of the screen in front (for tests and the `sim` banner). */
  screenId(): string {
    this.#advance();
    return this.#topId();
  }

  hierarchyXml(): string {
    const roots = this.#current().roots;
    return writeDump(this.faults.tickingClock === true ? [...roots, this.#tick()] : roots, this.rotation());
  }

  msUntilIdle(quietMs: number, timeoutMs: number): number {
    if (this.faults.tickingClock === true) return Math.max(0, timeoutMs); // its clock never rests
    if (this.#frozen) return 0;
    this.#advance();
    const now = this.#now();
    let at = this.#shownAt;
    let id = this.#topId();
    // Events are the frames of an animation: a timed screen that gives way sooner than the quiet period (a late
    // result, minutes or seconds later, is a still screen until then). Such a screen is a frame from its arrival.
    const frame = (ms: number) => ms < quietMs;
    let last = this.#frameMs !== null && frame(this.#frameMs) ? this.#frameAt : Number.NEGATIVE_INFINITY;
    const first = this.#overlay === null ? this.#screenSpec(id).after : undefined;
    if (first !== undefined && frame(first.ms)) last = Math.max(last, at);
    for (let frames = 0; frames < 10_000; frames++) {
      const idleAt = Math.max(now, last + quietMs);
      const after = this.#overlay === null ? this.#screenSpec(id).after : undefined;
      const next = after === undefined ? Number.POSITIVE_INFINITY : at + after.ms;
      if (idleAt <= next) return Math.min(Math.max(0, timeoutMs), idleAt - now);
      if (next - now >= timeoutMs) break;
      last = next; // only a frame's change can come before the quiet period ends
      at = next;
      id = after!.to;
    }
    return Math.max(0, timeoutMs);
  }

  /** The display's rotation on the current screen (0 unless the screen says otherwise). */
  rotation(): 0 | 1 | 2 | 3 {
    return this.#current().spec.rotation ?? 0;
  }

  /** The screen as drawn now: the natural size (`wm size`), turned a quarter at rotation 1 or 3. */
  displaySize(): { width: number; height: number } {
    const quarter = this.rotation() % 2 === 1;
    return quarter ? { width: this.height, height: this.width } : { width: this.width, height: this.height };
  }

  foregroundPackage(): string {
    return this.#current().spec.package;
  }

  foregroundActivity(): string {
    return this.#current().spec.activity;
  }

  keyboard(): { open: boolean; top?: number } {
    const kb = this.#current().spec.keyboard;
    return this.#keyboardOpen && kb !== undefined ? { open: true, top: kb.top } : { open: false };
  }

  installedPackages(): { name: string; system: boolean }[] {
    return this.#packages.map((p) => ({ name: p.name, system: p.system ?? false }));
  }

  /** The launchable activity of a package in its short form (`pkg/.Activity`), or null (resolve-activity, monkey). */
  launchActivity(packageName: string): string | null {
    const pkg = this.#packages.find((p) => p.name === packageName);
    if (pkg === undefined) return null;
    if (pkg.activity !== undefined) return shortComponent(pkg.name, pkg.activity);
    if (pkg.screen !== undefined) return shortComponent(pkg.name, this.#screenSpec(pkg.screen).activity);
    return null;
  }

  /**
   * The activities an `ACTION_MAIN`/`CATEGORY_LAUNCHER` query finds: every launchable package except the
   * launcher's own, in install order, with the full activity class.
   */
  launcherActivities(): { package: string; activity: string }[] {
    const home = this.scenario.home === undefined ? null : this.#screenSpec(this.scenario.home).package;
    return this.#packages.flatMap((p) => {
      if (p.name === home) return [];
      const declared = p.activity ?? (p.screen === undefined ? undefined : this.#screenSpec(p.screen).activity);
      if (declared === undefined) return [];
      return [{ package: p.name, activity: declared.startsWith(".") ? p.name + declared : declared }];
    });
  }

  /** The launcher's home activity (`CATEGORY_HOME`), or null on a device without one. */
  homeActivity(): { package: string; activity: string } | null {
    if (this.scenario.home === undefined) return null;
    const spec = this.#screenSpec(this.scenario.home);
    return { package: spec.package, activity: spec.activity };
  }

  /** The activity in front in its short form, as `am start -W` prints it (`com.android.settings/.Settings`). */
  foregroundComponent(): string {
    return shortComponent(this.foregroundPackage(), this.foregroundActivity());
  }

  /**
   * Records a package installed over adb (streamed install) with its manifest's version. A launchable one (apk_manifest.ts
   * says which) opens on a placeholder screen showing its label, else its package name. A scenario's own package keeps
   * its screens.
   */
  addPackage(
    name: string,
    version: { code: number; name: string } = { code: 1, name: "1.0" },
    app: { launchable: boolean; label?: string; activity?: string } = { launchable: false },
  ): void {
    if (!this.#packages.some((p) => p.name === name)) {
      this.#packages.push({ name, ...(app.launchable ? { activity: app.activity ?? ".MainActivity", label: app.label ?? name } : {}) });
      this.#generated.delete(`@app:${name}`); // a placeholder of an earlier install under this name
      this.#screens.delete(`@app:${name}`);
    }
    this.#versions.set(name, version);
  }

  /** The package manager given an APK's bytes: installs what its manifest names (null, nothing installed, when unreadable). */
  installApk(apk: Uint8Array): ApkManifest | null {
    const manifest = readApkManifest(apk);
    if (manifest !== null) this.addPackage(manifest.packageName, { code: manifest.versionCode, name: manifest.versionName }, manifest);
    return manifest;
  }

  /** `pm uninstall`: false when the package was not installed (a scenario's own packages included); its screens and data go. */
  removePackage(name: string): boolean {
    const at = this.#packages.findIndex((p) => p.name === name);
    if (at === -1) return false;
    this.forceStop(name);
    this.#packages.splice(at, 1);
    this.#versions.delete(name);
    this.#data.delete(name);
    return true;
  }

  /** The installed version (versionCode, versionName): an installed APK's own, else 1 and "1.0". */
  packageVersion(name: string): { code: number; name: string } {
    return this.#versions.get(name) ?? { code: 1, name: "1.0" };
  }

  /** The device's clock, in milliseconds. */
  now(): number {
    return this.#now();
  }

  /**
   * The PNG of the current screen. A drawn screen is drawn once per process for what draws it (display size, keyboard,
   * action key, tree, hints shown, painted frame; DRAWN_PNGS): the same screen gives the same bytes on every device,
   * and a test that starts many devices draws each screen once. A given screenshot is stamped once per device.
   */
  screenshotPng(): Uint8Array {
    const kb = this.keyboard();
    const blank = this.faults.blankScreencap === true;
    const given = blank ? undefined : this.#givenScreenshots.get(this.screenId());
    if (given !== undefined) {
      const key = `given|${this.screenId()}`;
      if (this.#lastPng?.key !== key) this.#lastPng = { key, png: stampSimulatedBadge(given) };
      return this.#lastPng.png.slice();
    }
    const imeAction = this.#imeKey();
    const current = this.#current();
    const paint = current.spec.paint;
    const frame = paint === undefined ? -1 : Math.floor(this.#now() / paint.frame_ms) % paint.frames.length;
    const painted = paint === undefined ? undefined : paint.frames[frame]!;
    const { width, height } = this.displaySize();
    const hints = allNodes(current.roots).map((n) => (n.showsHint === true ? 1 : 0)).join("");
    const key = `${width}x${height}|${blank}|${kb.open ? kb.top : "-"}|${imeAction}|${hints}|${
      JSON.stringify(painted ?? null)
    }|${this.hierarchyXml()}`;
    let png = DRAWN_PNGS.get(key);
    if (png === undefined) {
      png = drawScreenPng(current.roots, {
        width,
        height,
        keyboardTop: kb.open ? kb.top : undefined,
        imeAction,
        blank,
        ...(painted === undefined ? {} : { paint: painted }),
      });
      if (DRAWN_PNGS.size >= DRAWN_PNGS_KEPT) DRAWN_PNGS.delete(DRAWN_PNGS.keys().next().value!);
    } else DRAWN_PNGS.delete(key); // kept last: the least recently shown screen goes first
    DRAWN_PNGS.set(key, png);
    return png.slice();
  }

  /**
   * The action key the focused field's keyboard shows: the editor action its `submit` transition names (the field's
   * imeOptions), else TextView's default, next while another input follows it and done on the last.
   */
  #imeKey(): ImeKey {
    const field = this.#focused;
    if (field === null) return "done";
    const named = this.#transitionFor("submit", field)?.ime_action;
    if (named !== undefined && named !== "unspecified" && named !== "normal") return IME_KEYS[named];
    const inputs = allNodes(this.#current().roots).filter(isInput);
    return inputs.indexOf(field) + 1 < inputs.length && inputs.indexOf(field) !== -1 ? "next" : "done";
  }

  connectionState(): ConnectionState {
    return this.faults.state ?? "device";
  }

  /** Changes fault switches; setting the state back to "device" restarts the offlineAfterRequests count. */
  setFaults(patch: SimFaults): void {
    Object.assign(this.faults, patch);
    if (patch.state === "device") this.#serviceRequests = 0;
  }

  /**
   * The adb service passes each chunk of a command's stdout through here. With offlineAfterOutputBytes
   * armed, the chunk is cut at the limit, `drop` says the connection must die now (no exit status), the
   * device turns offline and the fault is spent.
   */
  passOutput(chunk: Uint8Array): { bytes: Uint8Array; drop: boolean } {
    const left = this.faults.offlineAfterOutputBytes;
    if (left === undefined) return { bytes: chunk, drop: false };
    if (chunk.length < left) {
      this.faults.offlineAfterOutputBytes = left - chunk.length;
      return { bytes: chunk, drop: false };
    }
    delete this.faults.offlineAfterOutputBytes;
    this.faults.state = "offline";
    return { bytes: chunk.subarray(0, Math.max(0, left)), drop: true };
  }

  /** Counts one adb device-service request; true when this request is the one that takes the device offline. */
  countServiceRequest(): boolean {
    this.#serviceRequests += 1;
    const limit = this.faults.offlineAfterRequests;
    if (limit !== undefined && this.#serviceRequests > limit && this.connectionState() === "device") {
      this.faults.state = "offline";
      return true;
    }
    return false;
  }

  /** Consumes one dump failure if the fault is armed: the error line the device prints, else null. */
  takeDumpError(): string | null {
    const fault = this.faults.dumpError;
    if (fault === undefined || fault.count <= 0) return null;
    fault.count -= 1;
    return fault.kind === "null root node"
      ? "ERROR: null root node returned by UiTestAutomationBridge.\n"
      : "ERROR: could not get idle state.\n";
  }

  /**
   * An element click: a press at the centre of the node's visible bounds (UiObject2.click: cut to its window and its
   * first scrollable ancestor), dispatched like any other tap.
   */
  tap(node: NodeAttributes): void {
    const target = this.#find(node);
    if (target === null) return;
    const at = visibleCentreOf(target);
    if (at === null) this.#dispatchTap([target, ...ancestors(target)].find(takesTouch) ?? null);
    else this.tapAt(at.x, at.y);
  }

  tapAt(x: number, y: number): void {
    const now = this.#now();
    this.#tapAt({ x, y }, now, now);
  }

  /**
   * `input motionevent DOWN|MOVE|UP|CANCEL x y`, one event per command: the finger's DOWN … UP is a stroke held for
   * the time between them on the device's clock (on a phone each `input` takes about a second, so two commands are a
   * long press there); the UP's point says where it lifted (a MOVE changes nothing more); CANCEL drops it.
   */
  motionEvent(action: "DOWN" | "MOVE" | "UP" | "CANCEL", at: Point): void {
    if (action === "DOWN") this.#finger = { from: at, downAt: this.#now() };
    else if (action === "CANCEL") this.#finger = null;
    else if (action === "UP" && this.#finger !== null) {
      const { from, downAt } = this.#finger;
      this.#finger = null;
      const heldMs = Math.max(0, this.#now() - downAt);
      this.stroke({ from, to: at, heldMs, afterMs: -heldMs });
    }
  }

  /**
   * One finger's stroke (`input tap` / `input swipe`, W3C pointer actions), read as a phone reads it
   * (scenario/gestures.ts): a swipe scrolls the list under its start, a long press goes to the view that takes the
   * touch, a tap too, and a tap soon after another at the same place is a double tap.
   */
  stroke(stroke: Stroke): void {
    const kind = strokeKind(stroke, this.#touchConfig());
    if (kind === "swipe") return this.#swipe(stroke.from, stroke.to);
    if (kind === "long_press") return this.#longPressAt(stroke.from);
    const downAt = this.#now() + (stroke.afterMs ?? 0);
    this.#tapAt(stroke.from, downAt, downAt + stroke.heldMs);
  }

  setText(node: NodeAttributes, text: string): void {
    if (this.#frozen) return;
    const target = this.#find(node);
    if (target === null) return;
    if (isInput(target)) setInputText(target, text);
    else target.attrs["text"] = text;
    this.#focus(target);
  }

  /** `input text`: appends to the focused input; nothing happens when no input has focus. */
  typeText(text: string): void {
    if (!this.#frozen && this.#focused !== null) setInputText(this.#focused, inputText(this.#focused) + text);
  }

  back(): void {
    if (this.#frozen) return;
    if (this.#overlay !== null) return this.#closeOverlay();
    if (this.#keyboardOpen) {
      this.#keyboardOpen = false;
      return;
    }
    const front = this.#front();
    if (front.screens.length > 1) {
      front.screens.pop();
      this.#afterMove();
      return;
    }
    // BACK on a task's first screen leaves the task: the launcher shows (or the task below, with no launcher).
    if (front.home || this.#tasks.length < 2) return;
    this.#tasks.pop();
    if (this.scenario.home !== undefined) this.#bringToFront(this.#homeTask());
    this.#afterMove();
  }

  /** HOME: the launcher's task comes to the front as it is; nothing is stacked. */
  home(): void {
    if (this.#frozen) return;
    this.#closeOverlay();
    if (this.scenario.home === undefined || this.#front().home) return;
    this.#bringToFront(this.#homeTask());
    this.#afterMove();
  }

  /**
   * Scrolls one container (a node of the screen, or an element inside it; null: the screen's main list): the
   * first scroll transition naming it, else one naming no container.
   */
  scroll(direction: ScrollDirection, container: NodeAttributes | null = null): void {
    if (this.#overlay !== null) return;
    this.#fire(`scroll_${direction}`, container === null ? null : this.#find(container), true);
  }

  /**
   * A finger held still at the centre of the element's visible bounds (UiObject2.longClick) for `heldMs` (default: a
   * long press): read as any stroke, so a hold shorter than the long-press timeout is a tap.
   */
  longPress(node: NodeAttributes, heldMs?: number): void {
    const at = this.#pressPoint(node);
    if (at === null) return;
    if (heldMs === undefined) this.#longPressAt(at);
    else this.stroke({ from: at, to: at, heldMs });
  }

  /** Two taps at the centre of the element's visible bounds, 100 ms apart: a double-tap handler there answers them. */
  doubleTap(node: NodeAttributes): void {
    const at = this.#pressPoint(node);
    if (at === null) return;
    const now = this.#now();
    this.#tapAt(at, now, now);
    this.#tapAt(at, now + 100, now + 100);
  }

  /**
   * The IME's editor action on the focused input (Appium's performEditorAction): a `submit` transition of the
   * field answers it when it names no `ime_action` or this one; otherwise, as TextView's default, `done` closes
   * the keyboard and `next` moves focus to the next input.
   */
  editorAction(action: EditorAction): void {
    const field = this.#focused;
    if (this.#frozen || field === null || this.#overlay !== null) return;
    const submit = this.#transitionFor("submit", field);
    if (submit !== undefined && (submit.ime_action === undefined || submit.ime_action === action)) return this.#fire("submit", field);
    if (action === "done") this.#keyboardOpen = false;
    if (action === "next") {
      const inputs = allNodes(this.#current().roots).filter(isInput);
      const next = inputs[inputs.indexOf(field) + 1];
      if (next !== undefined) this.#focus(next);
    }
  }

  /** A key event (`input keyevent`, UiA2 press_keycode): HOME, BACK, APP_SWITCH (recents), ENTER (submits), DEL. */
  pressKey(keycode: number): void {
    if (keycode === KEYCODE.BACK) return this.back();
    if (keycode === KEYCODE.HOME) return this.home();
    if (this.#frozen) return;
    if (keycode === KEYCODE.APP_SWITCH) return this.#open(recentsScreen(this.#recentTasks(), this.#launcherPackage(), this.android));
    const field = this.#focused;
    if (field === null || this.#overlay !== null) return;
    if (keycode === KEYCODE.ENTER && this.#transitionFor("submit", field) !== undefined) this.#fire("submit", field);
    if (keycode === KEYCODE.DEL) setInputText(field, [...inputText(field)].slice(0, -1).join(""));
  }

  /** Pulls the notification shade down over whatever shows (UiA2 open_notifications, `cmd statusbar expand-notifications`). */
  openNotifications(): void {
    if (this.#frozen || this.#overlay?.id === "@shade") return;
    const notes = (this.scenario.notifications ?? []).map((n) => ({ ...n, app: this.#label(n.package) }));
    this.#open(notificationShade(notes, this.android, (i) => {
      const screen = notes[i]?.screen;
      if (screen !== undefined) this.#showLinked(screen);
    }));
  }

  /**
   * A VIEW intent for `url` (`am start -a android.intent.action.VIEW -d URL [PKG]`): the scenario's link with the
   * longest matching prefix opens its screen in its package's task; an http(s) URL nothing claims opens Chrome
   * when it is installed. Null when nothing handles it (or not the package asked for).
   */
  openUrl(url: string, packageName?: string): { component: string } | null {
    const link = (this.scenario.links ?? [])
      .filter((l) => url.startsWith(l.prefix) && (packageName === undefined || this.#screenSpec(l.screen).package === packageName))
      .sort((a, b) => b.prefix.length - a.prefix.length)[0];
    if (link !== undefined) {
      if (!this.#frozen) this.#showLinked(link.screen);
      return { component: shortComponent(this.#screenSpec(link.screen).package, this.#screenSpec(link.screen).activity) };
    }
    const browser = "com.android.chrome";
    if (!/^https?:\/\//i.test(url) || (packageName !== undefined && packageName !== browser)) return null;
    if (!this.launch(browser)) return null;
    return { component: this.launchActivity(browser)! };
  }

  /** `pm clear PKG`: the app stops and forgets its data (flags, typed text); false when it is not installed. */
  clearApp(packageName: string): boolean {
    if (!this.#packages.some((p) => p.name === packageName)) return false;
    if (this.#frozen) return true;
    this.forceStop(packageName);
    this.#data.delete(packageName);
    for (const [id, live] of this.#screens) if (live.spec.package === packageName) this.#screens.delete(id);
    return true;
  }

  /** Packages with a process: every package with a task, and the launcher (`dumpsys activity processes`). */
  runningPackages(): string[] {
    return [...new Set([...this.#tasks.map((t) => t.package), this.#launcherPackage()].filter((p): p is string => p !== null))];
  }

  /** Whether a scroll that way would show another part of the screen (UiAutomator2's "can still scroll"). */
  uia2ServerQuit(): void {
    for (const listener of [...this.#serverQuitListeners]) listener();
  }

  /** Whether an `am instrument -w` of the UiAutomator2 server has started and runs (told by the adb server's shell). */
  get uia2Instrumented(): boolean {
    return this.#uia2Instrumented;
  }

  setUia2Instrumented(running: boolean): void {
    this.#uia2Instrumented = running;
  }

  onUia2ServerQuit(listener: () => void): () => void {
    this.#serverQuitListeners.add(listener);
    return () => void this.#serverQuitListeners.delete(listener);
  }

  canScroll(direction: ScrollDirection, container: NodeAttributes | null = null): boolean {
    const here = this.screenId();
    if (this.#overlay !== null) return false;
    const t = this.#transitionFor(`scroll_${direction}`, container === null ? null : this.#find(container), true);
    return t !== undefined && t.to !== here;
  }

  launch(packageName: string): boolean {
    const pkg = this.#packages.find((p) => p.name === packageName);
    if (pkg === undefined || this.launchActivity(packageName) === null) return false;
    if (this.#frozen || (this.#overlay === null && this.foregroundPackage() === packageName)) return true;
    const flags = this.#data.get(pkg.name);
    const screen = pkg.launchWhen?.find((w) => flags?.has(w.flag) === true)?.screen ?? pkg.screen;
    this.#startTask(screen ?? this.#placeholderScreen(pkg));
    return true;
  }

  /** `am force-stop`: the package's screens and task go; the task below shows (the launcher when none is left). */
  forceStop(packageName: string): void {
    if (this.#frozen) return;
    const kept: Task[] = [];
    let changed = false;
    for (const task of this.#tasks) {
      const screens = task.screens.filter((id) => task.home || this.#screenSpec(id).package !== packageName);
      if (screens.length !== task.screens.length) changed = true;
      if (screens.length > 0 && (task.home || task.package !== packageName)) kept.push({ ...task, screens });
      else changed = true;
    }
    if (!changed) return;
    this.#tasks = kept;
    if (this.#tasks.length === 0) this.#tasks.push(this.#newTask(this.scenario.home ?? this.scenario.start));
    this.#afterMove();
  }

  // --- internals -------------------------------------------------------------------------------

  #ticks = 0;

  /** The tickingClock fault's status-bar clock, one second later on every read. */
  #tick(): SimNode {
    const seconds = this.#ticks++;
    const text = `12:${String(Math.floor(seconds / 60) % 60).padStart(2, "0")}:${String(seconds % 60).padStart(2, "0")}`;
    return nodeFromSpec(
      { class: "android.widget.TextView", id: "com.android.systemui:id/clock", text, bounds: [40, 10, 240, 80] },
      "com.android.systemui",
    );
  }

  #current(): LiveScreen {
    this.#advance();
    return this.#live(this.#topId());
  }

  /** The screen in front without advancing timed screens (the overlay when one is open). */
  #topId(): string {
    if (this.#overlay !== null) return this.#overlay.id;
    const screens = this.#front().screens;
    return screens[screens.length - 1]!;
  }

  /** Timed screens: while the one in front has `after` and its time is up, it gives way to the next (frame by frame). */
  #advance(): void {
    if (this.#frozen || this.#overlay !== null) return;
    for (let frames = 0; frames < 10_000; frames++) {
      const screens = this.#front().screens;
      const after = this.#screenSpec(screens[screens.length - 1]!).after;
      if (after === undefined || this.#now() - this.#shownAt < after.ms) return;
      screens[screens.length - 1] = after.to;
      this.#shownAt += after.ms;
      this.#frameAt = this.#shownAt;
      this.#frameMs = after.ms;
      this.#enterFocus();
    }
  }

  #screenSpec(id: string): ScreenSpec {
    const spec = this.scenario.screens[id] ?? this.#generated.get(id);
    if (spec === undefined) throw new Error(`scenario screen "${id}" does not exist`);
    return spec;
  }

  readonly #generated = new Map<string, ScreenSpec>();

  /** The screen's live state, built from its spec the first time (a filtered list by `query`: every row that fits at first). */
  #live(id: string, query = ""): LiveScreen {
    let live = this.#screens.get(id);
    if (live === undefined) {
      const spec = this.#screenSpec(id);
      const roots = spec.root !== undefined ? [nodeFromSpec(spec.root, spec.package)] : readDump(spec.xml ?? "").roots;
      markShownHints(roots);
      if (spec.filter !== undefined) filterRows(roots, spec.filter, query);
      live = { id, spec, roots };
      this.#screens.set(id, live);
    }
    return live;
  }

  #front(): Task {
    return this.#tasks[this.#tasks.length - 1]!;
  }

  #newTask(rootScreen: string): Task {
    return { package: this.#screenSpec(rootScreen).package, home: rootScreen === this.scenario.home, screens: [rootScreen] };
  }

  #homeTask(): Task {
    return this.#tasks.find((t) => t.home) ?? this.#newTask(this.scenario.home!);
  }

  #bringToFront(task: Task): void {
    this.#tasks = [...this.#tasks.filter((t) => t !== task), task];
  }

  /** A launch: the launcher for its own screen, the package's running task, or a new task. */
  #startTask(rootScreen: string): void {
    if (rootScreen === this.scenario.home) return this.home();
    const pkg = this.#screenSpec(rootScreen).package;
    this.#bringToFront(this.#tasks.find((t) => !t.home && t.package === pkg) ?? this.#newTask(rootScreen));
    this.#afterMove();
  }

  /** A tap that opens a screen: inside the current task, except that the launcher starts apps in their own task. */
  #enter(id: string): void {
    const front = this.#front();
    if (front.home && this.#screenSpec(id).package !== front.package) return this.#startTask(id);
    front.screens.push(id);
    this.#afterMove();
  }

  #afterMove(): void {
    this.#overlay = null;
    this.#shownAt = this.#now();
    this.#frameAt = Number.NEGATIVE_INFINITY;
    this.#frameMs = null;
    this.#enterFocus();
  }

  /** A screen just came to the front: its keyboard opens (with the first input focused) when it says so. */
  #enterFocus(): void {
    this.#focused = null;
    const live = this.#live(this.#topId());
    this.#keyboardOpen = live.spec.keyboard?.openOnEnter === true;
    if (this.#keyboardOpen) this.#focused = allNodes(live.roots).find(isInput) ?? null;
  }

  #open(overlay: Overlay): void {
    this.#generated.set(overlay.id, overlay.spec);
    this.#screens.delete(overlay.id);
    this.#overlay = overlay;
  }

  #closeOverlay(): void {
    if (this.#overlay === null) return;
    this.#screens.delete(this.#overlay.id);
    this.#overlay = null;
  }

  /** A screen opened from outside its app (a deep link, a notification): on top of its package's task, brought to the front. */
  #showLinked(screen: string): void {
    const pkg = this.#screenSpec(screen).package;
    const task = this.#tasks.find((t) => !t.home && t.package === pkg);
    if (task === undefined) this.#tasks.push(this.#newTask(screen));
    else {
      if (task.screens[task.screens.length - 1] !== screen) task.screens.push(screen);
      this.#bringToFront(task);
    }
    this.#afterMove();
  }

  /** Tasks for the recents screen, most recent first (the launcher's not among them). */
  #recentTasks(): { label: string; choose: () => void }[] {
    return this.#tasks.filter((t) => !t.home).reverse().map((t) => ({
      label: this.#label(t.package),
      choose: () => (this.#bringToFront(t), this.#afterMove()),
    }));
  }

  #launcherPackage(): string | null {
    return this.scenario.home === undefined ? null : this.#screenSpec(this.scenario.home).package;
  }

  #label(packageName: string): string {
    return this.#packages.find((p) => p.name === packageName)?.label ?? packageName.split(".").pop() ?? packageName;
  }

  /** Where an element click presses: the centre of the element's visible bounds; null when it is not on the screen. */
  #pressPoint(node: NodeAttributes): Point | null {
    const target = this.#find(node);
    return target === null ? null : visibleCentreOf(target);
  }

  #touchConfig(): TouchConfig {
    return { api: this.android.api, density: this.android.density };
  }

  /**
   * A tap whose finger went down at `downAt` and up at `upAt` (device clock): the scrim of an open drawer takes it,
   * else, when it comes soon after the last tap on the same view, a double-tap handler under the finger answers
   * it; otherwise the view that takes the touch there clicks.
   */
  #tapAt(at: Point, downAt: number, upAt: number): void {
    const previous = this.#lastTap;
    this.#lastTap = null;
    if (this.#frozen || this.#closesDrawer(at.x, at.y)) return;
    const under = nodeUnderFinger(this.#current().roots, at.x, at.y);
    // The two taps of a double tap reach the same view (its GestureDetector sees both): not across a screen change.
    const again = previous !== null && previous.under === under && isDoubleTap(previous, { ...at, downAt }, this.#touchConfig());
    if (again && this.#doubleTapped(at)) return;
    this.#lastTap = { ...at, upAt, under };
    this.#dispatchTap(touchTarget(this.#current().roots, at.x, at.y));
  }

  /** Fires the `double_tap` transition naming the node drawn under the finger or the view that takes the touch; false when none does. */
  #doubleTapped(at: Point): boolean {
    if (this.#overlay !== null) return false;
    const roots = this.#current().roots;
    for (const subject of [nodeUnderFinger(roots, at.x, at.y), touchTarget(roots, at.x, at.y)]) {
      if (subject === null || this.#transitionFor("double_tap", subject) === undefined) continue;
      this.#fire("double_tap", subject);
      return true;
    }
    return false;
  }

  /**
   * A finger held still past the long-press timeout: the view that takes the touch gets it. A long-clickable one
   * performs its long click (its `long_press` transition); a clickable one without a long-click handler clicks when
   * the finger lifts (View.onTouchEvent: no long press was performed, so the up performs the click).
   */
  #longPressAt(at: Point): void {
    this.#lastTap = null;
    if (this.#frozen || this.#closesDrawer(at.x, at.y) || this.#overlay !== null) return;
    const taker = touchTarget(this.#current().roots, at.x, at.y);
    if (taker === null || taker.attrs["enabled"] === "false") return;
    if (taker.attrs["long-clickable"] === "true") this.#fire("long_press", taker);
    else this.#dispatchTap(taker);
  }

  /** A finger that moved past the touch slop: the list under its start scrolls the other way (a finger moving up shows what is below). */
  #swipe(from: Point, to: Point): void {
    this.#lastTap = null;
    if (this.#frozen || this.#overlay !== null) return;
    const dx = to.x - from.x, dy = to.y - from.y;
    const shows: ScrollDirection = Math.abs(dy) >= Math.abs(dx) ? (dy < 0 ? "down" : "up") : (dx < 0 ? "right" : "left");
    const under = nodeUnderFinger(this.#current().roots, from.x, from.y);
    const list = under === null ? null : [under, ...ancestors(under)].find((n) => n.attrs["scrollable"] === "true") ?? null;
    this.#fire(`scroll_${shows}`, list, true);
  }

  /**
   * DrawerLayout: with a drawer open its scrim covers the content beside it; a touch there is intercepted and its
   * up closes the drawer (the screen showing it was pushed over the page: closing pops it, as BACK does).
   */
  #closesDrawer(x: number, y: number): boolean {
    if (this.#frozen || this.#overlay !== null || !onDrawerScrim(allNodes(this.#current().roots), x, y)) return false;
    const front = this.#front();
    if (front.screens.length > 1) {
      front.screens.pop();
      this.#afterMove();
    }
    return true;
  }

  #focus(node: SimNode): void {
    for (const n of allNodes(this.#current().roots)) if (n.attrs["focused"] === "true") n.attrs["focused"] = "false";
    node.attrs["focused"] = "true";
    this.#focused = node;
    if (this.#current().spec.keyboard !== undefined) this.#keyboardOpen = true;
  }

  /** The one click: the view that took the touch clicks when it is enabled and clickable (touch_point.ts `clicks`). */
  #dispatchTap(taker: SimNode | null): void {
    if (this.#frozen || taker === null || taker.attrs["enabled"] === "false") return;
    if (clicks(taker)) this.#tapNode(taker);
  }

  #tapNode(node: SimNode): void {
    if (this.#overlay !== null) {
      // A quick-settings switch flips in place; a notification or a button runs its action.
      if (node.attrs["checkable"] === "true") node.attrs["checked"] = String(node.attrs["checked"] !== "true");
      const desc = [node, ...ancestors(node)].map((n) => n.attrs["content-desc"] ?? "").find((d) => this.#overlay!.actions.has(d));
      if (desc !== undefined) this.#overlay.actions.get(desc)!();
      return;
    }
    if (isInput(node)) this.#focus(node);
    const toggle = node.attrs["checkable"] === "true" ? node : soleCheckableInside(node);
    if (toggle !== null) toggle.attrs["checked"] = String(toggle.attrs["checked"] !== "true");
    this.#fire("tap", node);
  }

  /**
   * The first transition this action triggers on the current screen. With a subject (the tapped node, the
   * focused field, the scrolled container) the transition's selector must name it, an ancestor or a
   * descendant; a scroll (`loose`) also takes a transition naming no container. A scroll with no subject
   * takes the first scroll transition of the screen.
   */
  #transitionFor(trigger: TransitionTrigger, subject: SimNode | null, loose = false): TransitionSpec | undefined {
    const here = this.screenId();
    const roots = this.#current().roots;
    const candidates = this.scenario.transitions.filter((t) =>
      t.on === trigger && (t.from === undefined || [t.from].flat().includes(here))
    );
    if (subject === null) return candidates[0];
    const names = (t: TransitionSpec) => {
      const selector = t.selector;
      if (selector === undefined) return false;
      return allNodes(roots).some((n) =>
        matchesSelector(n, selector) && (n === subject || isAncestor(n, subject) || isAncestor(subject, n))
      );
    };
    return candidates.find(names) ?? (loose ? candidates.find((t) => t.selector === undefined) : undefined);
  }

  #fire(trigger: TransitionTrigger, tapped: SimNode | null, loose = false): void {
    if (this.#frozen) return;
    const here = this.screenId();
    const t = this.#transitionFor(trigger, tapped, loose);
    if (t === undefined) return;
    if (t.sets !== undefined) {
      const pkg = this.foregroundPackage();
      this.#data.set(pkg, new Set([...(this.#data.get(pkg) ?? []), t.sets]));
    }
    const typed = trigger === "submit" && tapped !== null ? { id: tapped.attrs["resource-id"] ?? "", text: inputText(tapped) } : null;
    const saved = t.saves === undefined ? null : this.#inputTexts(t.saves.texts);
    const header = t.header === undefined || tapped === null ? null : pressedText(tapped, t.header.from);
    if (t.saves !== undefined) this.#screens.delete(here); // a saved editor is done: it opens empty next time
    if (t.to === "@back") {
      this.#keyboardOpen = false;
      this.back();
    } else if (t.to.startsWith("@launch:")) {
      this.launch(t.to.slice("@launch:".length));
    } else if (t.to !== here) {
      if (trigger.startsWith("scroll_") || t.replace === true) this.#replace(t.to);
      else this.#enter(t.to);
    } else if (trigger === "submit") {
      this.#enterFocus(); // submitted to the screen it is on (a search from its results): its keyboard as on entry, as the first time
    }
    if (saved !== null && t.saves !== undefined) prependRow(this.#current().roots, t.saves.list, saved);
    if (header !== null) {
      for (const n of allNodes(this.#current().roots)) if (n.attrs["resource-id"] === t.header!.into) n.attrs["text"] = header;
    }
    // A submitted query stays in its field on the results screen (the same activity's state), which may filter by it.
    if (typed !== null && typed.id !== "") {
      if (this.#current().spec.filter?.field === typed.id) this.#rebuild(typed.text);
      const field = allNodes(this.#current().roots).find((n) => isInput(n) && n.attrs["resource-id"] === typed.id);
      if (field !== undefined) setInputText(field, typed.text);
    }
  }

  /** What a Save keeps: row text id → the text of the input it names; null when every input is empty. */
  #inputTexts(texts: Record<string, string>): Record<string, string> | null {
    const inputs = allNodes(this.#current().roots).filter(isInput);
    const values = Object.fromEntries(
      Object.entries(texts).map(([rowId, inputId]) => {
        const input = inputs.find((n) => n.attrs["resource-id"] === inputId);
        return [rowId, input === undefined ? "" : inputText(input)];
      }),
    );
    return Object.values(values).some((v) => v !== "") ? values : null;
  }

  /** The screen in front drawn afresh from its spec, its list filtered by `query`; the focus moves to the same field. */
  #rebuild(query: string): void {
    const id = this.#topId();
    const focusedId = this.#focused?.attrs["resource-id"];
    this.#screens.delete(id);
    const roots = this.#live(id, query).roots;
    if (focusedId === undefined) return;
    const field = allNodes(roots).find((n) => isInput(n) && n.attrs["resource-id"] === focusedId);
    this.#focused = field ?? null;
    if (field !== undefined) field.attrs["focused"] = "true";
  }

  /** Scrolling shows another part of the same list: it replaces the top of the stack. */
  #replace(id: string): void {
    const screens = this.#front().screens;
    screens[screens.length - 1] = id;
    this.#afterMove();
  }

  #find(wanted: NodeAttributes): SimNode | null {
    return findByAttributes(this.#current().roots, wanted);
  }

  #placeholderScreen(pkg: PackageSpec): string {
    const id = `@app:${pkg.name}`;
    if (!this.#generated.has(id)) this.#generated.set(id, placeholderScreen(pkg, this.android));
    return id;
  }
}

/** The text of the node with resource-id `id` in the pressed node, else in the nearest element around it that holds one. */
function pressedText(pressed: SimNode, id: string): string | null {
  for (const scope of [pressed, ...ancestors(pressed)]) {
    const found = allNodes([scope]).find((n) => n.attrs["resource-id"] === id);
    if (found !== undefined) return found.attrs["text"] ?? "";
  }
  return null;
}

function soleCheckableInside(node: SimNode): SimNode | null {
  if (node.attrs["clickable"] !== "true") return null;
  const found = allNodes(node.children).filter((n) => n.attrs["checkable"] === "true");
  return found.length === 1 ? found[0]! : null;
}

/** The icon Gboard shows for each editor action named (unspecified takes TextView's default; none is the return key). */
const IME_KEYS: Record<Exclude<EditorAction, "unspecified" | "normal">, ImeKey> = {
  none: "enter",
  go: "go",
  search: "search",
  send: "send",
  next: "next",
  done: "done",
  previous: "previous",
};
