/**
 * The module `name` beside `callerUrl` (the caller's import.meta.url), for code that starts a
 * thread or a process on it: TypeScript when the caller itself runs from sources (tests, tsx),
 * which the new thread or process must then load through tsx; compiled JavaScript otherwise.
 */
export function moduleBeside(callerUrl: string, name: string): { readonly url: URL; readonly fromSources: boolean } {
  const fromSources = callerUrl.endsWith('.ts');
  return { url: new URL(`./${name}.${fromSources ? 'ts' : 'js'}`, callerUrl), fromSources };
}
