/** The config room's public surface: load once at start, then pass `Config` around. */
export { serviceCredentials } from "./credentials.js";
export { ConfigError, type ConfigProblem } from "./errors.js";
export { type LoadConfigOptions, type LoadedSettings, loadConfig, loadSettings } from "./load.js";
export { RELOADABLE_VARIABLES, reloadSettings } from "./reload.js";
export { SECRET_VARIABLES, VARIABLES } from "./schema.js";
export { configSummary } from "./summary.js";
export type * from "./types.js";
export { FAIR_SHARE_DEFAULTS, GIVEAWAY_DEFAULTS } from "./types.js";
