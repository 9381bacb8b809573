/** The config room's public surface: load once at start, then pass `Config` around. */
export { serviceCredentials } from "./credentials.js";
export { ConfigError, type ConfigProblem, formatProblems } from "./errors.js";
export { type LoadConfigOptions, loadConfig } from "./load.js";
export { SECRET_VARIABLES, VARIABLES } from "./schema.js";
export { type ConfigSummary, configSummary } from "./summary.js";
export type * from "./types.js";
