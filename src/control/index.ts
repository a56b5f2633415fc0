export { openControlPlane, SqliteControlPlane, CONTROL_NAMESPACE, type ControlPlaneOptions } from './open-control-plane.js';
export { applyMigrations, type Migration } from './migrations.js';
export { DEFAULT_WORKSPACE_NAME } from './orgs.js';
export { PERSONAL_ACCESS_TOKEN_PREFIX } from './tokens.js';
export type { Clock } from './clock.js';
export type * from './types.js';
