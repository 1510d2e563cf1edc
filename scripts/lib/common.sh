# Shared by scripts/run, scripts/test, scripts/bench and scripts/cluster. Each installs what it
# needs: Debian packages through apt-get, npm packages through npm ci, Go
# modules through the Go toolchain.

repo_root() { cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    echo "need root to run: $*" >&2; return 1; fi
}

apt_updated=""
apt_install() {
  if [ -z "$apt_updated" ]; then as_root apt-get update -qq; apt_updated=1; fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

need_go() {
  command -v go >/dev/null || { echo "Go 1.26 or newer is required: https://go.dev/dl/" >&2; exit 1; }
}

need_node() {
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    echo "== installing nodejs and npm (Debian packages)"
    apt_install nodejs npm
  fi
}

need_chromium() {
  if [ ! -x /usr/bin/chromium ]; then
    echo "== installing chromium (Debian package)"
    apt_install chromium
  fi
}

# ui_deps installs the web client's npm packages when the lock file changed.
ui_deps() {
  local stamp=ui/node_modules/.lock-stamp
  if [ ! -f "$stamp" ] || ! cmp -s ui/package-lock.json "$stamp"; then
    echo "== npm ci (ui)"
    (cd ui && npm ci --no-audit --no-fund --loglevel=error)
    cp ui/package-lock.json "$stamp"
  fi
}

build_ui() {
  echo "== building the web client"
  (cd ui && npm run --silent build)
}

# stop_processes asks the processes PID... (children of this shell) to shut
# down, and kills those still running after $1 seconds.
stop_processes() {
  local secs=$1 pid alive
  shift
  [ $# -gt 0 ] || return 0
  kill -TERM "$@" 2>/dev/null || true
  for _ in $(seq $((secs * 10))); do
    alive=""
    for pid in "$@"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ -n "$alive" ] || break
    sleep 0.1
  done
  for pid in "$@"; do
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
}
