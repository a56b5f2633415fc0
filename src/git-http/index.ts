export { createGitHttpRouter } from './create-git-http-router.js';
export type { GitHttpDeps } from './admit-git-request.js';
