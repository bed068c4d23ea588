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
import { writeDump, readDump } from "./scenario/dump_xml.ts";
import { matchesSelector } from "./scenario/selector_match.ts";
import { findByAttributes } from "./scenario/find_node.ts";
import { placeholderScreen } from "./scenario/placeholder_screen.ts";
import { allNodes, centreOf, inputText, isAncestor, isInput, markShownHints, nodeAt, nodeFromSpec, setInputText, tapReceiver, type SimNode } from "./scenario/sim_node.ts";
import type { AndroidSpec, PackageSpec, Scenario, ScreenSpec, TransitionSpec, TransitionTrigger } from "./scenario/types.ts";
import { drawScreenPng, stampSimulatedBadge } from "./png/screencap.ts";
import type { NodeAttributes, SimDevice, SimFaults } from "./sim_device.ts";
import { CommandLog } from "./command_log.ts";
import { DeviceFiles } from "./scenario/device_files.ts";
import { shortComponent } from "./scenario/component_name.ts";

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
}

export class ScenarioDevice implements SimDevice {
  readonly scenario: Scenario;
  readonly android: AndroidSpec;
  readonly faults: SimFaults;
  readonly log = new CommandLog();
  /** Device-side files (`/sdcard/window_dump.xml`, screencap targets) that `adb pull` serves. */
  readonly files = new DeviceFiles();

  readonly #screens = new Map<string, LiveScreen>();
  readonly #packages: PackageSpec[];
  /** Tasks in recency order: the one in front is last. */
  #tasks: Task[] = [];
  #keyboardOpen = false;
  #focused: SimNode | null = null;
  #serviceRequests = 0;
  readonly #serverQuitListeners = new Set<() => void>();
  #lastPng: { key: string; png: Uint8Array } | null = null;
  readonly #frozen: boolean;
  readonly #givenScreenshots: ReadonlyMap<string, Uint8Array>;

  constructor(scenario: Scenario, options: ScenarioDeviceOptions = {}) {
    this.scenario = scenario;
    this.#frozen = scenario.frozen === true;
    this.#givenScreenshots = options.screenshots ?? new Map();
    this.android = scenario.android;
    this.faults = { ...(scenario.faults ?? {}) };
    this.#packages = scenario.packages.map((p) => ({ ...p }));
    if (scenario.home !== undefined) this.#tasks.push(this.#newTask(scenario.home));
    if (scenario.start !== scenario.home) this.#tasks.push(this.#newTask(scenario.start));
    this.#afterMove();
  }

  get serial(): string { return this.android.serial; }
  get model(): string { return this.android.model; }
  get apiLevel(): number { return this.android.api; }
  get width(): number { return this.android.width; }
  get height(): number { return this.android.height; }
  get density(): number { return this.android.density; }

  /** Id of the screen in front (for tests and the `sim` banner). */
  screenId(): string {
    const screens = this.#front().screens;
    return screens[screens.length - 1]!;
  }

