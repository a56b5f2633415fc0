import { randomBytes } from 'node:crypto';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { provisionOrganization } from '../app/provision.js';
import { isLoopbackUrl } from '../config/index.js';
import { newId } from '../ids.js';
import type { Services } from '../app/services.js';
import type { ChangeContext } from '../store/types.js';
import { DEMO_FOLDERS, DEMO_ORG_NAME, DEMO_PRODUCT, DEMO_ROOT_PAGES, type SampleArtifact } from './sample.js';

export interface DemoInfo {
  readonly orgId: string;
  readonly orgName: string;
  readonly productId: string;
  readonly userEmail: string;
  readonly userName: string;
  /** Sign-in password of the demo account (embedded identity provider). */
  readonly password: string;
  /** Personal access token of the demo account. */
  readonly token: string;
}

export const DEMO_USER = Object.freeze({ email: 'demo@example.com', name: 'Demo Owner' });

/**
 * The demo's credentials are kept in the data directory (mode 0600, in a directory of mode
 * 0700) for `specbase demo` to show again; the start-up banner prints them only when it
 * created them.
 */
const demoFile = (dataDir: string) => path.join(dataDir, 'demo.json');

export async function readDemo(dataDir: string): Promise<DemoInfo | undefined> {
  try {
    return JSON.parse(await readFile(demoFile(dataDir), 'utf8')) as DemoInfo;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** What a start does about the demo: the one it found or made, or why there is none. */
export type StartupDemo =
  | { readonly demo: DemoInfo; readonly created: boolean }
  | { readonly demo?: undefined; readonly created: false; readonly reason: string };

/**
 * The demo at start-up, created only when asked: `SPECBASE_DEMO=on`, or (`auto`, the default)
 * on a fresh local sandbox, with no organization yet and a loopback base URL. A service with a
 * public address never gets an account whose password went to its log.
 */
export async function startupDemo(services: Services): Promise<StartupDemo> {
  const existing = await readDemo(services.config.dataDir);
  if (existing && (await services.control.orgs.get(existing.orgId))) return { demo: existing, created: false };
  const { demo: wanted, baseUrl } = services.config;
  if (wanted === 'off') return { created: false, reason: 'SPECBASE_DEMO is off' };
  if (wanted === 'auto' && !isLoopbackUrl(baseUrl)) {
    return {
      created: false,
      reason: `the base URL ${baseUrl} is not a loopback address (SPECBASE_DEMO=on creates it anyway)`,
    };
  }
  if (wanted === 'auto' && (await services.control.orgs.list()).length > 0) {
    return {
      created: false,
      reason: 'the data directory already has organizations (SPECBASE_DEMO=on creates it anyway)',
    };
  }
  return ensureDemo(services);
}

/** The demo organization, created on first call and reused after. */
export async function ensureDemo(services: Services): Promise<{ demo: DemoInfo; created: boolean }> {
  const existing = await readDemo(services.config.dataDir);
  if (existing && (await services.control.orgs.get(existing.orgId))) return { demo: existing, created: false };
  const demo = await seedDemo(services);
  await writeFile(demoFile(services.config.dataDir), `${JSON.stringify(demo, null, 2)}\n`, { mode: 0o600 });
  await chmod(demoFile(services.config.dataDir), 0o600);
  return { demo, created: true };
}

async function seedDemo(services: Services): Promise<DemoInfo> {
  const { control, store } = services;
  const user =
    (await control.users.byEmail(DEMO_USER.email)) ??
    (await control.users.upsert({ issuer: 'local', subject: newId(), ...DEMO_USER }));
  const password = randomBytes(12).toString('base64url');
  await control.users.setPassword(user.id, password);
  const { org, defaultWorkspace, productId } = await provisionOrganization(services, {
    name: DEMO_ORG_NAME,
    owner: user,
    productTitle: DEMO_PRODUCT.title,
    productBody: DEMO_PRODUCT.body,
  });
  const restricted = await control.workspaces.create({ orgId: org.id, name: 'Leadership' });
  const ctx: ChangeContext = { author: { name: user.name, email: user.email }, client: 'demo' };

  const plant = async (parentId: string, items: readonly SampleArtifact[]): Promise<void> => {
    for (const item of items) {
      const { artifact } = await store.create(
        org.id,
        {
          type: item.type,
          parentId,
          workspaceId: defaultWorkspace.id,
          title: item.title,
          body: item.body,
          ...(item.requirementType ? { requirementType: item.requirementType } : {}),
        },
        ctx,
      );
      await plant(artifact.id, item.children ?? []);
    }
  };
  await plant(productId, DEMO_PRODUCT.children);

  for (const page of DEMO_ROOT_PAGES) {
    await store.create(org.id, { type: 'page', parentId: null, workspaceId: defaultWorkspace.id, ...page }, ctx);
  }
  for (const folder of DEMO_FOLDERS) {
    const workspaceId = folder.workspace === 'restricted' ? restricted.id : defaultWorkspace.id;
    const record = await store.createFolder(org.id, { name: folder.name, parentId: null, workspaceId }, ctx);
    for (const page of folder.pages) {
      await store.create(org.id, { type: 'page', parentId: record.id, workspaceId, ...page }, ctx);
    }
  }

  const { secret } = await control.tokens.create({ userId: user.id, name: 'demo' });
  return {
    orgId: org.id,
    orgName: org.name,
    productId,
    userEmail: user.email,
    userName: user.name,
    password,
    token: secret,
  };
}
