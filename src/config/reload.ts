/**
 * Re-reading the settings while the bot runs (SIGHUP, or a secret file replaced), so an
 * operator can rotate the marketplace cookie or change an allow list without a restart.
 *
 * The sources are the ones read at start (the environment, the dotenv file, `NAME_FILE`
 * secrets). Only {@link RELOADABLE_VARIABLES} take effect; any other change is reported as
 * needing a restart and the running value stays. A new value that does not validate is refused
 * and its old value stays. Results name variables, never values.
 */
import { type ConfigProblem } from "./errors.js";
import {
  type LoadConfigOptions,
  type LoadedSettings,
  parseValues,
  readSources,
  sortProblems,
} from "./load.js";
import { VARIABLES } from "./schema.js";

/**
 * Settings a running bot can take on. Everything else needs a restart: the bot token, mode,
 * database path, host, port and webhook are bound at start; the service URL, quota and
 * timeouts shape the client; the draft lifetime, payment method, ADMIN_CONTACT and alert
 * timings are read once by the parts built at start, as are the fair-share settings
 * (CHECKS_PER_USER_MINUTE and the rest shape the desk and the bot's first middleware); ADMIN_IDS
 * also registers the admins' command menus.
 *
 * The wallet (WALLET_MNEMONIC, WALLET_ADDRESS, WALLET_VERSION) needs a restart on purpose: an
 * unconfirmed purchase is reconciled by comparing the wallet's balance before and after, and
 * the on-chain evidence reads the wallet's address. Switching wallets under a purchase in
 * flight or awaiting reconciliation would compare two different wallets and could make an
 * admin settle it wrongly. A restart turns anything in flight into "unconfirmed" first.
 */
export const RELOADABLE_VARIABLES: ReadonlySet<string> = new Set([
  "MARKETPLACE_COOKIE",
  "PROVIDER_API_KEY",
  "UPSTREAM_PROXY",
  "UPSTREAM_USER_AGENT",
  "TON_API_KEY",
  "ALLOWED_USER_IDS",
  "ALLOWED_CHAT_IDS",
  "PUBLIC_PURCHASES",
  "LIMIT_STARS_PER_PURCHASE",
  "LIMIT_STARS_PER_USER_DAY",
  "LIMIT_STARS_PER_DAY",
  "LIMIT_PREMIUM_PER_USER_DAY",
  "LIMIT_PREMIUM_PER_DAY",
  "LIMITS_EXEMPT_ADMINS",
  "LOW_BALANCE_TON",
  "LOW_BALANCE_USDT",
  "LOW_BALANCE_STARS",
]);

export interface ReloadResult {
  /** The settings to run with now: new values where applied, old ones everywhere else. */
  settings: LoadedSettings;
  /** Variables whose new value is now in effect. */
  applied: string[];
  /** Variables changed in the sources that only a restart takes on (their new values are valid). */
  needsRestart: string[];
  /** New values refused (invalid, or a secret file that could not be read); old ones stay. */
  refused: ConfigProblem[];
}

/**
 * Reads the sources again and works out what changed against `current`. Never throws for a
 * bad value: it refuses that value and keeps the rest. An env file that cannot be read any
 * more refuses the whole reload (its values would otherwise all look removed).
 */
export async function reloadSettings(
  current: LoadedSettings,
  env: NodeJS.ProcessEnv = process.env,
  options: LoadConfigOptions = {},
): Promise<ReloadResult> {
  const sources = readSources(env, options);
  const unchanged: ReloadResult = {
    settings: current,
    applied: [],
    needsRestart: [],
    refused: [],
  };
  // A problem naming no setting (the env file itself) would make every value look removed.
  const known = new Set<string>(VARIABLES);
  const fileProblem = sources.problems.filter((problem) => !known.has(baseName(problem.variable)));
  if (fileProblem.length > 0) return { ...unchanged, refused: fileProblem };

  const changed = VARIABLES.filter((name) => sources.values[name] !== current.values[name]);
  if (changed.length === 0 && sources.problems.length === 0) return unchanged;

  // Each new value checked on its own merits, as a restart would see the whole new set.
  const refused = new Map<string, ConfigProblem>();
  for (const problem of sources.problems) refused.set(baseName(problem.variable), problem);
  const whole = await parseValues(sources.values, sources.failedSecrets);
  if (!whole.ok) {
    for (const problem of whole.problems) {
      if (changed.includes(problem.variable as (typeof VARIABLES)[number])) {
        refused.set(problem.variable, problem);
      }
    }
  }

  const candidates = changed.filter((name) => RELOADABLE_VARIABLES.has(name) && !refused.has(name));
  const needsRestart = changed.filter(
    (name) => !RELOADABLE_VARIABLES.has(name) && !refused.has(name),
  );
  const applied = await applyValid(current, sources.values, candidates, refused);
  return {
    settings: applied.settings,
    applied: applied.names,
    needsRestart,
    refused: sortProblems([...refused.values()]),
  };
}

/**
 * Applies `candidates` on top of the current values. A candidate that fails only together
 * with the others (a rule tying variables) is refused too, and the rest are tried again; the
 * current values parse, so this ends at the latest when every candidate is refused.
 */
async function applyValid(
  current: LoadedSettings,
  next: Readonly<Record<string, string | undefined>>,
  candidates: string[],
  refused: Map<string, ConfigProblem>,
): Promise<{ settings: LoadedSettings; names: string[] }> {
  let names = [...candidates];
  while (names.length > 0) {
    const values: Record<string, string | undefined> = { ...current.values };
    for (const name of names) {
      if (next[name] === undefined) delete values[name];
      else values[name] = next[name];
    }
    const parsed = await parseValues(values);
    if (parsed.ok) return { settings: { config: parsed.config, values }, names };
    const failing = parsed.problems.filter((problem) => names.includes(problem.variable));
    // A problem outside the candidates cannot come from them: give up on all of them.
    const dropped = failing.length > 0 ? failing : parsed.problems;
    for (const problem of dropped) refused.set(problem.variable, problem);
    const droppedNames = new Set(dropped.map((problem) => problem.variable));
    names = failing.length > 0 ? names.filter((name) => !droppedNames.has(name)) : [];
  }
  return { settings: current, names: [] };
}

function baseName(variable: string): string {
  return variable.endsWith("_FILE") ? variable.slice(0, -"_FILE".length) : variable;
}
