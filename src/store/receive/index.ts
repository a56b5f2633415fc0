/** Pushes through native git: the pushed commits judged against `main` before git moves it. */
export { checkPush, type PushToCheck } from './check-push.js';
