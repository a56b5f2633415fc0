import { parseArgs } from 'node:util';
import { openServices } from '../app/services.js';
import { ConfigError } from '../config/index.js';
import { loadConfigAsServed } from '../config/recorded-base-url.js';
import { SpecbaseError } from '../errors.js';
import { ARTIFACT_COMMANDS } from './artifact-commands.js';
import { EXPORT_COMMAND } from './export-command.js';
import { IMPORT_COMMAND } from './import-command.js';
import { COMMANDS as ADMIN_COMMANDS, type Command } from './commands.js';

const COMMANDS: readonly Command[] = [...ADMIN_COMMANDS, ...ARTIFACT_COMMANDS, IMPORT_COMMAND, EXPORT_COMMAND];

const EXIT_FAILURE = 1;
const EXIT_USAGE = 2;

class UsageError extends Error {}

const usage = (): string =>
  [
    'Usage: specbase <command> [options] [--json] [--data-dir DIR] [--database-url postgres://…]',
    '',
    ...COMMANDS.map((c) => `  specbase ${c.usage}`),
  ].join('\n');

function findCommand(argv: readonly string[]): { command: Command; rest: string[] } {
  const words = argv.filter((a) => !a.startsWith('-')).slice(0, 2);
  for (const length of [2, 1]) {
    const name = words.slice(0, length).join(' ');
    const command = COMMANDS.find((c) => c.name === name);
    if (command && argv.slice(0, length).join(' ') === name) return { command, rest: argv.slice(length) };
  }
  throw new UsageError(argv.length ? `unknown command: ${argv.slice(0, 2).join(' ')}` : 'no command given');
}

function render(result: Record<string, unknown>, json: boolean): string {
  if (json) return JSON.stringify(result, null, 2);
  return Object.entries(result)
    .map(
      ([key, value]) =>
        `${key}: ${typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value)}`,
    )
    .join('\n');
}

export async function runCli(argv: readonly string[]): Promise<number> {
  let json = argv.includes('--json');
  try {
    if (argv.includes('--help') || argv.includes('-h')) {
      process.stdout.write(`${usage()}\n`);
      return 0;
    }
    const { command, rest } = findCommand(argv);
    const { values, positionals } = parseArgs({
      args: rest,
      options: {
        ...command.flags,
        json: { type: 'boolean' },
        'data-dir': { type: 'string' },
        'database-url': { type: 'string' },
      },
      strict: true,
      allowPositionals: Boolean(command.positional),
    });
    json = values.json === true;
    if (positionals.length > 1) throw new UsageError(`one ${command.positional} only\n  specbase ${command.usage}`);
    const flags = {
      ...values,
      ...(command.positional && positionals[0] ? { [command.positional]: positionals[0] } : {}),
    } as Record<string, string | boolean | undefined>;
    const missing = (command.required ?? []).filter(
      (flag) => typeof flags[flag] !== 'string' || !String(flags[flag]).trim(),
    );
    if (missing.length)
      throw new UsageError(`missing ${missing.map((m) => `--${m}`).join(', ')}\n  specbase ${command.usage}`);
    const env = {
      ...process.env,
      ...(values['data-dir'] ? { SPECBASE_DATA_DIR: String(values['data-dir']) } : {}),
      ...(values['database-url'] !== undefined ? { SPECBASE_DATABASE_URL: String(values['database-url']) } : {}),
    };
    const services = await openServices(loadConfigAsServed(env), { deliverWebhooks: false });
    try {
      const result = await command.run(services, flags);
      process.stdout.write(`${render(result, json)}\n`);
      return 0;
    } finally {
      await services.close();
    }
  } catch (error) {
    const isUsage = error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    const known = isUsage || error instanceof SpecbaseError || error instanceof ConfigError;
    const message = known ? (error as Error).message : `unexpected error: ${(error as Error).stack ?? String(error)}`;
    const code = error instanceof SpecbaseError ? error.code : isUsage ? 'usage' : 'error';
    process.stderr.write(
      json
        ? `${JSON.stringify({ error: code, message })}\n`
        : `specbase: ${message}\n${isUsage ? `\n${usage()}\n` : ''}`,
    );
    return isUsage ? EXIT_USAGE : EXIT_FAILURE;
  }
}

// As the service (main.ts): what the CLI creates in the data directory is its owner's alone.
process.umask(0o077);
process.exitCode = await runCli(process.argv.slice(2));
