/**
 * Reading Bot API parameters. grammY sends JSON, but Telegram also takes form fields and query
 * strings, where every value is a string and objects are JSON text; these readers accept both so
 * every method behaves the same whichever way it was called.
 */
import { badRequest } from "./errors.js";

/** Decoded parameters of one call. */
export type Params = Record<string, unknown>;

/** An optional integer; a numeric string counts (form and query values are strings). */
export function optionalInt(params: Params, name: string): number | undefined {
  const value = params[name];
  if (value === undefined || value === null || value === "") return undefined;
  const number = typeof value === "string" ? Number(value) : value;
  if (typeof number !== "number" || !Number.isInteger(number)) {
    throw badRequest(`field "${name}" must be an integer`);
  }
  return number;
}

/** A required integer. */
export function requiredInt(params: Params, name: string): number {
  const value = optionalInt(params, name);
  if (value === undefined) throw badRequest(`${name} is empty`);
  return value;
}

/** An optional string (numbers are turned into text, as Telegram does). */
export function optionalString(params: Params, name: string): string | undefined {
  const value = params[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return value;
  if (typeof value === "number") return String(value);
  throw badRequest(`field "${name}" must be of type String`);
}

/** An optional boolean; "true"/"false" strings count. */
export function optionalBool(params: Params, name: string): boolean | undefined {
  const value = params[name];
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value === "boolean") return value;
  if (value === "true" || value === "1") return true;
  if (value === "false" || value === "0") return false;
  throw badRequest(`field "${name}" must be of type Boolean`);
}

/** An optional object or array; JSON text counts (form fields carry objects as JSON). */
export function optionalJson(params: Params, name: string): unknown {
  const value = params[name];
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw badRequest(`can't parse ${name} JSON object`);
  }
}

/** True for a plain (non-array) object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
