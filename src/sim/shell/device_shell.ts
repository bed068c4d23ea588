/**
 * The simulated device's shell: runs one command line (as `shell:`/`shell,v2:`/`exec:` carry it)
 * against the ScenarioDevice and returns a ShellOutcome. Every command line is appended to
 * `device.log`. Known tools print their real formats (see ./outputs); an unknown program exits 127
 * with mksh's `inaccessible or not found`; `exit N` ends the line with N, `cd` only checks the directory,
 * `$?` in a word is the previous command's status;
 * no command at all (an interactive shell) is refused on stderr with exit 1. `settings get` answers a fresh
 * emulator's defaults (`user_rotation` 0, …) until a value is put (`settings put`, `content insert`).
 * Fault switches: hangCommands, dumpError, blankScreencap, bootCompleted.
 */
import type { DeviceFiles } from "../scenario/device_files.ts";
import type { ScenarioDevice } from "../scenario_device.ts";
import { EDITOR_ACTIONS, type EditorAction } from "../sim_device.ts";
import { applyGreps, globPaths, parseCommandLine } from "./command_line.ts";
import { Instrumentations, runAm, runInput, runMonkey } from "./device_actions.ts";
import { exit, notFound, type ShellOutcome } from "./outcome.ts";
import { PHYSICAL_DISPLAY_ID } from "./outputs/displays.ts";
import { renderGetprop } from "./outputs/system_properties.ts";
import { runCmd, runDumpsys, runPackageManager } from "./system_services.ts";
import { FRAME_MS, ScreenRecorder } from "../video/screen_recorder.ts";

const UIA2_SERVER = "io.appium.uiautomator2.server";
const APPIUM_IME = "io.appium.settings/.AppiumIME";
const DUMP_TRAILER = "UI hierchary dumped to: ";
const DEFAULT_DUMP_PATH = "/sdcard/window_dump.xml";
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const NO_INTERACTIVE_SHELL = "the simulated device has no interactive shell; run `adb shell <command>`\n";
/** Directories every device has, besides those holding pushed or dumped files. */
const DIRECTORIES = [
  "/",
  "/sdcard",
  "/storage",
  "/storage/emulated",
  "/storage/emulated/0",
  "/data",
  "/data/local",
  "/data/local/tmp",
  "/system",
  "/system/bin",
  "/vendor",
  "/proc",
  "/dev",
  "/etc",
  "/mnt",
  "/cache",
];

function isKnownDirectory(dir: string, files: DeviceFiles): boolean {
  const path = dir.length > 1 ? dir.replace(/\/+$/, "") : dir;
  return DIRECTORIES.includes(path) || files.directories.has(path) || hasEntriesUnder(path, files);
}

function hasEntriesUnder(dir: string, files: DeviceFiles): boolean {
  const prefix = dir === "/" ? "/" : dir + "/";
  for (const file of files.keys()) if (file.startsWith(prefix)) return true;
  for (const made of files.directories) if (made.startsWith(prefix)) return true;
  return false;
}

const parentOf = (path: string) => path.slice(0, path.lastIndexOf("/")) || "/";

/** Programs the shell silently accepts (exit 0, no output) because clients only run them for effect. */
const QUIET = new Set(["true", "chmod", "touch", "sleep", "svc", "appops", "setprop", "log", "sync", "am_", "wait"]);

export class DeviceShell {
  readonly device: ScenarioDevice;
  readonly instrumentations: Instrumentations;
  readonly #settings = new Map<string, string>();
  readonly #unsubscribe: () => void;
  /** The `screenrecord` commands running: each one's timers, cleared when this shell closes. */
  readonly #recordings = new Set<() => void>();

  constructor(device: ScenarioDevice) {
    this.device = device;
    this.instrumentations = new Instrumentations((count) => device.setUia2Instrumented(count > 0));
    // A real UiAutomator2 server process quits when its session is deleted; Appium waits for that.
    // Told by the server after the DELETE succeeded, never by the command log (a refused DELETE is logged too).
    this.#unsubscribe = device.onUia2ServerQuit(() => this.instrumentations.stop(UIA2_SERVER));
  }

