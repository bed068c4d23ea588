/**
 * Checks on the arguments as typed, around cac's parsing: a negative number after a flag that takes a
 * value is kept as that flag's value (`--density -5` → `--density=-5`, so the command can say the number
 * is out of range instead of cac reporting an unknown option `-5`), and a flag given twice is refused
 * (cac would keep both and the command one of them, silently) unless the command takes it several times
 * (`flow --device a --device b`). Pure.
 */

/** One option as cac declares it: `rawName` like "--keyboard-top <y>" or "-h, --help". */
export interface DeclaredOption {
  rawName: string;
}

const NEGATIVE_NUMBER = /^-\d/;

/** The arguments with `--flag -5` written as `--flag=-5` for every flag that takes a value. */
export function joinNegativeValues(args: readonly string[], declared: readonly DeclaredOption[]): string[] {
  const takesValue = new Set<string>();
  for (const option of declared) {
    if (!/[<[]/.test(option.rawName)) continue;
    for (const part of option.rawName.split(",")) takesValue.add(part.trim().split(/\s/)[0]!);
  }
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      out.push(...args.slice(i));
      break;
    }
    const next = args[i + 1];
    if (takesValue.has(arg) && next !== undefined && NEGATIVE_NUMBER.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** The one-line problem when a long flag other than `repeatable` ones appears twice, else undefined. */
export function repeatedFlag(args: readonly string[], repeatable: ReadonlySet<string> = new Set()): string | undefined {
  const seen = new Set<string>();
  for (const arg of args) {
    if (arg === "--") break;
    if (!arg.startsWith("--") || arg.length === 2) continue;
    const name = arg.slice(2).split("=", 1)[0]!.replace(/^no-/, "");
    if (repeatable.has(`--${name}`)) continue;
    if (seen.has(name)) return `--${name} was given more than once; give it once.`;
    seen.add(name);
  }
  return undefined;
}
