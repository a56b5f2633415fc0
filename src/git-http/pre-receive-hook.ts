import { chmod, mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * git's pre-receive hook, run with the pushed objects in quarantine. POSIX sh and `cat` alone,
 * so that it starts in a few milliseconds (a Node hook spent 70 ms starting, more on a busy
 * machine, on every push): it opens the push's verdict FIFO, writes its secret, the
 * quarantine's object directories and git's ref update lines into the request FIFO (ended by a
 * line "."), and reads the verdict: a first line `ok` or `refused`, then what to tell the pusher,
 * which goes to stderr and so to the pusher's terminal as `remote:` lines. A non-zero exit
 * refuses every ref of the push. See push-verdicts.ts for the other end.
 */
const HOOK_SCRIPT = `#!/bin/sh
dir=$SPECBASE_PUSH_DIR
exec 3<"$dir/verdict" || exit 1
{
  printf '%s\\n%s\\n%s\\n' "$SPECBASE_PUSH_TOKEN" "$GIT_OBJECT_DIRECTORY" "$GIT_ALTERNATE_OBJECT_DIRECTORIES"
  cat
  printf '.\\n'
} >"$dir/request" || exit 1
verdict=$(cat <&3)
message=\${verdict#*
}
[ "$message" != "$verdict" ] && printf '%s\\n' "$message" >&2
[ "\${verdict%%
*}" = ok ]
`;

const written = new Map<string, Promise<string>>();

/**
 * The hooks directory for `git -c core.hooksPath=…`, written once per process into `dir`
 * (written beside and renamed into place, so that a push never runs half a hook).
 */
export function preReceiveHooks(dir: string): Promise<string> {
  let hooks = written.get(dir);
  if (!hooks) {
    hooks = writeHooks(dir);
    hooks.catch(() => written.delete(dir));
    written.set(dir, hooks);
  }
  return hooks;
}

async function writeHooks(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const hook = path.join(dir, 'pre-receive');
  const staged = `${hook}.${process.pid}.tmp`;
  await writeFile(staged, HOOK_SCRIPT, { mode: 0o700 });
  await chmod(staged, 0o700);
  await rename(staged, hook);
  return dir;
}
