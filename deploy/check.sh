#!/usr/bin/env bash
# Validate deploy/kubernetes offline (no cluster): render both kustomizations, schema-check every object, check what
# deploy/README.md promises, and, given a stubserver binary, run it on exactly the stubs and arguments a pod gets.
#
#   bash deploy/check.sh [PATH_TO_STUBSERVER]
#
# 1. The stub copies in deploy/kubernetes/stubs/ are still byte-for-byte the demo's files in Stubs/.
# 2. Render deploy/kubernetes and deploy/kubernetes/shards with deploy/render.py (the kustomize subset they use) and,
#    when kubectl with kustomize 5+ is installed, with `kubectl kustomize`: both must give the same objects, and
#    kubectl's are checked.
#    An overlay setting `images:` must change the image in both.
# 3. Every rendered object against the Kubernetes JSON schemas bundled by PyPI's kubernetes-validate (pinned below;
#    installed into a venv of this run's own), strictly (unknown fields are errors), for the oldest and newest
#    Kubernetes versions it bundles. Without PyPI this step says SKIPPED.
# 4. deploy/verify.py: probes GET /__admin/health on 8080, resources against the measured RSS, securityContext,
#    optional token Secret, the generated ConfigMaps mounted as whole folders (no subPath), every mappings key a
#    stub, every bodyFileName a projected path of the files ConfigMap, the Service; and it must fail on a broken
#    copy (wrong probe path, unknown field).
# 5. With a binary, on the ConfigMaps laid out as the kubelet mounts them (..data, ..<timestamp>, a link per name):
#    `stubserver check` counts each stub once, `stubserver match`; then the server with the pod's arguments: health
#    without a token, each stub served once (meta.total), the admin API by each pod DNS name; a kubelet update of
#    the mappings folder served after POST /__admin/reset; 401 with a token; with --watch, an update served
#    without a reset.
#
# Ends with "check.sh: N passed, 0 failed"; exits 1 on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-}
KUBERNETES_VALIDATE=kubernetes-validate==1.37.0
WORK=$(mktemp -d)
PID=
cleanup() {
  if [ -n "$PID" ]; then kill "$PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

passed=0
failed=0
pass() { passed=$((passed + 1)); echo "ok: $1"; }
fail() { failed=$((failed + 1)); echo "FAIL: $1"; }

# ---- Python: PyYAML to render and read, kubernetes-validate for the schemas -----------------------------------
SCHEMA_VERSIONS=()
if python3 -m venv "$WORK/venv" >/dev/null 2>&1 && "$WORK/venv/bin/pip" install -q "$KUBERNETES_VALIDATE" >/dev/null 2>&1; then
  PY="$WORK/venv/bin/python3"
  # The oldest and the newest Kubernetes version whose schemas the package bundles.
  mapfile -t SCHEMA_VERSIONS < <("$PY" -c 'import kubernetes_validate.utils as u; v = u.all_versions(); print(v[0]); print(v[-1])')
  echo "$KUBERNETES_VALIDATE in $WORK/venv: schemas of Kubernetes ${SCHEMA_VERSIONS[0]} to ${SCHEMA_VERSIONS[1]}"
elif python3 -c 'import yaml' 2>/dev/null; then
  PY=python3
  echo "SKIPPED: could not install $KUBERNETES_VALIDATE from PyPI: the objects are not checked against the Kubernetes schemas."
else
  echo "SKIPPED: deploy/check.sh: no PyPI and no PyYAML for python3 (apt-get install python3-yaml): nothing was rendered or checked."
  exit 0
fi

# ---- 1. the stub copies ----------------------------------------------------------------------------------------
while IFS= read -r copy; do
  original="Stubs/${copy#deploy/kubernetes/stubs/}"
  if cmp -s "$copy" "$original"; then pass "$copy is $original"; else fail "$copy differs from $original (copy it again)"; fi
done < <(find deploy/kubernetes/stubs/mappings deploy/kubernetes/stubs/__files -type f | sort)

# ---- 2. render -------------------------------------------------------------------------------------------------
# Same objects, whatever the order and the YAML formatting.
same_objects() {
  "$PY" - "$1" "$2" <<'PY'
import sys, yaml
def objects(path):
    with open(path, encoding="utf-8") as f:
        return sorted((o for o in yaml.safe_load_all(f) if o), key=lambda o: (o["kind"], o["metadata"]["name"]))
sys.exit(0 if objects(sys.argv[1]) == objects(sys.argv[2]) else 1)
PY
}

# kubectl's built-in kustomize, from version 5 (CI's machine has kubectl 1.32 with kustomize 5.5; Debian 12's own
# kubernetes-client is kubectl 1.20, whose kustomize 2.0 names generated ConfigMaps differently).
KUBECTL=
kustomize_version=$(kubectl version --client 2>/dev/null | sed -n 's/^Kustomize Version: v//p' || true)
if [ "${kustomize_version%%.*}" -ge 5 ] 2>/dev/null && kubectl kustomize --help >/dev/null 2>&1; then
  KUBECTL=kubectl
  echo "kubectl: $(kubectl version --client 2>/dev/null | tr '\n' ' ')"
else
  echo "SKIPPED: no kubectl with kustomize 5 or later${kustomize_version:+ (kustomize $kustomize_version)}: deploy/render.py's rendering is checked, not compared with kustomize's."
fi

for dir in deploy/kubernetes deploy/kubernetes/shards; do
  name=$(basename "$dir")
  "$PY" deploy/render.py "$dir" >"$WORK/$name.render.yaml"
  pass "$dir rendered by deploy/render.py ($(grep -c '^kind: ' "$WORK/$name.render.yaml") objects)"
  if [ -n "$KUBECTL" ]; then
    kubectl kustomize "$dir" >"$WORK/$name.kubectl.yaml"
    if same_objects "$WORK/$name.render.yaml" "$WORK/$name.kubectl.yaml"; then
      pass "$dir: kubectl kustomize renders the same objects, ConfigMap hash suffixes included"
    else
      fail "$dir: kubectl kustomize and deploy/render.py differ: diff $WORK/$name.render.yaml $WORK/$name.kubectl.yaml"
      diff <("$PY" -c 'import sys,yaml; print(yaml.safe_dump_all(sorted(yaml.safe_load_all(open(sys.argv[1])), key=lambda o:(o["kind"],o["metadata"]["name"]))))' "$WORK/$name.render.yaml") \
        <("$PY" -c 'import sys,yaml; print(yaml.safe_dump_all(sorted(yaml.safe_load_all(open(sys.argv[1])), key=lambda o:(o["kind"],o["metadata"]["name"]))))' "$WORK/$name.kubectl.yaml") || true
    fi
    cp "$WORK/$name.kubectl.yaml" "$WORK/$name.yaml"
  else
    cp "$WORK/$name.render.yaml" "$WORK/$name.yaml"
  fi
done

# The image is overridden with kustomize's images: from an overlay that takes deploy/kubernetes as its base.
IMAGE=registry.example.com/ci/stubserver@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
mkdir -p "$WORK/overlay"
cat >"$WORK/overlay/kustomization.yaml" <<EOF
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
  - $("$PY" -c 'import os, sys; print(os.path.relpath(sys.argv[1], sys.argv[2]))' "$PWD/deploy/kubernetes/shards" "$WORK/overlay")
images:
  - name: stubserver
    newName: ${IMAGE%@*}
    digest: ${IMAGE#*@}
EOF
renderers=("$PY deploy/render.py")
[ -n "$KUBECTL" ] && renderers+=("kubectl kustomize")
for renderer in "${renderers[@]}"; do
  image=$($renderer "$WORK/overlay" | sed -n 's/^ *image: //p')
  if [ "$image" = "$IMAGE" ]; then pass "images: in an overlay sets the image ($renderer)"; else fail "images: in an overlay gave '$image', not $IMAGE ($renderer)"; fi
done

# ---- 3. and 4. schemas and promises ----------------------------------------------------------------------------
schema_args=()
for version in "${SCHEMA_VERSIONS[@]}"; do schema_args+=(--schema "$version"); done
for name in kubernetes shards; do
  echo "--- deploy/verify.py on the rendered $name"
  if "$PY" deploy/verify.py "$WORK/$name.yaml" "$WORK/$name.tree" "${schema_args[@]}" >"$WORK/$name.verify" 2>&1; then
    sed 's/^/  /' "$WORK/$name.verify"
    pass "$name: $(tail -n 1 "$WORK/$name.verify")"
  else
    sed 's/^/  /' "$WORK/$name.verify"
    fail "$name: deploy/verify.py (above)"
  fi
done

# The checker must catch a broken copy: a probe on another path, a subPath mount, a field Kubernetes does not have.
"$PY" - "$WORK/shards.yaml" "$WORK/broken.yaml" <<'PY'
import sys, yaml
objects = [o for o in yaml.safe_load_all(open(sys.argv[1])) if o]
for o in objects:
    if o["kind"] == "StatefulSet":
        o["spec"]["template"]["spec"]["containers"][0]["livenessProbe"]["httpGet"]["path"] = "/health"
        o["spec"]["template"]["spec"]["containers"][0]["readOnlyRootFilesystem"] = True
        for mount in o["spec"]["template"]["spec"]["containers"][0]["volumeMounts"]:
            if mount["mountPath"] == "/home/wiremock/mappings":
                mount["subPath"] = "hello.json"
open(sys.argv[2], "w").write(yaml.safe_dump_all(objects))
PY
"$PY" deploy/verify.py "$WORK/broken.yaml" "" "${schema_args[@]}" >"$WORK/broken.verify" 2>&1 && broken_status=0 || broken_status=$?
if [ "$broken_status" = 1 ] && grep -q '^FAIL: .*livenessProbe is GET /__admin/health' "$WORK/broken.verify" \
  && grep -q '^FAIL: .*/home/wiremock/mappings is a read-only whole-folder mount' "$WORK/broken.verify" \
  && { [ ${#SCHEMA_VERSIONS[@]} = 0 ] || grep -q '^FAIL: .*readOnlyRootFilesystem' "$WORK/broken.verify"; }; then
  pass "deploy/verify.py fails a broken copy (wrong probe path, a subPath mount$([ ${#SCHEMA_VERSIONS[@]} = 0 ] || echo ', a field not in the schema'))"
else
  cat "$WORK/broken.verify"
  fail "deploy/verify.py did not fail the broken copy as expected (exit $broken_status, above)"
fi

# ---- 5. the stubserver binary on what a pod gets ---------------------------------------------------------------
# Starts the binary as the image's entrypoint does, with the pod's arguments; sets BASE. Host 0.0.0.0 as in the
# pod, so the admin API applies the rules of a non-loopback listener; requests go to 127.0.0.1.
start_server() {
  local tree=$1
  shift
  mapfile -t pod_args <"$tree/args"
  # A new file each start: the previous server's "Listening on" line must not be read before this one truncates it.
  rm -f "$WORK/server.out" "$WORK/server.err"
  # SERVER_EXTRA: arguments added to the pod's (--watch).
  # shellcheck disable=SC2086
  "$@" "$BIN" --stubs "$tree/stubs" --host 0.0.0.0 --port 0 "${pod_args[@]}" ${SERVER_EXTRA:-} >"$WORK/server.out" 2>"$WORK/server.err" &
  PID=$!
  BASE=
  for _ in $(seq 1 100); do
    BASE=$(sed -n 's/^Listening on http:\/\/[^:]*:\([0-9]*\).*/http:\/\/127.0.0.1:\1/p' "$WORK/server.out" 2>/dev/null | head -n 1 || true)
    [ -n "$BASE" ] && break
    kill -0 "$PID" 2>/dev/null || break
    sleep 0.1
  done
  if [ -z "$BASE" ]; then
    cat "$WORK/server.out" "$WORK/server.err"
    fail "stubserver did not start with the pod's arguments: $(tr '\n' ' ' <"$tree/args")"
    kill "$PID" 2>/dev/null || true
    PID=
    return 1
  fi
}
stop_server() {
  local name=$1
  kill -TERM "$PID"
  local code=0
  wait "$PID" || code=$?
  PID=
  if [ "$code" = 0 ]; then pass "$name: stopped on SIGTERM with exit 0 (what a pod's termination sends)"; else fail "$name: exit $code after SIGTERM"; fi
}
# mappings_total: meta.total of GET /__admin/mappings on the running server (empty when it does not answer).
mappings_total() {
  curl -sS --max-time 5 "$BASE/__admin/mappings" | "$PY" -c 'import json, sys; print(json.load(sys.stdin)["meta"]["total"])' || true
}

# kubelet_update DIR OLD NEW [NAME CONTENT]: a ConfigMap update as the kubelet applies it to the mounted folder DIR
# (verify.kubelet_write: a new ..<timestamp> folder, the ..data link swapped): hello.json with OLD replaced by NEW,
# and the key NAME added with CONTENT when given.
kubelet_update() {
  "$PY" - "$@" <<'PY'
import os, sys
sys.path.insert(0, "deploy")
import verify
directory, old, new = sys.argv[1:4]
data = os.path.join(directory, "..data")
contents = {}
for name in os.listdir(data):
    with open(os.path.join(data, name), encoding="utf-8") as f:
        contents[name] = f.read()
contents["hello.json"] = contents["hello.json"].replace(old, new)
if len(sys.argv) > 5:
    contents[sys.argv[4]] = sys.argv[5] + "\n"
verify.kubelet_write(directory, contents)
PY
}

# The HTTP status (000 when there is no answer); the body in $WORK/body.
status_of() {
  rm -f "$WORK/body"
  curl -sS --max-time 5 -o "$WORK/body" -w '%{http_code}' "$@" || true
}
expect() {
  local want=$1 what=$2
  shift 2
  local got
  got=$(status_of "$@")
  if [ "$got" = "$want" ]; then pass "$what: $want"; else fail "$what: $got, expected $want ($(head -c 300 "$WORK/body" 2>/dev/null))"; fi
}

if [ -z "$BIN" ]; then
  echo "SKIPPED: no stubserver binary given (bash deploy/check.sh PATH_TO_STUBSERVER): the ConfigMaps' stubs were parsed as JSON but not loaded, and the pod's arguments not run."
else
  for name in kubernetes shards; do
    tree="$WORK/$name.tree"
    echo "--- $BIN on the $name pod's stubs and arguments: $(tr '\n' ' ' <"$tree/args")"
    # The tree is laid out as the kubelet mounts ConfigMap volumes (..data, ..<timestamp>, a link per name):
    # each stub must load once, not again from the ..data or ..<timestamp> folders.
    stubs=$(cat "$tree/stub-count")
    if "$BIN" check --stubs "$tree/stubs" >"$WORK/check.out" 2>&1; then
      if grep -q ": OK: $stubs stubs," "$WORK/check.out"; then
        pass "$name: stubserver check on the kubelet's layout: $(tail -n 1 "$WORK/check.out" | sed 's/^.*: OK/OK/') (each of the $stubs stubs once)"
      else
        cat "$WORK/check.out"
        fail "$name: stubserver check did not report $stubs stubs (above)"
      fi
    else
      cat "$WORK/check.out"
      fail "$name: stubserver check (above)"
    fi
    if "$BIN" match --stubs "$tree/stubs" GET /users/octocat >"$WORK/match.out" 2>&1; then
      pass "$name: stubserver match GET /users/octocat: $(head -n 1 "$WORK/match.out")"
    else
      cat "$WORK/match.out"
      fail "$name: stubserver match GET /users/octocat (above)"
    fi

    # Without a token: the probe, the stubs, and the admin API by the pod's DNS names (--allowed-host) only.
    start_server "$tree" env -u STUBSERVER_ADMIN_TOKEN || continue
    expect 200 "$name: GET /__admin/health as the kubelet sends it (Host: pod IP)" -H 'Host: 10.1.2.3:8080' "$BASE/__admin/health"
    expect 200 "$name: GET /hello" "$BASE/hello"
    if [ "$(status_of "$BASE/users/octocat/repos")" = 200 ] && cmp -s "$WORK/body" "$tree/stubs/__files/users/octocat-repos.json"; then
      pass "$name: GET /users/octocat/repos answers the body file from the files ConfigMap"
    else
      fail "$name: GET /users/octocat/repos did not answer __files/users/octocat-repos.json"
    fi
    while IFS= read -r host; do
      expect 200 "$name: admin API by DNS name $host, no token" -H "Host: $host:8080" "$BASE/__admin/mappings"
    done <"$tree/hosts"
    expect 403 "$name: admin API by a dotted name not allowed, no token" -H 'Host: stubs.evil.example:8080' "$BASE/__admin/mappings"
    total=$(mappings_total)
    if [ "$total" = "$stubs" ]; then pass "$name: GET /__admin/mappings: meta.total $total, each stub served once"; else fail "$name: GET /__admin/mappings: meta.total '$total', expected $stubs"; fi

    # A ConfigMap update as the kubelet applies it: a new ..<timestamp> folder, the ..data link swapped, a link for
    # the new key; hello.json changed and a mapping added. POST /__admin/reset reads the folder again.
    kubelet_update "$tree/stubs/mappings" "Hello, stubserver" "Hello, updated ConfigMap" k8s-update.json \
      '{"request": {"method": "GET", "url": "/k8s-update"}, "response": {"status": 200, "body": "updated"}}'
    if [ "$(status_of "$BASE/hello")" = 200 ] && grep -qx 'Hello, stubserver' "$WORK/body"; then
      pass "$name: before POST /__admin/reset, the loaded stubs are served (the update is not read on its own)"
    else
      fail "$name: before the reset, GET /hello answered $(head -c 100 "$WORK/body" 2>/dev/null)"
    fi
    expect 200 "$name: POST /__admin/reset after the kubelet's update" -X POST "$BASE/__admin/reset"
    if [ "$(status_of "$BASE/hello")" = 200 ] && grep -qx 'Hello, updated ConfigMap' "$WORK/body"; then
      pass "$name: GET /hello answers the updated stub"
    else
      fail "$name: GET /hello after the update and reset: $(head -c 100 "$WORK/body" 2>/dev/null)"
    fi
    expect 200 "$name: GET /k8s-update, the stub added by the update" "$BASE/k8s-update"
    total=$(mappings_total)
    if [ "$total" = "$((stubs + 1))" ]; then pass "$name: after the update, meta.total $total (each stub once)"; else fail "$name: after the update, meta.total '$total', expected $((stubs + 1))"; fi
    if [ "$(find "$tree/stubs/mappings" -maxdepth 1 -name '..2*' | wc -l)" = 1 ]; then
      pass "$name: one ..<timestamp> folder left, the previous one removed as the kubelet does"
    else
      fail "$name: the ..<timestamp> folders after the update: $(find "$tree/stubs/mappings" -mindepth 1 -maxdepth 1 -printf '%f ')"
    fi
    stop_server "$name"

    # With the Secret's token: the probe still needs none, the admin API does.
    start_server "$tree" env STUBSERVER_ADMIN_TOKEN=k8s-check-token || continue
    expect 200 "$name: GET /__admin/health without the token (the probe)" -H 'Host: 10.1.2.3:8080' "$BASE/__admin/health"
    expect 401 "$name: admin API without the token" "$BASE/__admin/mappings"
    expect 200 "$name: admin API with the token" -H 'Authorization: Bearer k8s-check-token' "$BASE/__admin/mappings"
    stop_server "$name"

    # With --watch: a kubelet update of the folder is served without a reset.
    SERVER_EXTRA=--watch start_server "$tree" env -u STUBSERVER_ADMIN_TOKEN || continue
    kubelet_update "$tree/stubs/mappings" "Hello, updated ConfigMap" "Hello, watched ConfigMap"
    watched=no
    for _ in $(seq 1 100); do
      if [ "$(status_of "$BASE/hello")" = 200 ] && grep -qx 'Hello, watched ConfigMap' "$WORK/body"; then watched=yes; break; fi
      sleep 0.1
    done
    if [ "$watched" = yes ]; then pass "$name: with --watch, a kubelet update is served without a reset"; else fail "$name: with --watch, GET /hello still answered $(head -c 100 "$WORK/body" 2>/dev/null) after 10 s"; fi
    stop_server "$name"
  done
fi

echo "check.sh: $passed passed, $failed failed"
[ "$failed" = 0 ]