  /** Stops listening to the device (the adb server that made this shell stopped). */
  close(): void {
    this.#unsubscribe();
    for (const stop of this.#recordings) stop();
  }

  run(commandLine: string): ShellOutcome {
    this.device.log.push({ source: "adb", command: commandLine });
    // `adb shell` with no command (a terminal, or commands piped on stdin) asks for an interactive shell.
    if (commandLine.trim() === "") return exit("", NO_INTERACTIVE_SHELL, 1);
    const commands = parseCommandLine(commandLine, (pattern) => globPaths(pattern, this.device.files.keys()));
    const hang = this.device.faults.hangCommands ?? [];
    if (commands.some((c) => hang.includes(c.argv[0]!))) return { kind: "hang" };
    if (commands.length === 0) return exit();
    const stdout: Uint8Array[] = [];
    let stderr = "";
    let code = 0;
    for (const command of commands) {
      if ((command.joiner === "&&" && code !== 0) || (command.joiner === "||" && code === 0)) continue;
      // `$?` is the previous command's status (clients append `; echo MARK:$?` to see the end of a stream).
      const argv = command.argv.map((word) => word.replaceAll("$?", String(code)));
      const [program, ...args] = argv;
      if (program === "exit") {
        const wanted = args[0] === undefined ? code : Number.parseInt(args[0], 10);
        return { kind: "exit", stdout: concat(stdout), stderr, code: Number.isNaN(wanted) ? code : wanted & 255 };
      }
      const outcome = program === "cd" ? this.#cd(args) : this.#runOne(argv);
      if (outcome.kind !== "exit") return outcome;
      stderr += outcome.stderr;
      let out = outcome.stdout;
      code = outcome.code;
      if (command.greps.length > 0) {
        const filtered = applyGreps(decoder.decode(outcome.stdout), command.greps);
        if (!filtered.ok) {
          stderr += filtered.error;
          code = 2;
          continue;
        }
        out = encoder.encode(filtered.text);
        code = filtered.text === "" || filtered.text === "0\n" ? 1 : outcome.code;
      }
      if (command.redirect === undefined) stdout.push(out);
      else {
        const failed = this.#writeTo(command.redirect.path, out, command.redirect.append);
        if (failed !== null) [stderr, code] = [stderr + failed, 1];
      }
    }
    return { kind: "exit", stdout: concat(stdout), stderr, code };
  }

  /** `> PATH` (`>>`: appended): null when written, else mksh's error (the directory is missing, or PATH is one). */
  #writeTo(path: string, bytes: Uint8Array, append: boolean): string | null {
    const files = this.device.files;
    if (!isKnownDirectory(parentOf(path), files)) return `/system/bin/sh: can't create ${path}: No such file or directory\n`;
    if (this.#readOnly(parentOf(path))) return `/system/bin/sh: can't create ${path}: Permission denied\n`;
    if (isKnownDirectory(path, files)) return `/system/bin/sh: can't create ${path}: Is a directory\n`;
    const before = append ? files.get(path) : undefined;
    files.set(path, before === undefined ? bytes : concat([before, bytes]));
    return null;
  }

  #readOnly(dir: string): boolean {
    return (this.device.faults.readOnlyDirectories ?? []).some((d) => dir === d || dir.startsWith(d.replace(/\/?$/, "/")));
  }

