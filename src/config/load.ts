/**
 * Reads the settings once, at start: the process environment, a `.env` file when there is
 * one, and `NAME_FILE` secret files, then the schema; `.env.example`'s placeholders are
 * refused (placeholders.ts). Anything wrong becomes one `ConfigError` that lists every bad
 * variable, so the operator sees the whole picture.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseEnv } from "node:util";
import type { z } from "zod";
import { ConfigError, type ConfigProblem } from "./errors.js";
import { placeholderProblems } from "./placeholders.js";
import { configSchema, SECRET_VARIABLES, VARIABLES } from "./schema.js";
import type { Config } from "./types.js";

export interface LoadConfigOptions {
  /**
   * A dotenv-style file read under the environment (a variable set in the environment wins).
   * Default: `.env` in the current directory, skipped when absent. `false`: read no file.
   * A path given here must exist.
   */
  envFile?: string | false;
}

type Env = Record<string, string | undefined>;

/**
 * The configuration together with the values it was parsed from (one per schema variable,
 * `NAME_FILE` contents already moved into `NAME`), so a reload can compare new values with
 * these and keep an old one where a new one is refused. Holds secrets: never log it.
 */
export interface LoadedSettings {
  config: Config;
  values: Readonly<Env>;
}

/** What the sources (environment, dotenv file, secret files) hold right now, before the schema. */
export interface SettingsSources {
  /** Schema variables only, trimmed, empty ones left out. */
  values: Env;
  /** Problems reading the sources: an unreadable env file, a secret file that failed. */
  problems: ConfigProblem[];
  /** Variables whose `NAME_FILE` failed or that hold a placeholder (their problem is in `problems`). */
  failedSecrets: Set<string>;
  /** The default `.env` was looked for and is not there (a fresh clone, most likely). */
  envFileMissing: boolean;
  /**
   * Variables with no value that the dotenv file holds only in a comment (`# NAME=...`, as
   * `.env.example` shows the wallet phrase), each with the file's name for the way out.
   */
  commentedOut: Map<string, string>;
}

/** Said first when settings are missing and there is no `.env`: where a newcomer starts. */
const NO_ENV_FILE: ConfigProblem = {
  variable: ".env",
  reason: "not found here: copy .env.example to .env and fill in the real values",
};

/**
 * The typed configuration, or a rejected `ConfigError` naming every bad or missing variable.
 * `env` defaults to `process.env`; it is never modified.
 */
export async function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  options: LoadConfigOptions = {},
): Promise<Config> {
  return (await loadSettings(env, options)).config;
}

/** {@link loadConfig}, keeping the values the configuration was parsed from (for reloads). */
export async function loadSettings(
  env: NodeJS.ProcessEnv = process.env,
  options: LoadConfigOptions = {},
): Promise<LoadedSettings> {
  const sources = readSources(env, options);
  const parsed = await parseValues(sources.values, sources.failedSecrets);
  const problems = [...sources.problems, ...(parsed.ok ? [] : parsed.problems)];
  if (problems.length > 0 || !parsed.ok) {
    const hint = sources.envFileMissing ? [NO_ENV_FILE] : [];
    const explained = problems.map((problem) => explainCommentedOut(problem, sources));
    throw new ConfigError([...hint, ...sortProblems(explained)]);
  }
  return { config: parsed.config, values: sources.values };
}

/** Reads the environment, the dotenv file and the `NAME_FILE` secrets, as at start. */
export function readSources(
  env: NodeJS.ProcessEnv,
  options: LoadConfigOptions = {},
): SettingsSources {
  const problems: ConfigProblem[] = [];
  const file = readEnvFile(options.envFile, problems);
  const fromEnvironment = withoutEmpty(env);
  const merged: Env = { ...withoutEmpty(file?.values ?? {}), ...fromEnvironment };
  const commentedOut = new Map<string, string>();
  for (const name of file?.commented ?? []) {
    if (merged[name] === undefined && merged[`${name}_FILE`] === undefined) {
      commentedOut.set(name, file?.name ?? ".env");
    }
  }
  const failedSecrets = resolveSecretFiles(merged, problems);
  // The way out names where the placeholder is: the file a person copied and must now edit.
  const wayOut = (variable: string): string =>
    fromEnvironment[variable] === undefined && file !== undefined
      ? `edit ${file.name} and put in the real value`
      : "set the real value in the environment";
  for (const problem of placeholderProblems(merged, VARIABLES, wayOut)) {
    problems.push(problem);
    failedSecrets.add(problem.variable);
  }
  const values: Env = {};
  for (const name of VARIABLES) {
    if (merged[name] !== undefined) values[name] = merged[name];
  }
  return {
    values,
    problems,
    failedSecrets,
    envFileMissing: file === undefined,
    commentedOut,
  };
}

