import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { sqliteAudit } from './audit.js';
import { systemClock, type Clock } from './clock.js';
import { sqliteMembers } from './members.js';
import { applyMigrations } from './migrations.js';
import { sqliteOrgs } from './orgs.js';
import { CONTROL_MIGRATIONS } from './schema.js';
import { sqlitePersonalAccessTokens } from './tokens.js';
import type { ControlPlane } from './types.js';
import { sqliteUsers } from './users.js';
import { sqliteWorkspaces } from './workspaces.js';

export const CONTROL_NAMESPACE = 'control';

/** How long a writer waits for another process's lock before SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5_000;

export interface ControlPlaneOptions {
  /** Database file, created with its directory when missing (`data/specbase.db` in production). */
  readonly file: string;
  readonly clock?: Clock;
}

/** The control plane over one SQLite file; `db` is shared with concerns that own their own tables (auth). */
export class SqliteControlPlane implements ControlPlane {
  readonly users: ControlPlane['users'];
  readonly orgs: ControlPlane['orgs'];
  readonly workspaces: ControlPlane['workspaces'];
  readonly members: ControlPlane['members'];
  readonly tokens: ControlPlane['tokens'];
  readonly audit: ControlPlane['audit'];

  constructor(
    readonly db: Database.Database,
    clock: Clock = systemClock,
  ) {
    this.users = sqliteUsers(db, clock);
    this.orgs = sqliteOrgs(db, clock);
    this.workspaces = sqliteWorkspaces(db, clock);
    this.members = sqliteMembers(db, clock);
    this.tokens = sqlitePersonalAccessTokens(db, clock);
    this.audit = sqliteAudit(db, clock);
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}

export async function openControlPlane(options: ControlPlaneOptions): Promise<SqliteControlPlane> {
  mkdirSync(path.dirname(path.resolve(options.file)), { recursive: true });
  const db = new Database(options.file, { timeout: BUSY_TIMEOUT_MS });
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    applyMigrations(db, CONTROL_NAMESPACE, CONTROL_MIGRATIONS);
    return new SqliteControlPlane(db, options.clock);
  } catch (error) {
    db.close();
    throw error;
  }
}
