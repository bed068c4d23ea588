/**
 * The CLI: `android-mcp-harness <command>`, built with cac from an explicit list of subcommands
 * (a compiled binary cannot scan folders). Unknown commands and options get a clear message and
 * exit code 2 (1 for `flow`, whose 2 means "timed out"); `--help` and `--version` exit 0. An option
 * given several times (`--device a --device b`) arrives as the list of its values, each as written.
 * Returns the exit code; never calls process.exit.
 */
import { cac, type CAC } from "cac";
import { VERSION } from "../version.ts";
import { type CliContext, EXIT } from "./context.ts";
import { registerDoctorCommand } from "./doctor.ts";
import { registerFlowCommand } from "./flow.ts";
import { registerServeCommand } from "./serve.ts";
import { registerSimCommand } from "./sim.ts";
import { registerTreeCommand } from "./tree.ts";

export type CommandRegistrar = (cli: CAC, ctx: CliContext) => void;

/** Every subcommand that works, in the order `--help` lists them. */
const COMMANDS: CommandRegistrar[] = [
  registerServeCommand,
  registerDoctorCommand,
  registerTreeCommand,
  registerFlowCommand,
  registerSimCommand,
];

/** Commands whose documented exit codes give 2 another meaning: their usage errors exit with this code. */
const USAGE_EXIT: Readonly<Record<string, number>> = { flow: 1 };

export const PROGRAM_NAME = "android-mcp-harness";

export async function runCli(args: readonly string[], ctx: CliContext): Promise<number> {
  const cli = cac(PROGRAM_NAME);
  for (const register of COMMANDS) register(cli, ctx);
  cli.help();
  cli.version(VERSION);

  let parsed;
  try {
    // cac expects process.argv's shape: two leading entries before the arguments.
    parsed = printingTo(ctx, () => cli.parse(["node", PROGRAM_NAME, ...args], { run: false }));
  } catch (error) {
    return usageError(ctx, (error as Error).message);
  }
  if (parsed.options["help"] || parsed.options["version"]) return EXIT.ok; // cac printed it
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
    if ((error as Error).name === "CACError") return usageError(ctx, (error as Error).message, USAGE_EXIT[cli.matchedCommand.name]);
    throw error;
  }
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
