/** Access control for purchases: the gate and the group administrator checks it relies on. */
export {
  type AccessGateOptions,
  checkGroupRequest,
  createAccessGate,
  type GroupRefusal,
  groupRefusalText,
} from "./gate.js";
export {
  type AdminCheck,
  GroupAdminChecker,
  type GroupAdminCheckerOptions,
} from "./group-admins.js";
