/**
 * The simulated device's small file system (`adb push`/`pull`, dump and screencap targets): a Map of
 * path → bytes that holds at most DEVICE_STORAGE_BYTES in total. `refusal` says, before a write, the
 * error text a full real device gives (`write failed: No space left on device`); `set` past the cap throws it.
 */
import { HarnessError } from "../../../contracts/errors.ts";

/** Total bytes the sim stores (64 MiB). */
export const DEVICE_STORAGE_BYTES = 64 * 1024 * 1024;

/** What adbd answers a sync SEND that does not fit (the client prints `remote ` before it). */
export const NO_SPACE = "write failed: No space left on device";

export class DeviceFiles extends Map<string, Uint8Array> {
  readonly capacity: number;
  /** Directories made by `mkdir` (besides those every device has and those holding files). */
  readonly directories = new Set<string>();
  #used = 0;

  constructor(capacity = DEVICE_STORAGE_BYTES) {
    super();
    this.capacity = capacity;
  }

  /** Bytes stored now. */
  get used(): number {
    return this.#used;
  }

  /** Null when `size` bytes fit at `path` (replacing what is there), else the device's error text. */
  refusal(path: string, size: number): string | null {
    const after = this.#used - (super.get(path)?.length ?? 0) + size;
    return after > this.capacity ? NO_SPACE : null;
  }

  override set(path: string, bytes: Uint8Array): this {
    // Map's constructor calls set before the fields exist; nothing is stored then.
    if (this.capacity === undefined) return super.set(path, bytes);
    const refused = this.refusal(path, bytes.length);
    if (refused !== null) {
      throw new HarnessError(
        "INVALID_ARGUMENT",
        `The simulated device is full: ${refused} (${this.#used} of ${this.capacity} bytes used). Delete files on it (adb shell rm) and try again.`,
      );
    }
    this.#used += bytes.length - (super.get(path)?.length ?? 0);
    return super.set(path, bytes);
  }

  override delete(path: string): boolean {
    this.#used -= super.get(path)?.length ?? 0;
    return super.delete(path);
  }

  override clear(): void {
    this.#used = 0;
    this.directories.clear();
    super.clear();
  }
}
