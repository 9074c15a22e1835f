#!/usr/bin/env bash
# Browser tests use Debian's Chromium, never a browser downloaded by a test tool.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
echo "Chromium is missing: installing Debian's chromium package..."
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq chromium fonts-liberation >/dev/null
test -x /usr/bin/chromium || { echo "chromium was not installed at /usr/bin/chromium" >&2; exit 1; }
