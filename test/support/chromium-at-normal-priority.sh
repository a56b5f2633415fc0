#!/bin/sh
# Debian's Chromium, unable to raise its threads' priority. Run as root (as CI runs), Chromium
# gives its browser, IO and compositor threads nice -8, six times a normal thread's share of a
# CPU: on a 2-core machine the server under test, at nice 0 beside it, waited up to 270 ms for
# its own V8 helper threads (perf: the event loop in pthread_cond_signal, the woken helper
# behind Chromium's threads on the run queue). Without CAP_SYS_NICE its requests to do so fail
# and it runs as any other process. Playwright's pipes (file descriptors 3 and 4) pass through.
# Where setpriv cannot drop the capability (no CAP_SETPCAP), Chromium starts as it would have.
if [ "$(id -u)" = 0 ] && setpriv --bounding-set=-sys_nice true >/dev/null 2>&1; then
  exec setpriv --bounding-set=-sys_nice /usr/bin/chromium "$@"
fi
exec /usr/bin/chromium "$@"
