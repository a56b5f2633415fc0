export { launcher, type LaunchOptions } from './launcher.js';
export type { LaunchedProcess } from './launched.js';
export { run, RunFailure, type RunFailureReason, type RunOptions } from './run.js';
export { gitEnvironment } from './git-environment.js';
