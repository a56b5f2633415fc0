import { rmSync } from 'node:fs';
import { cp, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { WorkspaceRole } from '../../src/access/principal.js';
import { openServices, type Services } from '../../src/app/services.js';
import { loadConfig } from '../../src/config/index.js';
import type { User } from '../../src/control/types.js';
import { ensureDemo, type DemoInfo } from '../../src/demo/seed.js';
import { newId } from '../../src/ids.js';
import { createLogger } from '../../src/log.js';

export type Persona = 'owner' | 'editor' | 'viewer' | 'partial' | 'outsider';

export interface TestUser {
  readonly user: User;
  readonly token: string;
  readonly password: string;
}

export type Personas = Readonly<Record<Persona, TestUser>>;

const PERSONA_ROLES: Record<
  Exclude<Persona, 'owner' | 'outsider'>,
  { default: WorkspaceRole; restricted?: WorkspaceRole }
> = {
  editor: { default: 'editor', restricted: 'editor' },
  viewer: { default: 'viewer', restricted: 'viewer' },
  partial: { default: 'editor' },
};

/**
 * The demo organization and one user per persona, each with a personal access token, seeded by
 * the service's own code into a data directory whose services are then closed.
 */
export async function seedPersonas(services: Services, demo: DemoInfo): Promise<Personas> {
  const workspaces = await services.control.workspaces.list(demo.orgId);
  const defaultWorkspaceId = workspaces.find((w) => w.isDefault)!.id;
  const restrictedWorkspaceId = workspaces.find((w) => !w.isDefault)!.id;
  const owner = (await services.control.users.byEmail(demo.userEmail))!;

  const makeUser = async (persona: Exclude<Persona, 'owner'>): Promise<TestUser> => {
    const user = await services.control.users.upsert({
      issuer: 'local',
      subject: newId(),
      email: `${persona}@example.com`,
      name: `${persona[0]!.toUpperCase()}${persona.slice(1)} Tester`,
    });
    const password = `${persona}-password-123`;
    await services.control.users.setPassword(user.id, password);
    const roles = persona === 'outsider' ? undefined : PERSONA_ROLES[persona];
    if (roles) {
      await services.control.members.grant({
        orgId: demo.orgId,
        userId: user.id,
        workspaceId: defaultWorkspaceId,
        role: roles.default,
      });
      if (roles.restricted) {
        await services.control.members.grant({
          orgId: demo.orgId,
          userId: user.id,
          workspaceId: restrictedWorkspaceId,
          role: roles.restricted,
        });
      }
    }
    const { secret } = await services.control.tokens.create({ userId: user.id, name: `${persona} test token` });
    return { user, token: secret, password };
  };

  return {
    owner: { user: owner, token: demo.token, password: demo.password },
    editor: await makeUser('editor'),
    viewer: await makeUser('viewer'),
    partial: await makeUser('partial'),
    outsider: await makeUser('outsider'),
  };
}

interface Template {
  readonly dataDir: string;
  readonly personas: Personas;
}

let template: Promise<Template> | undefined;

/**
 * Seeding the demo costs a second and a half of CPU (every artifact is a commit, every password
 * a scrypt), and most test files start a harness or more: each process seeds one data directory
 * and every harness after that starts from a copy of it. The files are what the service wrote;
 * only the time to write them again is saved.
 */
function demoTemplate(): Promise<Template> {
  template ??= (async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'specbase-template-'));
    process.once('exit', () => rmSync(root, { recursive: true, force: true }));
    const dataDir = path.join(root, 'data');
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      SPECBASE_DATA_DIR: dataDir,
      SPECBASE_LOG_LEVEL: 'silent',
    });
    const services = await openServices(config, { log: createLogger(config.logLevel) });
    try {
      const { demo } = await ensureDemo(services);
      return { dataDir, personas: await seedPersonas(services, demo) };
    } finally {
      await services.close();
    }
  })();
  return template;
}

/** Fills an empty data directory with the seeded demo and its personas. */
export async function copyDemoInto(dataDir: string): Promise<Personas> {
  const { dataDir: seeded, personas } = await demoTemplate();
  await cp(seeded, dataDir, { recursive: true });
  return personas;
}
