import type { SqlDatabase } from '../../src/control/sql/types.js';

/**
 * The database as a backend that cannot tell when it changed: the control plane then reads
 * every call's token and principal from it (see readsUntilChange), which is the work the
 * control-plane benches compare across backends and drivers.
 */
export function everyReadFromDatabase(db: SqlDatabase): SqlDatabase {
  return {
    dialect: db.dialect,
    all: (sql, params) => db.all(sql, params),
    get: (sql, params) => db.get(sql, params),
    run: (sql, params) => db.run(sql, params),
    transaction: (work) => db.transaction(work),
    migrate: (namespace, migrations) => db.migrate(namespace, migrations),
    exclusive: (name, work) => db.exclusive(name, work),
    changeStamp: () => Promise.resolve(undefined),
    ping: () => db.ping(),
    close: () => db.close(),
  };
}