  hierarchyXml(): string {
    const roots = this.#current().roots;
    return writeDump(this.faults.tickingClock === true ? [...roots, this.#tick()] : roots, this.rotation());
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

  /** Records a package installed over adb (streamed install); it is not launchable. */
  addPackage(name: string): void {
    if (!this.#packages.some((p) => p.name === name)) this.#packages.push({ name });
  }

  /** The PNG of the current screen; the last one is reused while the screen is unchanged. */
  screenshotPng(): Uint8Array {
    const kb = this.keyboard();
    const blank = this.faults.blankScreencap === true;
    const given = blank ? undefined : this.#givenScreenshots.get(this.screenId());
    const key = given !== undefined ? `given|${this.screenId()}` : `${blank}|${kb.open ? kb.top : "-"}|${this.hierarchyXml()}`;
    if (this.#lastPng?.key !== key) {
      const png = given !== undefined
        ? stampSimulatedBadge(given)
        : drawScreenPng(this.#current().roots, { ...this.displaySize(), keyboardTop: kb.open ? kb.top : undefined, blank });
      this.#lastPng = { key, png };
    }
    return this.#lastPng.png.slice();
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

  /** An element click: a press at the centre of the node's bounds, dispatched like any other tap. */
  tap(node: NodeAttributes): void {
    const target = this.#find(node);
    if (target === null) return;
    const at = centreOf(target);
    this.#dispatchTap(at === null ? target : nodeAt(this.#current().roots, at.x, at.y));
  }

  /** A finger at a point (`input tap`, W3C taps): the node drawn there, then its nearest clickable, enabled ancestor. */
  tapAt(x: number, y: number): void {
    this.#dispatchTap(nodeAt(this.#current().roots, x, y));
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
    if (this.#frozen || this.scenario.home === undefined || this.#front().home) return;
    this.#bringToFront(this.#homeTask());
    this.#afterMove();
  }

  scroll(direction: "up" | "down"): void {
    this.#fire(direction === "down" ? "scroll_down" : "scroll_up", null);
  }

  /** Whether a scroll that way would show another part of the screen (UiAutomator2's "can still scroll"). */
  uia2ServerQuit(): void {
    for (const listener of [...this.#serverQuitListeners]) listener();
  }

  onUia2ServerQuit(listener: () => void): () => void {
    this.#serverQuitListeners.add(listener);
    return () => void this.#serverQuitListeners.delete(listener);
  }

  canScroll(direction: "up" | "down"): boolean {
    const here = this.screenId();
    const t = this.#transitionFor(direction === "down" ? "scroll_down" : "scroll_up", null);
    return t !== undefined && t.to !== here;
  }

  launch(packageName: string): boolean {
    const pkg = this.#packages.find((p) => p.name === packageName);
    if (pkg === undefined || this.launchActivity(packageName) === null) return false;
    if (this.#frozen || this.foregroundPackage() === packageName) return true;
    this.#startTask(pkg.screen ?? this.#placeholderScreen(pkg));
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
    return nodeFromSpec({ class: "android.widget.TextView", id: "com.android.systemui:id/clock", text, bounds: [40, 10, 240, 80] }, "com.android.systemui");
  }

  #current(): LiveScreen {
    return this.#live(this.screenId());
  }

  #screenSpec(id: string): ScreenSpec {
    const spec = this.scenario.screens[id] ?? this.#generated.get(id);
    if (spec === undefined) throw new Error(`scenario screen "${id}" does not exist`);
    return spec;
  }

  readonly #generated = new Map<string, ScreenSpec>();

  #live(id: string): LiveScreen {
    let live = this.#screens.get(id);
    if (live === undefined) {
      const spec = this.#screenSpec(id);
      const roots = spec.root !== undefined ? [nodeFromSpec(spec.root, spec.package)] : readDump(spec.xml ?? "").roots;
      markShownHints(roots);
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
    this.#focused = null;
    const kb = this.#current().spec.keyboard;
    this.#keyboardOpen = kb?.openOnEnter === true;
    if (this.#keyboardOpen) this.#focused = allNodes(this.#current().roots).find(isInput) ?? null;
  }

  #focus(node: SimNode): void {
    for (const n of allNodes(this.#current().roots)) if (n.attrs["focused"] === "true") n.attrs["focused"] = "false";
    node.attrs["focused"] = "true";
    this.#focused = node;
    if (this.#current().spec.keyboard !== undefined) this.#keyboardOpen = true;
  }

  /** The one tap dispatch: the node under the finger → the clickable, enabled node that receives it → its effects. */
  #dispatchTap(under: SimNode | null): void {
    if (this.#frozen) return;
    const receiver = under === null ? null : tapReceiver(under);
    if (receiver !== null) this.#tapNode(receiver);
  }

  #tapNode(node: SimNode): void {
    if (isInput(node)) this.#focus(node);
    const toggle = node.attrs["checkable"] === "true" ? node : soleCheckableInside(node);
    if (toggle !== null) toggle.attrs["checked"] = String(toggle.attrs["checked"] !== "true");
    this.#fire("tap", node);
  }

  /** The first transition this action triggers on the current screen. */
  #transitionFor(trigger: TransitionTrigger, tapped: SimNode | null): TransitionSpec | undefined {
    const here = this.screenId();
    const roots = this.#current().roots;
    return this.scenario.transitions.find((t) => {
      if (t.on !== trigger) return false;
      if (t.from !== undefined && ![t.from].flat().includes(here)) return false;
      if (tapped === null) return true;
      const selector = t.selector;
      if (selector === undefined) return false;
      return allNodes(roots).some((n) => matchesSelector(n, selector) && (n === tapped || isAncestor(n, tapped) || isAncestor(tapped, n)));
    });
  }

  #fire(trigger: TransitionTrigger, tapped: SimNode | null): void {
    if (this.#frozen) return;
    const here = this.screenId();
    const t = this.#transitionFor(trigger, tapped);
    if (t === undefined) return;
    if (t.to === "@back") {
      this.#keyboardOpen = false;
      this.back();
    } else if (t.to.startsWith("@launch:")) {
      this.launch(t.to.slice("@launch:".length));
    } else if (t.to !== here) {
      if (trigger === "tap") this.#enter(t.to);
      else this.#replace(t.to);
    }
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

function soleCheckableInside(node: SimNode): SimNode | null {
  if (node.attrs["clickable"] !== "true") return null;
  const found = allNodes(node.children).filter((n) => n.attrs["checkable"] === "true");
  return found.length === 1 ? found[0]! : null;
}
