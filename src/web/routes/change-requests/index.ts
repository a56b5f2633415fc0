import express from 'express';
import type { ChangeRequestRouteDeps } from './deps.js';
import { mergeRoutes } from './merge.js';
import { readRoutes } from './read.js';
import { threadRoutes } from './thread.js';

export type { ChangeRequestRouteDeps } from './deps.js';

/** Change requests for people: the list, one page each for review, its thread, and merge. */
export function changeRequestRoutes(deps: ChangeRequestRouteDeps): express.Router {
  const router = express.Router();
  router.use(readRoutes(deps));
  router.use(threadRoutes(deps));
  router.use(mergeRoutes(deps));
  return router;
}
