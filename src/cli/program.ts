/**
 * The CLI: `android-mcp-harness <command>`, built with cac from an explicit list of subcommands
 * (a compiled binary cannot scan folders). Unknown commands and options, and a flag given twice, get a
 * clear message and exit code 2 (1 for `flow`, whose 2 means "timed out"); `--help`, `help [command]` and
 * `--version` exit 0. An option a command takes several times (`flow --device a --device b`) arrives as the
 * list of its values, each as written. Returns the exit code; never calls process.exit.
 * `selftest-webdriver` is a packaging diagnostic kept out of the help. A command's module is loaded only when it
 * runs: `tree …` loads the tree command alone; the help, a bare call and anything else load them all.
 */
import { type CAC, cac } from "cac";
import { PROGRAM_NAME, VERSION, versionLine } from "../version.ts";
import { type CliContext, EXIT } from "./context.ts";
import { joinNegativeValues, repeatedFlag } from "./raw_arguments.ts";

export type CommandRegistrar = (cli: CAC, ctx: CliContext) => void;

/**
 * Every subcommand that works, in the order `--help` lists them, each loaded on demand (`await import("…")` as
 * written: the single executable's build makes exactly this form static).
 */
const COMMANDS: readonly { name: string; load: () => Promise<CommandRegistrar> }[] = [
  { name: "serve", load: async () => (await import("./serve.ts")).registerServeCommand },
  { name: "doctor", load: async () => (await import("./doctor.ts")).registerDoctorCommand },
  { name: "tree", load: async () => (await import("./tree.ts")).registerTreeCommand },
  { name: "flow", load: async () => (await import("./flow.ts")).registerFlowCommand },
  { name: "sim", load: async () => (await import("./sim.ts")).registerSimCommand },
  { name: "help", load: async () => registerHelpCommand },
];

/** The command named first, alone; every command when the first argument names none (help, options, a typo). */
async function commandsFor(given: readonly string[]): Promise<CommandRegistrar[]> {
  const named = COMMANDS.find((command) => command.name === given[0] && command.name !== "help");
  return Promise.all((named === undefined ? COMMANDS : [named]).map((command) => command.load()));
}

/** Commands whose documented exit codes give 2 another meaning: their usage errors exit with this code. */
const USAGE_EXIT: Readonly<Record<string, number>> = { flow: 1 };

/** What a stray argument most likely meant, per command (cac says only "Unused args"). */
const STRAY_ARGUMENT_HINT: Readonly<Record<string, (arg: string) => string>> = {
  tree: (arg) => `tree reads a saved dump with --file: ${PROGRAM_NAME} tree --file ${arg}`,
};

/** The options a command takes more than once; any other flag given twice is a usage error. */
const REPEATABLE: Readonly<Record<string, ReadonlySet<string>>> = { flow: new Set(["--device"]) };

export { PROGRAM_NAME };

