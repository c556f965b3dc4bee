#!/usr/bin/env bash
# Installs the Debian packages the project needs, when run as root and only those missing.
# Does nothing when everything is present. Usage: scripts/setup.sh
set -euo pipefail
packages=(
  build-essential cmake ccache pkg-config
  libboost-program-options-dev libgtest-dev libgmock-dev libbenchmark-dev nlohmann-json3-dev
  libpng-dev zlib1g-dev libfreetype-dev fonts-dejavu-core libzstd-dev libthrust-dev
  libsfml-dev libimgui-dev xvfb xauth libgl1-mesa-dri
  libopenmpi-dev openmpi-bin clang libclang-rt-14-dev
  python3
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "setup: missing packages: ${missing[*]}" >&2
  echo "setup: run as root (or: sudo apt-get install ${missing[*]})" >&2
  exit 1
fi
echo "setup: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
