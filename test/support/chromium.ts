import { fileURLToPath } from 'node:url';

/** Debian's Chromium, which the browser tests need (they are skipped where it is missing). */
export const CHROMIUM = '/usr/bin/chromium';

/** What Playwright starts for it: Chromium that cannot raise its own priority (see the script). */
export const CHROMIUM_LAUNCHER = fileURLToPath(new URL('./chromium-at-normal-priority.sh', import.meta.url));
