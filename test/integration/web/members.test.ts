import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember } from '../../../src/control/index.js';
import { startHarness, type Harness } from '../../support/harness.js';
import { launchBrowser, signIn, type SignedIn } from './support.js';

describe('web: members and workspaces for organization admins, every change audited', () => {
  let harness: Harness;
  let browser: Browser;
  let owner: SignedIn;
  let members: string;

  beforeAll(async () => {
    harness = await startHarness();
    browser = await launchBrowser();
    owner = await signIn(browser, harness, 'owner');
    owner.answerDialogs('accept');
    members = `${harness.baseUrl}/o/${harness.orgId}/members`;
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await harness?.close();
  });

  const row = (email: string) => owner.page.locator(`tr[data-member="${email}"]`);
  const auditDetails = async (action: string) =>
    (await harness.services.control.audit.page({ orgId: harness.orgId, action, limit: 10 })).entries.map(
      (e) => e.detail,
    );

  it('lists each member with their role in each workspace, and changes roles as the CLI would', async () => {
    const { page } = owner;
    await page.goto(`${harness.baseUrl}/o/${harness.orgId}`);
    await page.getByRole('link', { name: 'Members' }).click();
    await page.waitForURL(members);
    const partial = row('partial@example.com');
    expect([
      await partial.locator('select').nth(0).inputValue(),
      await partial.locator('select').nth(1).inputValue(),
    ]).toEqual(['editor', '']);
    expect(await row(harness.users.owner.user.email).innerText()).toContain('owner');
    await partial.getByLabel('Partial Tester in Leadership').selectOption('viewer');
    await partial.getByRole('button', { name: 'Save roles' }).click();
    await page.waitForURL(members);
    const principal = await harness.services.control.members.principal(harness.orgId, harness.users.partial.user.id);
    expect(principal?.roles.get(harness.restrictedWorkspaceId)).toBe('viewer');
    expect(await auditDetails('web.member.roles')).toEqual([
      'roles of partial@example.com: Leadership: no access → viewer',
    ]);
  });

  it('adds a person by email with a link to set their password once, then they sign in', async () => {
    const { page } = owner;
    await page.goto(members);
    await page.locator('#m-email').fill('newcomer@example.com');
    await page.locator('#m-name').fill('New Comer');
    await page.locator('#m-role').selectOption('editor');
    await page.getByRole('button', { name: 'Add person' }).click();
    const link = await page.locator('#invite-link').innerText();
    expect(link).toMatch(new RegExp(`^${harness.baseUrl}/invite/[A-Za-z0-9_-]{43}$`));
    expect(await row('newcomer@example.com').locator('select').first().inputValue()).toBe('editor');

    const context = await browser.newContext();
    const invited = await context.newPage();
    await invited.goto(link);
    await invited.getByLabel('Password', { exact: false }).first().fill('newcomer-password-1');
    await invited.getByLabel('The same password again').fill('newcomer-password-1');
    await invited.getByRole('button', { name: 'Set password' }).click();
    expect(await invited.getByRole('heading', { level: 1 }).innerText()).toBe('Your password is set');
    await invited.goto(link);
    expect(await invited.getByRole('heading', { level: 1 }).innerText()).toBe('This link no longer works');
    await invited.goto(`${harness.baseUrl}/o/${harness.orgId}`);
    await invited.getByLabel('Email').fill('newcomer@example.com');
    await invited.getByLabel('Password').fill('newcomer-password-1');
    await invited.getByRole('button', { name: 'Sign in' }).click();
    await invited.waitForURL(`${harness.baseUrl}/o/${harness.orgId}`);
    expect(await invited.locator('header .org-name').innerText()).toBe(harness.demo.orgName);
    await context.close();
    expect((await auditDetails('web.member.add'))[0]).toBe(
      'gave newcomer@example.com the role editor in Default, with an invitation to set a password',
    );
  });

  it('removes a member, never the last owner', async () => {
    const { page } = owner;
    await page.goto(members);
    await row('viewer@example.com').getByRole('button', { name: 'Remove Viewer Tester' }).click();
    await page.waitForURL(members);
    expect(await row('viewer@example.com').count()).toBe(0);
    expect(await harness.services.control.members.principal(harness.orgId, harness.users.viewer.user.id)).toBe(
      undefined,
    );
    const ownerEmail = harness.users.owner.user.email;
    await row(ownerEmail)
      .getByRole('button', { name: /^Remove / })
      .click();
    expect(await page.getByRole('alert').innerText()).toContain('the last owner of an organization cannot be removed');
    expect(await row(ownerEmail).count()).toBe(1);
    const [refused] = (
      await harness.services.control.audit.page({ orgId: harness.orgId, action: 'web.member.remove', limit: 1 })
    ).entries;
    expect(refused?.outcome).toBe('error');
  });

  it('creates and renames workspaces', async () => {
    const { page } = owner;
    await page.goto(members);
    await page.getByLabel('New workspace').fill('Research');
    await page.getByRole('button', { name: 'Create workspace' }).click();
    await page.waitForURL(members);
    await page.getByLabel('Name of Research').fill('Research and Design');
    await page.getByLabel('Name of Research').press('Enter');
    await page.waitForURL(members);
    expect(await page.locator('table.members thead th').allInnerTexts()).toContain('Research and Design');
    expect(await auditDetails('web.workspace.rename')).toEqual([
      'renamed the workspace Research to Research and Design',
    ]);
    await page.getByLabel('New workspace').fill('research and design');
    await page.getByRole('button', { name: 'Create workspace' }).click();
    expect(await page.getByRole('alert').innerText()).toContain('already has a workspace named');
  });

  it('refuses anyone but an organization admin', async () => {
    const editor = await signIn(browser, harness, 'editor');
    const response = await editor.page.goto(members);
    expect(response?.status()).toBe(403);
    await editor.context.close();
  });

  it('lets a person added for an external issuer in at their first sign-in there', async () => {
    const { control } = harness.services;
    const issuer = 'https://idp.example.com';
    const added = await addMember(control, {
      orgId: harness.orgId,
      email: 'later@example.com',
      name: 'Later Person',
      workspaceId: harness.defaultWorkspaceId,
      role: 'viewer',
      issuer,
      addedBy: null,
    });
    expect(added.awaitingSignIn).toBe(true);
    expect(added.invitation).toBeUndefined();
    const signedIn = await control.users.upsert({
      issuer,
      subject: 'sub-123',
      email: 'later@example.com',
      name: 'Later',
    });
    expect(signedIn.id).toBe(added.user.id);
    expect((await control.members.principal(harness.orgId, signedIn.id))?.roles.get(harness.defaultWorkspaceId)).toBe(
      'viewer',
    );
  });
});
