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
 * The typed configuration, or a rejected `ConfigError` naming every bad or missing variable.
 * `env` defaults to `process.env`; it is never modified.
 */
export async function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  options: LoadConfigOptions = {},
): Promise<Config> {
  const problems: ConfigProblem[] = [];
  const fileEnv = readEnvFile(options.envFile, problems);
  const merged: Env = { ...withoutEmpty(fileEnv), ...withoutEmpty(env) };
  const failed = resolveSecretFiles(merged, problems);
  for (const problem of placeholderProblems(merged, VARIABLES)) {
    problems.push(problem);
    failed.add(problem.variable);
  }

  const result = await configSchema.safeParseAsync(merged);
  if (!result.success) problems.push(...toProblems(result.error, failed));
  if (problems.length > 0 || !result.success) throw new ConfigError(sortProblems(problems));
  return result.data;
}

/** Empty (or blank) strings count as unset, so `NAME=` in a file does not hide a default. */
function withoutEmpty(env: Env): Env {
  const out: Env = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && value.trim() !== "") out[name] = value.trim();
  }
  return out;
}

function readEnvFile(envFile: string | false | undefined, problems: ConfigProblem[]): Env {
  if (envFile === false) return {};
  const path = resolve(envFile ?? ".env");
  let content: string;
  try {
    content = readFileSync(path, "utf8");
  } catch (error) {
    if (envFile === undefined && errorCode(error) === "ENOENT") return {};
    problems.push({
      variable: "(env file)",
      reason: `${path} cannot be read (${errorCode(error)})`,
    });
    return {};
  }
  return parseEnv(content);
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
function sortProblems(problems: ConfigProblem[]): ConfigProblem[] {
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
