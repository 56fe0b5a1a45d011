#!/usr/bin/env bash
# Builds the image from Dockerfile and checks it as far as a machine without a container engine
# allows. podman builds it (vfs storage, chroot isolation, so no OCI runtime is needed for RUN).
# Then, twice, the API and the notifier are started from the image and every listener's /healthz
# must answer 200 within CHECK_TIMEOUT seconds, the image's HEALTHCHECK must pass and both must exit
# 0 when stopped: (1) with chroot into the mounted image, as the image's user, with its environment,
# working directory and entrypoint, where DATA_DIR is also checked to be private to that user;
# (2) with `podman run` (runc, host network, one shared volume). Everything it made (containers,
# volume, image, mounts, processes) is removed on exit; the base image and the debootstrap output
# stay cached (tools/container/base.sh).
# Needs root, podman, runc and debootstrap (CI installs them). Usage: tools/container/check.sh
# Environment: CONTAINER_BASE (an image to build on instead of the local one), CHECK_TIMEOUT (90),
# BASE_CACHE (where the caches and podman's storage live, default /var/tmp/gateway-hub-container).
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
names=()
volume=''
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
    # Removing the container deletes its tree: never while /dev or /proc is still mounted in it.
    if findmnt -rn -o TARGET | grep -qF "$root/"; then
      echo "check.sh: mounts left under $root; the container $container is kept" >&2
      container=''
    fi
  fi
  if [ -n "$container" ]; then
    "${podman[@]}" umount "$container" >/dev/null 2>&1 || true
    "${podman[@]}" rm -f "$container" >/dev/null 2>&1 || true
  fi
  for name in "${names[@]}"; do "${podman[@]}" rm -f -t 5 "$name" >/dev/null 2>&1 || true; done
  [ -z "$volume" ] || "${podman[@]}" volume rm -f "$volume" >/dev/null 2>&1 || true
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
if [ -n "${CONTAINER_BASE:-}" ]; then base=$CONTAINER_BASE; else base=$(tools/container/base.sh); fi
echo "check.sh: base image $base ($(elapsed "$t"))"

# Chroot isolation: RUN steps need no OCI runtime (`podman run` fails here on setrlimit). Host
# network: the build's `npm ci` reaches the registry as npm on this machine does. The host's
# open-file limit: with the lower default, `npm ci` from a warm cache failed with EMFILE.
t=$(date +%s)
"${podman[@]}" build --format docker --layers=false --isolation chroot --network host --ulimit "nofile=$(ulimit -Hn):$(ulimit -Hn)" --build-arg "BASE=$base" -t "$image" -f Dockerfile . >"$work/build.log" 2>&1 \
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

# wait_healthy ALIVE_CHECK LOGS... : every listener's /healthz answers 200 within CHECK_TIMEOUT,
# while ALIVE_CHECK (a command) says the apps still run.
wait_healthy() {
  local alive=$1 url deadline
  shift
  deadline=$(( $(date +%s) + timeout_s ))
  for url in "http://127.0.0.1:${ports[0]}/healthz" "http://127.0.0.1:${ports[1]}/healthz" \
             "http://127.0.0.1:${ports[2]}/healthz" "http://127.0.0.1:${ports[3]}/healthz"; do
    until [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$url")" = 200 ]; do
      "$alive" || { tail -n 30 "$@" >&2; echo "check.sh: an app exited before $url answered" >&2; return 1; }
      if [ "$(date +%s)" -ge "$deadline" ]; then
        tail -n 30 "$@" >&2
        echo "check.sh: $url did not answer 200 within ${timeout_s} s" >&2
        return 1
      fi
      sleep 1
    done
    echo "check.sh: $url answered 200 ($(elapsed "$t"))"
  done
}
chroot_apps_alive() { local pid; for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null || return 1; done; }
wait_healthy chroot_apps_alive "$work/api.log" "$work/notifier.log" || exit 1
(in_image node tools/container/healthcheck.js api notifier)
echo "check.sh: the image's HEALTHCHECK passes for api and notifier"

# The operator CLI as README's "Containers" runs it (`docker exec`), on the running apps' store. Its
# answer holds the new account's API key: checked, never printed.
created=$(in_image node dist/tools/ops/main.js accounts create --email container-check@example.com) \
  || { echo "check.sh: the operator CLI failed in the image" >&2; exit 1; }
[[ "$created" == '{"email":"container-check@example.com","apikey":"gwk_'* ]] \
  || { echo "check.sh: the operator CLI did not print the new account" >&2; exit 1; }
echo "check.sh: the operator CLI creates an account in the image"

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
echo "check.sh: api and notifier stopped with exit 0 on SIGTERM (chroot)"

# 2. The same under a container runtime, where this machine allows one: `podman run` with runc (crun
#    refuses this machine's hybrid cgroups), limits within the host's own (podman's default open-file
#    limit is above the hard limit here, which makes the runtime fail on setrlimit) and the host's
#    network. Both apps share one volume at the image's /data, as one host's services would.
if ! command -v runc >/dev/null; then
  echo "check.sh: no runc: the image was not started under a container runtime" >&2
  exit 1
fi
# (Lowering a limit is always allowed: the host's open-file limit, and 4096 processes for the uid.)
run_opts=(--runtime runc --network host --ulimit "nofile=$(ulimit -Hn):$(ulimit -Hn)" --ulimit nproc=4096:4096)
volume="gateway-hub-check-$$"
"${podman[@]}" volume create "$volume" >/dev/null
t=$(date +%s)
for app in api notifier; do
  names+=("gateway-hub-check-$app-$$")
  args=()
  for kv in "${app_env[@]}"; do args+=(-e "$kv"); done
  "${podman[@]}" run -d --name "gateway-hub-check-$app-$$" "${run_opts[@]}" -v "$volume:$data" "${args[@]}" "$image" "$app" >/dev/null
done
podman_apps_alive() {
  local name
  for name in "${names[@]}"; do [ "$("${podman[@]}" inspect --format '{{.State.Running}}' "$name")" = true ] || return 1; done
}
podman_logs() { local name; for name in "${names[@]}"; do "${podman[@]}" logs "$name" >"$work/$name.log" 2>&1 || true; done; }
wait_healthy podman_apps_alive /dev/null || { podman_logs; tail -n 30 "$work"/gateway-hub-check-*.log >&2; exit 1; }
for name in "${names[@]}"; do
  "${podman[@]}" healthcheck run "$name" >/dev/null || { echo "check.sh: HEALTHCHECK of $name failed" >&2; exit 1; }
done
echo "check.sh: podman run: the image's HEALTHCHECK reports both containers healthy ($(elapsed "$t"))"
for name in "${names[@]}"; do
  # (Without systemd, podman warns here that it cannot remove the health check's timer.)
  "${podman[@]}" stop -t 20 "$name" >/dev/null 2>>"$work/stop.log" || { cat "$work/stop.log" >&2; echo "check.sh: podman stop $name failed" >&2; exit 1; }
  code=$("${podman[@]}" inspect --format '{{.State.ExitCode}}' "$name")
  [ "$code" = 0 ] || { podman_logs; tail -n 30 "$work/$name.log" >&2; echo "check.sh: $name exited with $code on stop" >&2; exit 1; }
done
echo "check.sh: podman run: api and notifier stopped with exit 0"
echo "check.sh: container check passed"
