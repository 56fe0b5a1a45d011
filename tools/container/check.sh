#!/usr/bin/env bash
# Builds the image from Dockerfile and checks it as far as a machine without a container engine
# allows: podman builds it (vfs storage, chroot isolation: no OCI runtime is needed), then the
# image's file system is mounted and the API and the notifier are started inside it with chroot,
# as the image's user, with the image's environment, working directory and entrypoint; each
# listener's /healthz must answer 200, and the image's HEALTHCHECK command must pass, within
# CHECK_TIMEOUT seconds. Everything it made (container, image, mounts, processes) is removed on exit;
# the base image and the debootstrap output stay cached (tools/container/base.sh).
# Needs root, podman and debootstrap (CI installs them). Usage: tools/container/check.sh
# Environment: CONTAINER_BASE (an image to build on instead of the local one), CHECK_TIMEOUT (90).
set -euo pipefail
cd "$(dirname "$0")/../.."

cache=${BASE_CACHE:-/var/tmp/gateway-hub-container}
export PODMAN=${PODMAN:-podman --storage-driver vfs --root $cache/storage --runroot $cache/run}
read -r -a podman <<<"$PODMAN"
timeout_s=${CHECK_TIMEOUT:-90}
image="localhost/gateway-hub-check:$$"
container=''
root=''
pids=()
work=$(mktemp -d)

cleanup() {
  local status=$? pid target
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ -n "$root" ]; then
    # Whatever still runs inside the image's tree (a child that outlived its parent) goes too.
    for pid in /proc/[0-9]*; do
      [ "$(readlink "$pid/root" 2>/dev/null)" = "$root" ] && kill -KILL "${pid#/proc/}" 2>/dev/null || true
    done
    findmnt -rn -o TARGET | grep -F "$root/" | sort -r | while read -r target; do umount -l "$target" || true; done || true
  fi
  if [ -n "$container" ]; then
    "${podman[@]}" umount "$container" >/dev/null 2>&1 || true
    "${podman[@]}" rm -f "$container" >/dev/null 2>&1 || true
  fi
  "${podman[@]}" rmi -f "$image" >/dev/null 2>&1 || true
  # The storage is this script's own (under BASE_CACHE): what a failed build left goes too.
  "${podman[@]}" image prune -f >/dev/null 2>&1 || true
  rm -rf --one-file-system "$work"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

elapsed() { echo "$(( $(date +%s) - $1 )) s"; }

t=$(date +%s)
base=${CONTAINER_BASE:-$(tools/container/base.sh)}
echo "check.sh: base image $base ($(elapsed "$t"))"

# Chroot isolation: RUN steps need no OCI runtime (`podman run` fails here on setrlimit). Host
# network: the build's `npm ci` reaches the registry as npm on this machine does.
t=$(date +%s)
"${podman[@]}" build --format docker --layers=false --isolation chroot --network host --build-arg "BASE=$base" -t "$image" -f Dockerfile . >"$work/build.log" 2>&1 \
  || { tail -n 40 "$work/build.log" >&2; echo "check.sh: podman build failed" >&2; exit 1; }
echo "check.sh: image built ($(elapsed "$t"))"

# The image's own settings, so that the processes below start as the image says.
config() { "${podman[@]}" image inspect --format "$1" "$image"; }
user=$(config '{{.Config.User}}')
workdir=$(config '{{.Config.WorkingDir}}')
mapfile -t image_env < <(config '{{range .Config.Env}}{{println .}}{{end}}' | grep .)
mapfile -t entrypoint < <(config '{{range .Config.Entrypoint}}{{println .}}{{end}}' | grep .)
health=$(config '{{json .Config.Healthcheck}}')
volumes=$(config '{{json .Config.Volumes}}')
[[ "$user" =~ ^[1-9][0-9]*(:[0-9]+)?$ ]] || { echo "check.sh: the image's user is \"$user\", not a numeric non-root user" >&2; exit 1; }
[[ "$user" == *:* ]] || user="$user:$user"
[[ "$volumes" == *'"/data"'* ]] || { echo "check.sh: /data is not a volume of the image ($volumes)" >&2; exit 1; }
[[ "$health" == *healthcheck.js* ]] || { echo "check.sh: no HEALTHCHECK with healthcheck.js ($health)" >&2; exit 1; }
[ "${#entrypoint[@]}" -gt 0 ] || { echo "check.sh: the image has no entrypoint" >&2; exit 1; }

