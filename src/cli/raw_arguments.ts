/**
 * Checks on the arguments as typed, before cac parses them: a flag given twice is refused (cac would
 * keep both and the command one of them, silently), and a negative number after a flag that takes a
 * value is kept as that flag's value (`--density -5` → `--density=-5`, so the command can say the number
 * is out of range instead of cac reporting an unknown option `-5`). Pure; returns the arguments to parse
 * or the one-line problem.
 */

/** One option as cac declares it: `rawName` like "--keyboard-top <y>" or "-h, --help". */
export interface DeclaredOption {
  rawName: string;
}

const NEGATIVE_NUMBER = /^-\d/;

export function checkRawArguments(args: readonly string[], declared: readonly DeclaredOption[]):
  { ok: true; args: string[] } | { ok: false; problem: string } {
  const takesValue = new Set<string>();
  for (const option of declared) {
    if (!/[<[]/.test(option.rawName)) continue;
    for (const part of option.rawName.split(",")) takesValue.add(part.trim().split(/\s/)[0]!);
  }
  const out: string[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      out.push(...args.slice(i));
      break;
    }
    if (arg.startsWith("--") && arg.length > 2) {
      const name = arg.slice(2).split("=", 1)[0]!.replace(/^no-/, "");
      if (seen.has(name)) return { ok: false, problem: `--${name} was given more than once; give it once.` };
      seen.add(name);
      const next = args[i + 1];
      if (!arg.includes("=") && takesValue.has(arg) && next !== undefined && NEGATIVE_NUMBER.test(next)) {
        out.push(`${arg}=${next}`);
        i++;
        continue;
      }
    }
    out.push(arg);
  }
  return { ok: true, args: out };
}
