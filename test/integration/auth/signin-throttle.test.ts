import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../support/harness.js';
import { formAction, formField, HttpBrowser } from './browser.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** The embedded provider's password page, reached the way a browser does: /signin and its redirects. */
async function signInPage(
  harness: Harness,
): Promise<{ browser: HttpBrowser; attempt(email: string, password: string): Promise<Response> }> {
  const browser = new HttpBrowser();
  const { url, response } = await browser.follow(`${harness.baseUrl}/signin`);
  const html = await response.text();
  expect(response.status).toBe(200);
  const action = new URL(formAction(html), url).href;
  const csrf = formField(html, 'csrf');
  return { browser, attempt: (email, password) => browser.post(action, { csrf, email, password }) };
}

const alertOf = async (response: Response): Promise<string> =>
  /<p role="alert">([^<]*)<\/p>/.exec(await response.text())?.[1] ?? '';

describe('password attempts on the embedded sign-in are throttled', () => {
  it('per account: after the allowed failures even the right password waits, with Retry-After; after that wait it works', async () => {
    // Two failures per 10 s: one comes back every 5 s, slower than a password check takes.
    h = await startHarness({
      env: { SPECBASE_SIGNIN_FAILURES_PER_ACCOUNT: '2', SPECBASE_SIGNIN_WINDOW_SECONDS: '10' },
    });
    const { email } = h.users.editor.user;
    const page = await signInPage(h);
    for (let i = 0; i < 2; i++) {
      const wrong = await page.attempt(email, 'not-the-password');
      expect(wrong.status).toBe(401);
      expect(await alertOf(wrong)).toBe('Wrong email or password.');
    }
    const refused = await page.attempt(email, h.users.editor.password);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(5);
    expect(await alertOf(refused)).toBe(
      `Too many failed sign-in attempts for this account. Try again in ${retryAfter} second${retryAfter === 1 ? '' : 's'}.`,
    );
    // Other accounts are not held back by this one's failures.
    const other = await signInPage(h);
    expect((await other.attempt(h.users.viewer.user.email, h.users.viewer.password)).status).toBe(303);

    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000 + 100));
    const signedIn = await page.attempt(email, h.users.editor.password);
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toMatch(/\/oidc\//);
  });

  it('per client address: failures over many accounts from one address are refused, whoever signs in', async () => {
    h = await startHarness({
      env: { SPECBASE_SIGNIN_FAILURES_PER_ADDRESS: '4', SPECBASE_SIGNIN_WINDOW_SECONDS: '600' },
    });
    const page = await signInPage(h);
    for (const name of ['a', 'b', 'c', 'd'])
      expect((await page.attempt(`${name}@example.com`, 'guess')).status).toBe(401);
    const refused = await page.attempt(h.users.viewer.user.email, h.users.viewer.password);
    expect(refused.status).toBe(429);
    // 4 attempts per 600 s: the next one in 150 s.
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(140);
    expect(await alertOf(refused)).toMatch(
      /^Too many failed sign-in attempts for your network address\. Try again in 3 minutes\.$/,
    );
  });

  it('with the defaults, a few mistakes and then the right password signs in', async () => {
    h = await startHarness();
    const page = await signInPage(h);
    for (let i = 0; i < 3; i++) expect((await page.attempt(h.users.owner.user.email, 'typo')).status).toBe(401);
    expect((await page.attempt(h.users.owner.user.email, h.users.owner.password)).status).toBe(303);
  });
});
