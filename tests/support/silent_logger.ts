/** A Logger that says nothing, for tests and benches whose output is not under test. */
import type { Logger } from "../../src/ports/logger.ts";

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
