/**
 * The environment every git the service starts runs in: the service's own, without GIT_*
 * variables that could point git at another repository or index, without the machine's system
 * configuration, and never prompting; `extra` adds what one kind of run needs (GIT_PROTOCOL).
 */
export function gitEnvironment(extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' };
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GIT_')) env[key] = value;
  return { ...env, ...extra };
}
