/**
 * Shell commands that act on the simulated device's state: `input` (tap, swipe — a held one is a long press —, text, keyevent),
 * `am` (start, start-activity, force-stop, broadcast, instrument) and `monkey -p PKG … 1`. Output
 * and exit codes follow the real tools; `am instrument -w` blocks until a force-stop ends it.
 */
import type { ScenarioDevice } from "../scenario_device.ts";
import { exit, type ShellOutcome } from "./outcome.ts";
import { startView, VIEW_ACTION } from "./app_intents.ts";
import { INPUT_SWIPE_DEFAULT_MS } from "../scenario/gestures.ts";

const KEYCODES: Record<string, number> = {
  KEYCODE_HOME: 3,
  KEYCODE_BACK: 4,
  KEYCODE_ENTER: 66,
  KEYCODE_DEL: 67,
  KEYCODE_APP_SWITCH: 187,
  KEYCODE_WAKEUP: 224,
  KEYCODE_MENU: 82,
};

/** Blocked `am instrument -w` runs, ended by `am force-stop` of their package. A run serves its port once the adb
 * server says it has started (`started()`, after the latency profile's instrumentation start); `changed` hears the count. */
export class Instrumentations {
  readonly #running = new Map<string, Set<(text: string) => void>>();
  readonly #started = new Set<(text: string) => void>();
  readonly #changed: (count: number) => void;

  constructor(changed: (count: number) => void = () => {}) {
    this.#changed = changed;
  }

