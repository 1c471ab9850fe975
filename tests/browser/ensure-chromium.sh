#!/usr/bin/env bash
# Makes sure Debian's Chromium is at /usr/bin/chromium (the browser tests'
# only browser: installers cannot download their own here). Idempotent and
# non-interactive: does nothing when it is there, installs it with apt-get
# otherwise (as root, or through sudo -n, which never prompts).
set -euo pipefail

if [ -x /usr/bin/chromium ]; then
  exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
  as_root=()
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
  as_root=(sudo -n)
else
  echo "ensure-chromium: /usr/bin/chromium is missing and this user cannot install it (not root, no passwordless sudo); run: apt-get install -y chromium" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
# Other jobs on a shared machine may hold the dpkg lock: wait for it.
apt=("${as_root[@]}" apt-get -o DPkg::Lock::Timeout=600 -y -q)
"${apt[@]}" install --no-install-recommends chromium \
  || { "${apt[@]}" update && "${apt[@]}" install --no-install-recommends chromium; }
/usr/bin/chromium --version