export async function runCli(given: readonly string[], ctx: CliContext): Promise<number> {
  const cli = cac(PROGRAM_NAME);
  for (const register of await commandsFor(given)) register(cli, ctx);
  cli.help();
  // Not cac's version(): it prints the Node version Deno and Bun emulate instead of their own.
  cli.option("-v, --version", "Display version number (and the runtime)");
  cli.globalCommand.versionNumber = VERSION; // the help's first line

  const args = joinNegativeValues(given, [...cli.globalCommand.options, ...cli.commands.flatMap((command) => command.options)]);
  let parsed;
  try {
    // cac expects process.argv's shape: two leading entries before the arguments.
    parsed = printingTo(ctx, () => cli.parse(["node", PROGRAM_NAME, ...args], { run: false }));
  } catch (error) {
    return usageError(ctx, (error as Error).message);
  }
  if (parsed.options["help"]) return EXIT.ok; // cac printed it
  if (parsed.options["version"]) {
    ctx.stdout(`${versionLine()}\n`);
    return EXIT.ok;
  }
  const commandName = cli.matchedCommand?.name;
  const repeated = repeatedFlag(args, commandName === undefined ? undefined : REPEATABLE[commandName]);
  if (repeated !== undefined) return usageError(ctx, repeated, commandName === undefined ? undefined : USAGE_EXIT[commandName]);
  if (cli.matchedCommand !== undefined) keepValuesAsWritten(cli.matchedCommand.options, args, parsed.options);
  if (cli.matchedCommand === undefined) {
    if (parsed.args.length > 0) return usageError(ctx, `Unknown command "${parsed.args[0]}".`);
    const unknown = Object.keys(parsed.options).find((name) => name !== "--");
    if (unknown !== undefined) return usageError(ctx, `Unknown option "--${unknown}".`);
    printingTo(ctx, () => cli.outputHelp());
    return EXIT.usage;
  }
  try {
    const code = await cli.runMatchedCommand();
    return typeof code === "number" ? code : EXIT.ok;
  } catch (error) {
    if ((error as Error).name === "CACError") {
      const name = cli.matchedCommand.name;
      const hint = /^Unused args/.test((error as Error).message) ? STRAY_ARGUMENT_HINT[name]?.(String(parsed.args[0])) : undefined;
      return usageError(ctx, hint === undefined ? (error as Error).message : `${(error as Error).message}; ${hint}`, USAGE_EXIT[name]);
    }
    throw error;
  }
}

/** `help [command]`: the same text as `--help` and `<command> --help`, exit 0 (2 for an unknown command). */
function registerHelpCommand(cli: CAC, ctx: CliContext): void {
  cli
    .command("help [command]", "Show this help, or one command's (same as --help)")
    .action((name: string | undefined) => {
      if (name === undefined) {
        printingTo(ctx, () => cli.globalCommand.outputHelp());
        return EXIT.ok;
      }
      const command = cli.commands.find((candidate) => candidate.isMatched(name));
      if (command === undefined) return usageError(ctx, `Unknown command "${name}".`);
      printingTo(ctx, () => command.outputHelp());
      return EXIT.ok;
    });
}

/**
 * cac's parser turns any value that looks like a number into one (`--device 0012345` → 12345,
 * `--artifacts 007` → 7), which loses serials and paths. Every option that takes a value gets the
 * text exactly as written; commands convert numbers themselves.
 */
function keepValuesAsWritten(
  options: readonly { rawName: string; name: string; isBoolean?: boolean }[],
  args: readonly string[],
  parsed: Record<string, unknown>,
): void {
  for (const option of options) {
    if (option.isBoolean) continue;
    const spellings = option.rawName.split(",").map((part) => part.trim().split(/\s/)[0]!);
    const values: string[] = [];
    for (let i = 0; i < args.length; i++) {
      const arg = args[i]!;
      if (arg === "--") break;
      const inline = spellings.find((flag) => arg.startsWith(`${flag}=`));
      if (inline !== undefined) values.push(arg.slice(inline.length + 1));
      else if (spellings.includes(arg) && i + 1 < args.length && !args[i + 1]!.startsWith("-")) values.push(args[i + 1]!);
    }
    if (values.length === 1) parsed[option.name] = values[0];
    else if (values.length > 1) parsed[option.name] = values;
  }
}

/** cac prints help and versions with console.info; route that to the context's stdout. */
function printingTo<T>(ctx: CliContext, fn: () => T): T {
  const original = console.info;
  console.info = (...parts: unknown[]) => ctx.stdout(parts.join(" ") + "\n");
  try {
    return fn();
  } finally {
    console.info = original;
  }
}

function usageError(ctx: CliContext, message: string, code: number = EXIT.usage): number {
  ctx.stderr(`${PROGRAM_NAME}: ${message}\nRun '${PROGRAM_NAME} --help' for the list of commands and options.\n`);
  return code;
}
