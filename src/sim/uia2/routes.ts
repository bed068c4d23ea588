/**
 * The route table of the simulated UiAutomator2 server, in one explicit list, and the matcher that
 * finds the route for a method and path: a known path with another method is `unknown method`
 * (405), an unknown path `unknown command` (404), as real W3C servers answer.
 */
import type { Route } from "./command.ts";
import { DEVICE_ROUTES } from "./device_commands.ts";
import { ELEMENT_ROUTES } from "./element_commands.ts";
import { GESTURE_ROUTES } from "./gesture_commands.ts";
import { SESSION_ROUTES } from "./session_routes.ts";
import { w3cError } from "./w3c_error.ts";

export const ROUTES: readonly Route[] = [...SESSION_ROUTES, ...ELEMENT_ROUTES, ...DEVICE_ROUTES, ...GESTURE_ROUTES];

interface CompiledRoute {
  route: Route;
  pattern: RegExp;
  names: string[];
}

function compile(route: Route): CompiledRoute {
  const full = route.scope === "session" ? `/session/:sessionId${route.path}` : route.path;
  const names: string[] = [];
  const source = full.replace(/:([A-Za-z]+)/g, (_, name: string) => (names.push(name), "([^/]+)"));
  return { route, pattern: new RegExp(`^${source}$`), names };
}

const COMPILED = ROUTES.map(compile);

export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

export function matchRoute(method: string, path: string): RouteMatch {
  let pathKnown = false;
  for (const c of COMPILED) {
    const m = c.pattern.exec(path);
    if (m === null) continue;
    pathKnown = true;
    if (c.route.method !== method) continue;
    const params: Record<string, string> = {};
    c.names.forEach((name, i) => (params[name] = decodeURIComponent(m[i + 1] ?? "")));
    return { route: c.route, params };
  }
  if (pathKnown) {
    throw w3cError("unknown method", `The HTTP method ${method} is not supported for ${path} by the simulated UiAutomator2 server.`);
  }
  throw w3cError(
    "unknown command",
    `The requested resource could not be found, or a request was received using an HTTP method that is not supported by the mapped resource: ${method} ${path}`,
  );
}