/**
 * A required variable that the dotenv file has only in a comment: said as such, so a person
 * who copied `.env.example` edits the line they have instead of looking for a missing one.
 */
function explainCommentedOut(problem: ConfigProblem, sources: SettingsSources): ConfigProblem {
  const file = sources.commentedOut.get(problem.variable);
  if (file === undefined || !problem.reason.startsWith("is required")) return problem;
  return {
    variable: problem.variable,
    reason: `is commented out in ${file}: edit ${file}, remove the "#" and put in the real value`,
  };
}

/** Runs the schema over flat values; problems name variables, never values. */
export async function parseValues(
  values: Env,
  skip: Set<string> = new Set(),
): Promise<{ ok: true; config: Config } | { ok: false; problems: ConfigProblem[] }> {
  const result = await configSchema.safeParseAsync(values);
  if (result.success) return { ok: true, config: result.data };
  return { ok: false, problems: toProblems(result.error, skip) };
}

/** Empty (or blank) strings count as unset, so `NAME=` in a file does not hide a default. */
function withoutEmpty(env: Env): Env {
  const out: Env = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && value.trim() !== "") out[name] = value.trim();
  }
  return out;
}

/** A dotenv file as read: its variables, those it holds only in comments, and how to name it. */
interface EnvFile {
  values: Env;
  commented: string[];
  /** As the person gave it (`ENV_FILE`), or `.env`. */
  name: string;
}

/** `# NAME=...` in a dotenv file: a setting shown but switched off. */
const COMMENTED_SETTING = /^[ \t]*#[ \t]*([A-Z][A-Z0-9_]*)[ \t]*=/gm;

/** The file's variables; undefined when the default `.env` is simply not there. */
function readEnvFile(
  envFile: string | false | undefined,
  problems: ConfigProblem[],
): EnvFile | undefined {
  const name = envFile === undefined || envFile === false ? ".env" : envFile;
  if (envFile === false) return { values: {}, commented: [], name };
  const path = resolve(envFile ?? ".env");
  let content: string;
  try {
    content = readFileSync(path, "utf8");
  } catch (error) {
    if (envFile === undefined && errorCode(error) === "ENOENT") return undefined;
    problems.push({
      variable: "(env file)",
      reason: `${path} cannot be read (${errorCode(error)})`,
    });
    return { values: {}, commented: [], name };
  }
  const commented = [...content.matchAll(COMMENTED_SETTING)].map((match) => match[1] ?? "");
  return { values: parseEnv(content), commented, name };
}

/**
 * Moves each `NAME_FILE`'s trimmed content into `NAME`, as container secrets are mounted.
 * Returns the secrets whose file failed, so the schema's "is required" does not repeat them.
 */
function resolveSecretFiles(env: Env, problems: ConfigProblem[]): Set<string> {
  const failed = new Set<string>();
  for (const name of SECRET_VARIABLES) {
    const fileVariable = `${name}_FILE`;
    const path = env[fileVariable];
    if (path === undefined) continue;
    delete env[fileVariable];
    if (env[name] !== undefined) {
      problems.push({
        variable: fileVariable,
        reason: `${name} and ${fileVariable} are both set: keep only one`,
      });
      failed.add(name);
      continue;
    }
    try {
      const content = readFileSync(resolve(path), "utf8").trim();
      if (content === "") {
        problems.push({ variable: fileVariable, reason: `the file ${path} is empty` });
        failed.add(name);
      } else {
        env[name] = content;
      }
    } catch (error) {
      problems.push({
        variable: fileVariable,
        reason: `the file ${path} cannot be read (${errorCode(error)})`,
      });
      failed.add(name);
    }
  }
  return failed;
}

/** One problem per variable (its first issue), named by the schema's key; never the value. */
function toProblems(error: z.ZodError, skip: Set<string>): ConfigProblem[] {
  const seen = new Set<string>();
  const problems: ConfigProblem[] = [];
  for (const issue of error.issues) {
    const variable = String(issue.path[0] ?? "(configuration)");
    if (skip.has(variable) || seen.has(variable)) continue;
    seen.add(variable);
    problems.push({ variable, reason: issue.message });
  }
  return problems;
}

/** The schema's order (grouped by topic), so the list reads like `.env.example`. */
export function sortProblems(problems: ConfigProblem[]): ConfigProblem[] {
  const rank = (variable: string): number => {
    const base = variable.endsWith("_FILE") ? variable.slice(0, -"_FILE".length) : variable;
    const index = (VARIABLES as string[]).indexOf(base);
    return index === -1 ? -1 : index;
  };
  return [...problems].sort((a, b) => rank(a.variable) - rank(b.variable));
}

function errorCode(error: unknown): string {
  if (error && typeof error === "object" && "code" in error && typeof error.code === "string") {
    return error.code;
  }
  return "unknown error";
}
