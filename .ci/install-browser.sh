#!/usr/bin/env bash
# Install headless Chromium (Debian package `chromium`) for the report's browser test, when missing.
# Called by .ci/run; safe to run again. Needs root (CI runs as root) and the Debian package registry.
set -euo pipefail

for name in chromium chromium-browser google-chrome google-chrome-stable; do
  if command -v "$name" >/dev/null 2>&1; then
    echo "install-browser: $name already installed: $("$name" --version 2>/dev/null | tail -n 1)"
    exit 0
  fi
done

if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-browser: no apt-get on this machine; install Chromium by hand" >&2
  exit 1
fi

SUDO=""
if [ "$(id -u)" != "0" ]; then
  SUDO="sudo"
fi

export DEBIAN_FRONTEND=noninteractive
echo "install-browser: installing chromium with apt-get"
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
echo "install-browser: $(chromium --version 2>/dev/null | tail -n 1)"