container=$("${podman[@]}" create "$image")
root=$("${podman[@]}" mount "$container")
mount -t proc proc "$root/proc"
mount --rbind /dev "$root/dev"
mount --make-rslave "$root/dev"
cp /etc/hosts "$root/etc/hosts"

# Ports that are free now; every listener gets its own.
mapfile -t ports < <(node -e '
  const net = require("node:net");
  const servers = [0, 1, 2, 3].map(() => net.createServer());
  Promise.all(servers.map((s) => new Promise((ok) => s.listen(0, "127.0.0.1", () => ok(s.address().port)))))
    .then((ports) => { console.log(ports.join("\n")); servers.forEach((s) => s.close()); });')
secrets=(
  "INTERNAL_TOKEN=$(node -e 'console.log(require("crypto").randomBytes(32).toString("base64url"))')"
  "SECRETS_KEY=$(node -e 'console.log(require("crypto").randomBytes(32).toString("base64"))')"
)
app_env=(HOST=127.0.0.1 "ACCOUNT_PORT=${ports[0]}" "API_PORT=${ports[1]}" "INTERNAL_PORT=${ports[2]}" "NOTIFIER_PORT=${ports[3]}" "${secrets[@]}")

# One process per app, as compose.yaml runs them, both on the image's DATA_DIR (the embedded store).
# It execs all the way down (env, chroot, sh, node), so that the pid that `$!` gives is the app's.
in_image() { exec env -i "${image_env[@]}" "${app_env[@]}" chroot --userspec="$user" "$root" /bin/sh -c 'cd "$0" && exec "$@"' "$workdir" "$@"; }
t=$(date +%s)
for app in api notifier; do
  in_image "${entrypoint[@]}" "$app" >"$work/$app.log" 2>&1 &
  pids+=($!)
done

urls=("http://127.0.0.1:${ports[0]}/healthz" "http://127.0.0.1:${ports[1]}/healthz" "http://127.0.0.1:${ports[2]}/healthz" "http://127.0.0.1:${ports[3]}/healthz")
deadline=$(( $(date +%s) + timeout_s ))
for url in "${urls[@]}"; do
  until [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$url")" = 200 ]; do
    for pid in "${pids[@]}"; do
      kill -0 "$pid" 2>/dev/null || { tail -n 30 "$work/api.log" "$work/notifier.log" >&2; echo "check.sh: an app exited before $url answered" >&2; exit 1; }
    done
    if [ "$(date +%s)" -ge "$deadline" ]; then
      tail -n 30 "$work/api.log" "$work/notifier.log" >&2
      echo "check.sh: $url did not answer 200 within ${timeout_s} s" >&2
      exit 1
    fi
    sleep 1
  done
  echo "check.sh: $url answered 200 ($(elapsed "$t"))"
done
(in_image node tools/container/healthcheck.js api notifier)
echo "check.sh: the image's HEALTHCHECK passes for api and notifier"

# Everything the apps made in DATA_DIR belongs to the image's user and is private to it.
data=$(printf '%s\n' "${image_env[@]}" | sed -n 's/^DATA_DIR=//p')
uid=${user%%:*}
strangers=$(find "$root$data" \( ! -uid "$uid" -o \( -type f ! -perm 0600 \) -o \( -type d ! -perm 0700 \) \) -printf '%p %U %m\n')
[ -z "$strangers" ] || { echo "check.sh: not private to uid $uid in DATA_DIR: $strangers" >&2; exit 1; }
echo "check.sh: DATA_DIR ($data) holds $(find "$root$data" -type f | wc -l) files, all uid $uid, 0600/0700"

# Both stop cleanly on SIGTERM, as a container runtime stops them.
for pid in "${pids[@]}"; do kill -TERM "$pid"; done
for pid in "${pids[@]}"; do
  code=0; wait "$pid" || code=$?
  [ "$code" -eq 0 ] || { tail -n 30 "$work/api.log" "$work/notifier.log" >&2; echo "check.sh: an app exited with $code on SIGTERM" >&2; exit 1; }
done
pids=()
echo "check.sh: api and notifier stopped with exit 0 on SIGTERM"
echo "check.sh: container check passed"
