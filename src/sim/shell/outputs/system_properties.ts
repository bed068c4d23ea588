/**
 * `getprop` (all properties as `[key]: [value]`, sorted, like fixtures/adb/getprop) and `getprop KEY`
 * (the bare value, or an empty line when unset), from the scenario's Android spec; an `emulator-N`
 * serial also has `ro.boot.qemu.avd_name` (`Medium_Phone_API_35`). One extra property,
 * `ro.android_mcp_harness.simulated=1`, says the device is simulated. A device still booting
 * (`booted: false`) has no `sys.boot_completed` / `dev.bootcomplete` yet and its boot animation runs.
 */
import type { AndroidSpec } from "../../scenario/types.ts";

export function systemProperties(a: AndroidSpec, boot: { booted: boolean } = { booted: true }): Map<string, string> {
  const build = a.api === 35 ? "AE3A.240806.036" : "TE1A.220922.034";
  const patch = a.api === 35 ? "2024-08-05" : "2022-10-05";
  const fingerprint = `${a.brand}/${a.product}/${a.device}:${a.release}/${build}/12254389:userdebug/dev-keys`;
  const props = new Map(Object.entries({
    "dev.bootcomplete": "1",
    "init.svc.adbd": "running",
    "init.svc.bootanim": "stopped",
    "persist.sys.locale": "en-US",
    "persist.sys.timezone": "Etc/UTC",
    "ro.boot.qemu": "1",
    // An emulator names its AVD (clients show it as the device name); a non-emulator serial has none.
    ...(a.serial.startsWith("emulator-") ? { "ro.boot.qemu.avd_name": `Medium_Phone_API_${a.api}` } : {}),
    "ro.build.characteristics": "emulator",
    "ro.build.display.id": `${a.product}-userdebug ${a.release} ${build} 12254389 dev-keys`,
    "ro.build.fingerprint": fingerprint,
    "ro.build.id": build,
    "ro.build.type": "userdebug",
    "ro.build.version.codename": "REL",
    "ro.build.version.release": a.release,
    "ro.build.version.release_or_codename": a.release,
    "ro.build.version.sdk": String(a.api),
    "ro.build.version.security_patch": patch,
    "ro.kernel.qemu": "1",
    "ro.product.brand": a.brand,
    /** Not on real devices: lets any client tell that this phone is the harness's simulated one. */
    "ro.android_mcp_harness.simulated": "1",
    "ro.product.cpu.abi": "x86_64",
    "ro.product.cpu.abilist": "x86_64,arm64-v8a",
    "ro.product.device": a.device,
    "ro.product.locale": "en-US",
    "ro.product.manufacturer": a.manufacturer,
    "ro.product.model": a.model,
    "ro.product.name": a.product,
    "ro.serialno": a.serial.startsWith("emulator-") ? `EMULATOR${a.api}X0X0X0` : a.serial,
    "ro.sf.lcd_density": String(a.density),
    "service.bootanim.exit": "1",
    "sys.boot_completed": "1",
  }));
  if (!boot.booted) {
    props.delete("sys.boot_completed");
    props.delete("dev.bootcomplete");
    props.set("init.svc.bootanim", "running");
    props.set("service.bootanim.exit", "0");
  }
  return props;
}

export function renderGetprop(a: AndroidSpec, key: string | undefined, boot: { booted: boolean } = { booted: true }): string {
  const props = systemProperties(a, boot);
  if (key !== undefined) return `${props.get(key) ?? ""}\n`;
  return [...props.keys()].sort().map((k) => `[${k}]: [${props.get(k)}]`).join("\n") + "\n";
}
