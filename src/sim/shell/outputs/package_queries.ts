/**
 * Package-manager queries as Android 15 prints them: `pm list features` (sorted `feature:NAME` lines,
 * `reqGlEsVersion` first, a Google emulator's set) and `cmd package query-activities [--brief |
 * --components] -a ACTION -c CATEGORY [PKG]` (`N activities found:` then `  Activity #i:` and the
 * ResolveInfo dump with `ActivityInfo:` / `ApplicationInfo:` blocks, or `No activities found`).
 */
import type { ScenarioDevice } from "../../scenario_device.ts";
import { hashOf, shortComponent } from "./device_facts.ts";
import { apkPath } from "./packages.ts";

const FEATURES = [
  "android.hardware.audio.output",
  "android.hardware.bluetooth",
  "android.hardware.bluetooth_le",
  "android.hardware.camera",
  "android.hardware.camera.any",
  "android.hardware.camera.autofocus",
  "android.hardware.camera.front",
  "android.hardware.faketouch",
  "android.hardware.fingerprint",
  "android.hardware.location",
  "android.hardware.location.gps",
  "android.hardware.location.network",
  "android.hardware.microphone",
  "android.hardware.ram.normal",
  "android.hardware.screen.landscape",
  "android.hardware.screen.portrait",
  "android.hardware.sensor.accelerometer",
  "android.hardware.sensor.compass",
  "android.hardware.sensor.gyroscope",
  "android.hardware.sensor.light",
  "android.hardware.sensor.proximity",
  "android.hardware.telephony",
  "android.hardware.telephony.gsm",
  "android.hardware.touchscreen",
  "android.hardware.touchscreen.multitouch",
  "android.hardware.touchscreen.multitouch.distinct",
  "android.hardware.touchscreen.multitouch.jazzhand",
  "android.hardware.vulkan.compute",
  "android.hardware.vulkan.level=1",
  "android.hardware.vulkan.version=4206592",
  "android.hardware.wifi",
  "android.software.activities_on_secondary_displays",
  "android.software.app_widgets",
  "android.software.autofill",
  "android.software.backup",
  "android.software.companion_device_setup",
  "android.software.credentials",
  "android.software.device_admin",
  "android.software.home_screen",
  "android.software.input_methods",
  "android.software.live_wallpaper",
  "android.software.managed_users",
  "android.software.midi",
  "android.software.picture_in_picture",
  "android.software.print",
  "android.software.secure_lock_screen",
  "android.software.verified_boot",
  "android.software.voice_recognizers",
  "android.software.webview",
  "com.google.android.feature.GOOGLE_BUILD",
  "com.google.android.feature.GOOGLE_EXPERIENCE",
];

export function renderFeatures(): string {
  return ["feature:reqGlEsVersion=0x30000", ...[...FEATURES].sort().map((f) => `feature:${f}`)].join("\n") + "\n";
}

interface IntentQuery {
  action?: string;
  categories: string[];
  package?: string;
  brief: boolean;
  components: boolean;
}

/** The options `cmd package query-activities` takes that matter here; the last bare word is a package. */
export function parseIntentQuery(args: readonly string[]): IntentQuery {
  const query: IntentQuery = { categories: [], brief: false, components: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "-a") query.action = args[++i];
    else if (a === "-c") query.categories.push(args[++i] ?? "");
    else if (a === "--brief") query.brief = true;
    else if (a === "--components") query.components = true;
    else if (a === "--user") i++;
    else if (!a.startsWith("-") && !a.includes("/") && !a.includes(":")) query.package = a;
  }
  return query;
}

export function renderQueryActivities(device: ScenarioDevice, args: readonly string[]): string {
  const q = parseIntentQuery(args);
  const main = q.action === undefined || q.action === "android.intent.action.MAIN";
  let found: { package: string; activity: string }[] = [];
  if (main && q.categories.length === 1 && q.categories[0] === "android.intent.category.LAUNCHER") found = device.launcherActivities();
  else if (main && q.categories.length === 1 && q.categories[0] === "android.intent.category.HOME") {
    found = [device.homeActivity()].flatMap((h) => h ?? []);
  }
  if (q.package !== undefined) found = found.filter((f) => f.package === q.package);
  if (found.length === 0) return "No activities found\n";
  if (q.components) return found.map((f) => `${shortComponent(f.package, f.activity)}\n`).join("");
  const entries = found.map((f, i) => `  Activity #${i}:\n${resolveInfo(f, q.brief, "    ")}`);
  return `${found.length} activities found:\n${entries.join("")}`;
}

function resolveInfo(f: { package: string; activity: string }, brief: boolean, p: string): string {
  const head = `${p}priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false\n`;
  if (brief) return `${head}${p}${shortComponent(f.package, f.activity)}\n`;
  const label = `0x7f${hashOf(f.activity).slice(0, 6)}`;
  const dir = apkPath(f.package).replace(/\/base\.apk$/, "");
  const a = `${p}  `, b = `${p}    `;
  return head + [
    `${p}ActivityInfo:`,
    `${a}name=${f.activity}`,
    `${a}packageName=${f.package}`,
    `${a}labelRes=${label} nonLocalizedLabel=null icon=0x0 banner=0x0`,
    `${a}enabled=true exported=true directBootAware=false`,
    `${a}taskAffinity=${f.package} targetActivity=null persistableMode=PERSIST_ROOT_ONLY`,
    `${a}launchMode=0 flags=0x3ea0200 privateFlags=0x0 theme=0x0`,
    `${a}screenOrientation=-1 configChanges=0xdb3 softInputMode=0x0`,
    `${a}lockTaskLaunchMode=LOCK_TASK_LAUNCH_MODE_DEFAULT`,
    `${a}resizeMode=RESIZE_MODE_RESIZEABLE`,
    `${a}ApplicationInfo:`,
    `${b}packageName=${f.package}`,
    `${b}labelRes=${label} nonLocalizedLabel=null icon=0x0 banner=0x0`,
    `${b}processName=${f.package}`,
    `${b}taskAffinity=${f.package}`,
    `${b}uid=10${100 + (parseInt(hashOf(f.package), 16) % 800)} flags=0x38c8be45 privateFlags=0x24001000 theme=0x0`,
    `${b}requiresSmallestWidthDp=0 compatibleWidthLimitDp=0 largestWidthLimitDp=0`,
    `${b}sourceDir=${dir}/base.apk`,
    `${b}resourceDirs=[]`,
    `${b}dataDir=/data/user/0/${f.package}`,
    `${b}enabled=true minSdkVersion=24 targetSdkVersion=34 versionCode=1 targetSandboxVersion=1`,
    `${b}supportsRtl=true`,
    `${b}fullBackupContent=true`,
    `${b}HiddenApiEnforcementPolicy=2`,
    `${b}usesNonSdkApi=false`,
    `${b}allowsPlaybackCapture=true`,
  ].join("\n") + "\n";
}
