export { createGitHttpRouter, type GitHttpRouterDeps } from './create-git-http-router.js';
export type { PushDeps } from './serve-push.js';
export type { GitHttpDeps } from './admit-git-request.js';