  start(target: string): { ended: Promise<string>; started: () => void } {
    let end!: (text: string) => void;
    const ended = new Promise<string>((resolve) => {
      end = resolve;
      const set = this.#running.get(target) ?? new Set();
      set.add(resolve);
      this.#running.set(target, set);
    });
    const started = () => {
      if (![...this.#running.values()].some((set) => set.has(end))) return; // force-stopped while it started
      this.#started.add(end);
      this.#changed(this.count);
    };
    return { ended, started };
  }

  stop(packageName: string): void {
    for (const [target, waiters] of this.#running) {
      const pkg = target.split("/")[0]!;
      if (pkg !== packageName && pkg !== `${packageName}.test`) continue;
      for (const end of waiters) {
        end("INSTRUMENTATION_RESULT: shortMsg=Process crashed.\nINSTRUMENTATION_CODE: 0\n");
        this.#started.delete(end);
      }
      this.#running.delete(target);
    }
    this.#changed(this.count);
  }

  /** Runs that have started (their server answers). */
  get count(): number {
    return this.#started.size;
  }
}

export function runInput(device: ScenarioDevice, args: string[]): ShellOutcome {
  const [verb, ...rest] = args[0] === "touchscreen" || args[0] === "keyboard" ? args.slice(1) : args;
  const n = rest.map(Number);
  switch (verb) {
    case "tap":
      if (n.length < 2 || n.slice(0, 2).some(Number.isNaN)) return usage("input tap <x> <y>");
      device.tapAt(n[0]!, n[1]!);
      return exit();
    case "swipe": {
      if (n.length < 4 || n.slice(0, 4).some(Number.isNaN)) return usage("input swipe <x1> <y1> <x2> <y2> [duration(ms)]");
      // The finger goes down at the start, moves to the end over the duration and lifts: a phone reads it (a swipe
      // that stays within the touch slop is a press, a long one past the long-press timeout).
      const heldMs = n[4] === undefined || Number.isNaN(n[4]) ? INPUT_SWIPE_DEFAULT_MS : Math.max(0, n[4]);
      device.stroke({ from: { x: n[0]!, y: n[1]! }, to: { x: n[2]!, y: n[3]! }, heldMs });
      return exit();
    }
    case "motionevent": {
      // One event at a time (Android 11+): DOWN … UP is a stroke held for the time between them on the device's clock.
      const action = rest[0]?.toUpperCase();
      const xy = n.slice(1, 3);
      if (!["DOWN", "MOVE", "UP", "CANCEL"].includes(action ?? "") || xy.length < 2 || xy.some(Number.isNaN)) {
        return usage("input motionevent <DOWN|UP|MOVE|CANCEL> <x> <y>");
      }
      device.motionEvent(action as "DOWN" | "MOVE" | "UP" | "CANCEL", { x: xy[0]!, y: xy[1]! });
      return exit();
    }
    case "text":
      if (rest[0] === undefined) return usage("input text <string>");
      device.typeText(rest.join(" ").replaceAll("%s", " "));
      return exit();
    case "keyevent": {
      for (const key of rest.filter((k) => !k.startsWith("--"))) {
        const code = KEYCODES[key] ?? Number(key);
        if (Number.isInteger(code)) device.pressKey(code);
      }
      return exit();
    }
    default:
      return usage("input [<source>] <command> [<arg>...]");
  }
}

function usage(text: string): ShellOutcome {
  return exit("", `Error: Invalid arguments for command\nUsage: ${text}\n`, 1);
}

function componentArg(args: string[]): string | undefined {
  const i = args.indexOf("-n");
  if (i !== -1) return args[i + 1];
  return args.filter((a) => !a.startsWith("-")).find((a) => a.includes("/"));
}

export function runAm(device: ScenarioDevice, args: string[], instrumentations: Instrumentations): ShellOutcome {
  const [verb, ...rest] = args;
  switch (verb) {
    case "start":
    case "start-activity": {
      const action = optionValue(rest, "-a");
      const data = optionValue(rest, "-d");
      if (action === VIEW_ACTION && data !== undefined && optionValue(rest, "-n") === undefined) {
        const pkg = rest.filter((a, i) => !a.startsWith("-") && !rest[i - 1]?.startsWith("-")).at(-1);
        return startView(device, data, pkg, rest.includes("-W"));
      }
      const component = componentArg(rest);
      if (component === undefined && optionValue(rest, "-c") === "android.intent.category.HOME") {
        device.home();
        return exit(`Starting: Intent { act=${action ?? "android.intent.action.MAIN"} cat=[android.intent.category.HOME] }\n`);
      }
      const pkg = component?.split("/")[0] ?? packageArg(rest) ??
        (action?.startsWith("android.settings.") ? "com.android.settings" : undefined);
      // Appium's helper activities are transparent and finish at once: nothing visible changes.
      if (pkg?.startsWith("io.appium.")) return exit(`Starting: Intent { cmp=${component ?? pkg} }\n`);
      if (pkg === undefined || !device.launch(pkg)) {
        return exit(
          `Starting: Intent { cmp=${component ?? pkg ?? ""} }\n`,
          `Error type 3\nError: Activity class {${component ?? pkg ?? ""}} does not exist.\n`,
          1,
        );
      }
      const shown = component ?? (action !== undefined ? `act=${action}` : `cmp=${pkg}`);
      const wait = rest.includes("-W")
        ? `Status: ok\nLaunchState: COLD\nActivity: ${device.foregroundComponent()}\nTotalTime: 412\nWaitTime: 415\nComplete\n`
        : "";
      return exit(`Starting: Intent { ${component !== undefined ? `cmp=${component}` : shown} }\n${wait}`);
    }
    case "force-stop":
    case "kill":
      for (const pkg of rest.filter((a) => !a.startsWith("-"))) {
        device.forceStop(pkg);
        instrumentations.stop(pkg);
      }
      return exit();
    case "broadcast":
      return exit(`Broadcasting: Intent { ${rest.join(" ")} }\nBroadcast completed: result=0\n`);
    case "startservice":
    case "start-service":
    case "start-foreground-service":
      return exit(`Starting service: Intent { ${rest.join(" ")} }\n`);
    case "instrument": {
      const target = rest.filter((a) => !a.startsWith("-")).at(-1) ?? "";
      if (!rest.includes("-w")) return exit();
      const { ended, started } = instrumentations.start(target);
      return { kind: "block", stdout: "", ended, started };
    }
    case "get-current-user":
      return exit("0\n");
    default:
      return exit("", `Error: Unknown command: ${verb ?? ""}\n`, 1);
  }
}

function optionValue(args: string[], option: string): string | undefined {
  const i = args.indexOf(option);
  return i === -1 ? undefined : args[i + 1];
}

function packageArg(args: string[]): string | undefined {
  return optionValue(args, "-p");
}

export function runMonkey(device: ScenarioDevice, args: string[]): ShellOutcome {
  // The monkey script echoes each argument it was given, exactly as given.
  const echoed = args.map((a) => `  bash arg: ${a}\n`).join("");
  const pkg = packageArg(args);
  if (pkg === undefined || !device.launch(pkg)) {
    return exit(echoed, "** No activities found to run, monkey aborted.\n", 252);
  }
  const parsed = args.map((a) => ` arg: "${a}"\n`).join("");
  const data = ["-p", "-c"].map((o) => optionValue(args, o)).filter((v) => v !== undefined).map((v) => `data="${v}"\n`).join("");
  return exit(
    `${echoed}args: [${
      args.join(", ")
    }]\n${parsed}${data}Events injected: 1\n## Network stats: elapsed time=23ms (0ms mobile, 0ms wifi, 23ms not connected)\n`,
  );
}