  /** toybox `mkdir [-p] DIR…`: atomic, so a second mkdir of one directory fails (`File exists`, exit 1) unless -p. */
  #mkdir(args: string[]): ShellOutcome {
    const files = this.device.files;
    const parents = args.includes("-p");
    let stderr = "";
    for (const raw of args.filter((a) => !a.startsWith("-"))) {
      const dir = raw.length > 1 ? raw.replace(/\/+$/, "") : raw;
      if (isKnownDirectory(dir, files) || files.has(dir)) {
        if (!parents || files.has(dir)) stderr += `mkdir: '${raw}': File exists\n`;
      } else if (!parents && !isKnownDirectory(parentOf(dir), files)) stderr += `mkdir: '${raw}': No such file or directory\n`;
      else if (this.#readOnly(parentOf(dir))) stderr += `mkdir: '${raw}': Permission denied\n`;
      else for (let d = dir; !isKnownDirectory(d, files); d = parentOf(d)) files.directories.add(d);
    }
    return exit("", stderr, stderr === "" ? 0 : 1);
  }

  /** toybox `rmdir DIR…`: only an empty directory made by mkdir. */
  #rmdir(args: string[]): ShellOutcome {
    const files = this.device.files;
    let stderr = "";
    for (const raw of args.filter((a) => !a.startsWith("-"))) {
      const dir = raw.replace(/\/+$/, "");
      if (!isKnownDirectory(dir, files)) stderr += `rmdir: ${raw}: No such file or directory\n`;
      else if (!files.directories.has(dir) || hasEntriesUnder(dir, files)) stderr += `rmdir: ${raw}: Directory not empty\n`;
      else files.directories.delete(dir);
    }
    return exit("", stderr, stderr === "" ? 0 : 1);
  }

  /** `rm [-r] [-f] PATH…`: files; with -r, a directory made by mkdir and everything under it. */
  #rm(args: string[]): ShellOutcome {
    const files = this.device.files;
    const recursive = args.some((a) => /^-\w*r/i.test(a));
    for (const raw of args.filter((a) => !a.startsWith("-"))) {
      const path = raw.replace(/\/+$/, "");
      files.delete(path);
      if (!recursive || !files.directories.has(path)) continue;
      for (const file of [...files.keys()]) if (file.startsWith(path + "/")) files.delete(file);
      for (const dir of [...files.directories]) if (dir === path || dir.startsWith(path + "/")) files.directories.delete(dir);
    }
    return exit();
  }

  /** `cd DIR` changes nothing (every command runs in its own shell) but fails like mksh for a missing directory. */
  #cd(args: string[]): ShellOutcome {
    const dir = args[0];
    if (dir === undefined || isKnownDirectory(dir, this.device.files)) return exit();
    return exit("", `/system/bin/sh: cd: ${dir}: No such file or directory\n`, 1);
  }

  #runOne(argv: string[]): ShellOutcome {
    const [program, ...args] = argv;
    const d = this.device;
    switch (program) {
      case "getprop":
        return exit(renderGetprop(d.android, args[0], { booted: d.faults.bootCompleted !== false }));
      case "wm":
        if (args[0] === "size") return exit(`Physical size: ${d.width}x${d.height}\n`);
        if (args[0] === "density") return exit(`Physical density: ${d.density}\n`);
        return exit("", `Unknown command: ${args[0] ?? ""}\n`, 255);
      case "dumpsys":
        return runDumpsys(d, args);
      case "pm":
        return runPackageManager(d, args);
      case "cmd":
        return runCmd(d, args);
      case "settings":
        return this.#settingsCommand(args);
      case "content":
        return this.#contentCommand(args);
      case "am":
        return runAm(d, args, this.instrumentations);
      case "monkey":
        return runMonkey(d, args);
      case "input":
        // Appium's IME (io.appium.settings/.AppiumIME) turns typed `/search/`-style text into that editor action.
        if (this.#setting("secure/default_input_method") === APPIUM_IME && args[0] === "text") {
          const action = /^\/(\w+)\/$/.exec(args.slice(1).join(" "))?.[1]?.toLowerCase();
          if (action !== undefined && (EDITOR_ACTIONS as readonly string[]).includes(action)) {
            return (d.editorAction(action as EditorAction), exit());
          }
        }
        return runInput(d, args);
      case "uiautomator":
        return this.#uiautomator(args);
      case "screencap":
        return this.#screencap(args);
      case "screenrecord":
        return this.#screenrecord(args);
      case "exec":
        return this.#runOne(args);
      case "export":
        return exit();
      case "echo":
        return exit(args.join(" ") + "\n");
      case "id":
        return exit(
          "uid=2000(shell) gid=2000(shell) groups=2000(shell),1004(input),1007(log),1011(adb),1015(sdcard_rw),3003(inet) context=u:r:shell:s0\n",
        );
      case "whoami":
        return exit("shell\n");
      case "false":
        return exit("", "", 1);
      case "logcat":
        return exit();
      case "ps":
        return exit(this.#ps());
      case "pidof":
      case "pgrep":
        return exit("", "", 1);
      case "cat":
        return this.#cat(args);
      case "ls":
        return this.#ls(args);
      case "rm":
        return this.#rm(args);
      case "mkdir":
        return this.#mkdir(args);
      case "rmdir":
        return this.#rmdir(args);
      case "ime":
        return this.#ime(args);
      case "getenforce":
        return exit("Enforcing\n");
      default:
        if (program !== undefined && QUIET.has(program)) return exit();
        return notFound(program ?? "");
    }
  }

  /** `ime list|enable|disable|set ID` with the texts of `adb shell ime`; `set` changes `secure/default_input_method`. */
  #ime(args: string[]): ShellOutcome {
    const [verb, id] = args.filter((a) => !a.startsWith("-"));
    if (verb === "list") return exit("com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME\n");
    if (id === undefined) return exit();
    if (verb === "enable" || verb === "disable") return exit(`Input method ${id}: now ${verb}d for user #0\n`);
    if (verb === "set") {
      this.#settings.set("secure/default_input_method", id);
      return exit(`Input method ${id} selected for user #0\n`);
    }
    return exit();
  }

  /** A setting's value: what was put, else what a fresh Android 15 emulator has, else undefined (prints `null`). */
  #setting(id: string): string | undefined {
    return this.#settings.get(id) ?? defaultSetting(id, this.device);
  }

  #settingsCommand(args: string[]): ShellOutcome {
    const [verb, namespace, key, value] = args.filter((a) => !a.startsWith("--"));
    const id = `${namespace}/${key}`;
    switch (verb) {
      case "get":
        return exit(`${this.#setting(id) ?? "null"}\n`);
      case "put":
        this.#settings.set(id, value ?? "");
        return exit();
      case "delete":
        return exit(this.#settings.delete(id) ? "Deleted 1 rows\n" : "Deleted 0 rows\n");
      case "list":
        return exit(
          [...this.#settings].filter(([k]) => k.startsWith(`${namespace}/`)).map(([k, v]) => `${k.split("/")[1]}=${v}\n`).join(""),
        );
      default:
        return exit("", "usage:  settings [--user <USER_ID> | current] get namespace key\n", 1);
    }
  }

  /**
   * `content insert --uri content://settings/NS --bind name:s:KEY --bind value:T:VALUE` stores a setting
   * (what clients use to set `user_rotation`); `content query --uri content://settings/NS [--where "name='KEY'"]`
   * prints `Row: N name=KEY, value=VALUE` lines. Other URIs: the provider is unknown.
   */
  #contentCommand(args: string[]): ShellOutcome {
    const [verb] = args;
    const uri = args[args.indexOf("--uri") + 1] ?? "";
    const ns = /^content:\/\/settings\/(system|secure|global)$/.exec(uri)?.[1];
    if (ns === undefined) {
      return exit(
        "",
        `Error while accessing provider:${
          uri.replace(/^content:\/\//, "").split("/")[0]
        }\njava.lang.IllegalArgumentException: Unknown URI ${uri}\n`,
        1,
      );
    }
    if (verb === "insert") {
      const binds = new Map(
        args.flatMap((a, i) => args[i - 1] === "--bind" ? [a] : []).map((b) => {
          const [name, , ...rest] = b.split(":");
          return [name ?? "", rest.join(":")] as const;
        }),
      );
      const name = binds.get("name");
      if (name === undefined) return exit("", "Error: name is required\n", 1);
      this.#settings.set(`${ns}/${name}`, binds.get("value") ?? "");
      return exit();
    }
    if (verb === "query") {
      const where = /name\s*=\s*'([^']*)'/.exec(args[args.indexOf("--where") + 1] ?? "")?.[1];
      const keys = where !== undefined
        ? [where]
        : [...this.#settings.keys()].filter((k) => k.startsWith(`${ns}/`)).map((k) => k.slice(ns.length + 1));
      const rows = keys.flatMap((k) => {
        const v = this.#setting(`${ns}/${k}`);
        return v === undefined ? [] : [`name=${k}, value=${v}`];
      });
      return exit(rows.length === 0 ? "No result found.\n" : rows.map((r, i) => `Row: ${i} ${r}\n`).join(""));
    }
    return exit("", `Error: unknown command '${verb ?? ""}'\n`, 1);
  }

  #uiautomator(args: string[]): ShellOutcome {
    if (args[0] !== "dump") return exit("", `Unknown command: ${args[0] ?? ""}\n`, 1);
    const path = args.slice(1).filter((a) => !a.startsWith("--")).at(0) ?? DEFAULT_DUMP_PATH;
    const failure = this.device.takeDumpError();
    if (failure !== null) return exit(failure);
    const xml = this.device.hierarchyXml();
    if (path === "/dev/tty") return exit(`${xml}${DUMP_TRAILER}/dev/tty\n`);
    this.device.files.set(path, encoder.encode(xml));
    return exit(`${DUMP_TRAILER}${path}\n`);
  }

  /** `screencap [-p] [-d DISPLAY_ID] [PATH]`: the one display answers to its SurfaceFlinger id, 0, or no -d. */
  #screencap(args: string[]): ShellOutcome {
    const d = args.indexOf("-d");
    const display = d === -1 ? undefined : args[d + 1];
    if (display !== undefined && display !== "0" && display !== PHYSICAL_DISPLAY_ID) {
      return exit("", `[Warning] Display id ${display} is not valid.\n`, 1);
    }
    const png = this.device.screenshotPng();
    const path = args.filter((a, i) => !a.startsWith("-") && args[i - 1] !== "-d").at(0);
    if (path === undefined) return exit(png);
    this.device.files.set(path, png);
    return exit();
  }

  /**
   * `screenrecord [--time-limit SECONDS] [--size WxH] [--bit-rate N] [--verbose] PATH`: records the screen until the
   * time limit (180 s at most, the default) or until it is interrupted (SIGINT, or SIGHUP when adbd hangs up the
   * connection), then writes PATH, an MP4 of the screens shown over that time (`../video/screen_recorder.ts`). Nothing
   * is at PATH while it records; the command ends with exit 0 and no output at the time limit.
   */
  #screenrecord(args: string[]): ShellOutcome {
    const usage = "Usage: screenrecord [options] <filename>\n\nAndroid screenrecord v1.3.  Records the device's display to a .mp4 file.\n";
    let limit = 180;
    const paths: string[] = [];
    for (let i = 0; i < args.length; i++) {
      const arg = args[i]!;
      if (arg === "--time-limit") {
        limit = Number.parseInt(args[++i] ?? "", 10);
        if (!(limit >= 1 && limit <= 180)) return exit("", `Time limit ${args[i] ?? ""}s outside acceptable range [1,180]\n`, 2);
      } else if (arg === "--size" || arg === "--bit-rate" || arg === "--display-id") i++;
      else if (arg === "--help") return exit("", usage, 0);
      else if (arg.startsWith("--")) {
        if (arg !== "--verbose" && arg !== "--bugreport") return exit("", `Unrecognized option: ${arg}\n${usage}`, 2);
      } else paths.push(arg);
    }
    const path = paths[0];
    if (path === undefined || paths.length > 1) return exit("", `Must specify output file (see --help).\n`, 2);
    if (!isKnownDirectory(parentOf(path), this.device.files) || this.#readOnly(parentOf(path))) {
      return exit(
        "",
        `Unable to open '${path}': ${this.#readOnly(parentOf(path)) ? "Permission denied" : "No such file or directory"}\n`,
        1,
      );
    }
    const d = this.device;
    const recorder = new ScreenRecorder(() => d.screenshotPng(), () => d.now());
    let finishRecording = (): void => {};
    const ended = new Promise<string>((resolve) => {
      const looking = setInterval(() => recorder.look(), FRAME_MS);
      const limitTimer = setTimeout(() => finishRecording(), limit * 1000);
      const stopTimers = () => {
        clearInterval(looking);
        clearTimeout(limitTimer);
        this.#recordings.delete(stopTimers);
      };
      this.#recordings.add(stopTimers);
      finishRecording = () => {
        if (!this.#recordings.has(stopTimers)) return; // finished already
        stopTimers();
        recorder.look();
        d.files.set(path, recorder.finish(limit * 1000));
        resolve("");
      };
    });
    return { kind: "block", stdout: "", ended, hangUp: () => finishRecording() };
  }

  #cat(args: string[]): ShellOutcome {
    const out: Uint8Array[] = [];
    let stderr = "";
    for (const path of args) {
      const file = this.device.files.get(path);
      if (file === undefined) stderr += `cat: ${path}: No such file or directory\n`;
      else out.push(file);
    }
    return exit(concat(out), stderr, stderr === "" ? 0 : 1);
  }

  #ls(args: string[]): ShellOutcome {
    const path = args.filter((a) => !a.startsWith("-")).at(0) ?? "/sdcard";
    if (this.device.files.has(path)) return exit(`${path}\n`);
    const inside = [...this.device.files.keys()].filter((k) => k.startsWith(path.replace(/\/?$/, "/"))).map((k) =>
      k.slice(path.replace(/\/?$/, "/").length)
    );
    if (inside.length > 0 || path === "/sdcard" || path === "/sdcard/") return exit(inside.sort().map((n) => n + "\n").join(""));
    return exit("", `ls: ${path}: No such file or directory\n`, 1);
  }

  #ps(): string {
    const pkg = this.device.foregroundPackage();
    const rows = [
      ["root", "1", "0", "init"],
      ["system", "612", "1", "system_server"],
      ["u0_a148", "1250", "612", "com.android.systemui"],
      ["u0_a214", "4311", "612", pkg],
    ];
    if (this.instrumentations.count > 0) rows.push(["u0_a190", "5301", "612", UIA2_SERVER]);
    return "USER           PID  PPID     VSZ    RSS WCHAN            ADDR S NAME\n" +
      rows.map(([u, p, pp, n]) => `${u!.padEnd(12)} ${p!.padStart(5)} ${pp!.padStart(5)} 12983396 102340 do_epoll_wait       0 S ${n}\n`)
        .join("");
  }
}

/** What a fresh Android 15 Google emulator answers for the settings clients read, by `namespace/key`. */
function defaultSetting(id: string, device: ScenarioDevice): string | undefined {
  const defaults: Record<string, string> = {
    "system/user_rotation": String(device.rotation()),
    "system/accelerometer_rotation": "0",
    "system/screen_off_timeout": "60000",
    "system/font_scale": "1.0",
    "global/adb_enabled": "1",
    "global/development_settings_enabled": "1",
    "global/device_provisioned": "1",
    "global/stay_on_while_plugged_in": "0",
    "global/window_animation_scale": "1.0",
    "global/transition_animation_scale": "1.0",
    "global/animator_duration_scale": "1.0",
    "secure/user_setup_complete": "1",
    "secure/default_input_method": "com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME",
  };
  return defaults[id];
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
