#!/usr/bin/env bash
# The system packages of system-packages.txt: `check` lists the missing ones; `install` installs
# them with apt-get when it can (root, or sudo without a password) and otherwise stops at once
# with the exact command to run. Exit 0 when everything is there.
# Those marked `test` only with a second argument `test` (`make test`, `.ci/run`): `make` alone
# never installs them.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-check}
scope=${2:-run}
python=${PYTHON:-python3}
list=system-packages.txt

present() {  # probe -> 0 when what the package provides is on this machine
  local kind=${1%%:*} name=${1#*:}
  case $kind in
    lib) [[ $'\n'$libraries$'\n' == *$'\n'"$name"$'\n'* ]] ;;
    # sbin too: a daemon (sshd) lives there, outside the PATH of a user who is not root
    cmd) PATH="$PATH:/usr/local/sbin:/usr/sbin:/sbin" command -v "$name" >/dev/null ;;
    py) "$python" -c "import $name" 2>/dev/null ;;
    font) command -v fc-list >/dev/null && fc-list : family | grep -qi -- "$name" ;;
    *) echo "$list: unknown probe '$1'" >&2; return 2 ;;
  esac
}

missing() {
  local package probe needed_by
  # The shared libraries the dynamic loader knows, one soname a line.
  libraries=$({ ldconfig -p 2>/dev/null || /sbin/ldconfig -p; } | awk 'NR > 1 {print $1}')
  while read -r package probe needed_by _; do
    [[ -z $package || $package == \#* ]] && continue
    [[ $needed_by == test && $scope != test ]] && continue
    present "$probe" || printf '%s\n' "$package"
  done <"$list"
}

mapfile -t wanted < <(missing)
((${#wanted[@]} == 0)) && exit 0
command="apt-get install -y --no-install-recommends ${wanted[*]}"
can_be_root() { ((EUID == 0)) || { command -v sudo >/dev/null && sudo -n true 2>/dev/null; }; }
if [[ $mode == install ]] && command -v apt-get >/dev/null && can_be_root; then
  as_root=()
  ((EUID == 0)) || as_root=(sudo -n)
  # apt-get runs quietly: each step says what it does (French, then English), never a silent minute.
  echo "Installation des paquets système nécessaires / installing the system packages reportgen needs: ${wanted[*]}"
  echo "  apt-get update : liste des paquets / package lists"
  DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get update -qq
  echo "  apt-get install : ${#wanted[@]} paquet(s) et leurs dépendances / package(s) and their dependencies"
  DEBIAN_FRONTEND=noninteractive "${as_root[@]}" $command -qq >/dev/null
  mapfile -t wanted < <(missing)
  ((${#wanted[@]} == 0)) && exit 0
  echo "apt-get did not provide: ${wanted[*]}" >&2
  exit 1
fi
echo "reportgen needs these system packages: ${wanted[*]}" >&2
if command -v apt-get >/dev/null; then
  echo "Install them as root, then run make again:  sudo $command" >&2
else
  echo "This is not a Debian-like system: install their equivalents (see $list), then run make again." >&2
fi
exit 1
