#!/usr/bin/env python3
"""Check a rendered kustomization of deploy/kubernetes against what deploy/README.md promises (deploy/check.sh runs it).

Usage: verify.py RENDERED.yaml TREE [--schema VERSION]...

- RENDERED.yaml: the output of `kubectl kustomize` (or deploy/render.py) for deploy/kubernetes or its shards/;
- TREE: an empty folder, filled with the stubs as the pod sees them under /home/wiremock: TREE/stubs/mappings/ and
  TREE/stubs/__files/ laid out as the kubelet writes ConfigMap volumes (kubelet_write: a `..<timestamp>` folder,
  the `..data` link to it, a link per top-level name), plus `stub-count` (the stubs in the mapping files), `args`
  (the container's arguments, one per line, with Kubernetes' $(VAR) references resolved as in pod 0) and `hosts`
  (the host names --allowed-host lets in), so that check.sh can run a stubserver binary on exactly what a pod
  would get;
- --schema VERSION: also validate every object against that Kubernetes version's JSON schema, strictly (unknown
  fields are errors), with the schemas bundled by PyPI's kubernetes-validate (which must be importable).

Prints one line per check and ends with "verify.py: N passed, M failed"; exits 1 when any failed. Needs PyYAML.
"""

import json
import os
import re
import shutil
import sys
import time

import yaml

HEALTH_PATH = "/__admin/health"
PORT = 8080
MAPPINGS_DIR = "/home/wiremock/mappings"
FILES_DIR = "/home/wiremock/__files"
TOKEN_VARIABLE = "STUBSERVER_ADMIN_TOKEN"
USER_ID = 10001

passed = 0
failed = 0


def check(condition, what):
    global passed, failed
    if condition:
        passed += 1
        print(f"ok: {what}")
    else:
        failed += 1
        print(f"FAIL: {what}")
    return condition


def quantity(text):
    """A Kubernetes quantity (`50m`, `1`, `32Mi`, `64M`) as a float, in cores or bytes."""
    match = re.fullmatch(r"([0-9.]+)(m|k|M|G|Ki|Mi|Gi)?", str(text))
    if not match:
        raise ValueError(f"not a quantity this check reads: {text!r}")
    scale = {None: 1, "m": 1e-3, "k": 1e3, "M": 1e6, "G": 1e9, "Ki": 2**10, "Mi": 2**20, "Gi": 2**30}
    return float(match.group(1)) * scale[match.group(2)]


def stub_list(document):
    """The stubs of a mapping file: one stub, or {"mappings": [...]}."""
    if isinstance(document, dict) and isinstance(document.get("mappings"), list):
        return document["mappings"]
    return [document]


def resolve(text, variables):
    """Kubernetes' $(VAR) expansion in args, with $$ for a literal $."""
    return re.sub(r"\$\$|\$\(([A-Za-z_][A-Za-z0-9_]*)\)",
                  lambda m: "$" if m.group(0) == "$$" else variables.get(m.group(1), m.group(0)), text)


def port_number(port, container):
    if isinstance(port, int):
        return port
    return next((p["containerPort"] for p in container.get("ports", []) if p.get("name") == port), None)


def kubelet_write(directory, contents):
    """Lay out `contents` ({relative path: text}) in `directory` as the kubelet's ConfigMap volume does (its
    AtomicWriter): the files in a new `..<timestamp>` folder, `..data` a link to it, swapped atomically (a new link
    renamed over it), each top-level name a link into `..data/`; the previous timestamp folder and the links of names
    gone are removed. Called again on the same directory, it is a ConfigMap update."""
    os.makedirs(directory, exist_ok=True)
    data_link = os.path.join(directory, "..data")
    previous = os.readlink(data_link) if os.path.islink(data_link) else None
    stamp = time.strftime("..%Y_%m_%d_%H_%M_%S.", time.gmtime()) + f"{time.time_ns() % 10**9:09d}"
    while os.path.exists(os.path.join(directory, stamp)):
        stamp += "0"
    for path, text in contents.items():
        full = os.path.join(directory, stamp, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as f:
            f.write(text)
    os.makedirs(os.path.join(directory, stamp), exist_ok=True)
    os.symlink(stamp, os.path.join(directory, "..data_tmp"))
    os.rename(os.path.join(directory, "..data_tmp"), data_link)
    top = {path.split("/")[0] for path in contents}
    for name in top:
        if not os.path.islink(os.path.join(directory, name)):
            os.symlink(f"..data/{name}", os.path.join(directory, name))
    for name in os.listdir(directory):
        if not name.startswith("..") and name not in top:
            os.remove(os.path.join(directory, name))
    if previous:
        shutil.rmtree(os.path.join(directory, previous))


def check_workload(workload, objects, tree):
    kind_name = f"{workload['kind']} {workload['metadata']['name']}"
    template = workload["spec"]["template"]
    pod = template["spec"]
    containers = pod.get("containers", [])
    if not check(len(containers) == 1 and containers[0].get("name") == "stubserver",
                 f"{kind_name}: one container, named stubserver"):
        return
    container = containers[0]
    check(re.fullmatch(r"([^/@]+/)*stubserver([:@].+)?", container.get("image", "")) is not None,
          f"{kind_name}: image {container.get('image')} is a stubserver image")
    check(any(p.get("containerPort") == PORT for p in container.get("ports", [])),
          f"{kind_name}: container port {PORT}")

    args = container.get("args", [])
    check("command" not in container and not {"--host", "--port", "--bind-address", "--stubs", "--root-dir"} & set(args),
          f"{kind_name}: the image's entrypoint is kept (0.0.0.0, port 8080, its stubs root), not overridden")

    for probe_name in ("readinessProbe", "livenessProbe"):
        get = container.get(probe_name, {}).get("httpGet", {})
        check(get.get("path") == HEALTH_PATH and port_number(get.get("port"), container) == PORT
              and get.get("scheme", "HTTP") == "HTTP",
              f"{kind_name}: {probe_name} is GET {HEALTH_PATH} on port {PORT} (needs no token)")

    resources = container.get("resources", {})
    complete = all(key in resources.get(part, {}) for part in ("requests", "limits") for key in ("cpu", "memory"))
    if check(complete, f"{kind_name}: cpu and memory requests and limits set"):
        check(all(quantity(resources["requests"][key]) <= quantity(resources["limits"][key]) for key in ("cpu", "memory")),
              f"{kind_name}: requests within limits")
        # docker/README.md: peak RSS 16.3 MB under wrk, idle 11.9 MiB; the limit must hold the peak and the journal.
        journal = 64 * 2**20
        if "--journal-max-bytes" in args:
            journal = quantity(args[args.index("--journal-max-bytes") + 1].replace("MiB", "Mi").replace("KiB", "Ki"))
        check(quantity(resources["requests"]["memory"]) >= 16.3e6,
              f"{kind_name}: memory request {resources['requests']['memory']} holds the measured peak RSS (16.3 MB)")
        check(quantity(resources["limits"]["memory"]) >= 16.3e6 + journal,
              f"{kind_name}: memory limit {resources['limits']['memory']} holds the peak RSS plus the journal bound "
              f"({journal / 2**20:.0f} MiB)")

    pod_security = pod.get("securityContext", {})
    security = container.get("securityContext", {})
    check(pod_security.get("runAsNonRoot") is True or security.get("runAsNonRoot") is True,
          f"{kind_name}: runAsNonRoot")
    check(security.get("runAsUser", pod_security.get("runAsUser")) == USER_ID,
          f"{kind_name}: runs as uid {USER_ID}, the image's user")
    check(security.get("allowPrivilegeEscalation") is False, f"{kind_name}: allowPrivilegeEscalation false")
    check("ALL" in security.get("capabilities", {}).get("drop", []), f"{kind_name}: drops ALL capabilities")
    check(security.get("readOnlyRootFilesystem") is True, f"{kind_name}: read-only root filesystem")

    volumes = {v["name"]: v for v in pod.get("volumes", [])}
    mounts = {m["mountPath"]: m for m in container.get("volumeMounts", [])}
    check("/tmp" in mounts and "emptyDir" in volumes.get(mounts["/tmp"]["name"], {}),
          f"{kind_name}: an emptyDir at /tmp (the root filesystem is read-only)")

    env = {e["name"]: e for e in container.get("env", [])}
    secret_ref = env.get(TOKEN_VARIABLE, {}).get("valueFrom", {}).get("secretKeyRef", {})
    check(secret_ref.get("name") and secret_ref.get("key") and secret_ref.get("optional") is True,
          f"{kind_name}: {TOKEN_VARIABLE} from an optional Secret key")

    config_maps = {o["metadata"]["name"]: o for o in objects if o["kind"] == "ConfigMap"}
    namespace = workload["metadata"].get("namespace", "default")
    variables = {"POD_NAMESPACE": namespace, "POD_NAME": workload["metadata"]["name"]
                 + ("-0" if workload["kind"] == "StatefulSet" else "-5d8f7c9b4-x2x7q")}
    for name, entry in env.items():
        field = entry.get("valueFrom", {}).get("fieldRef", {}).get("fieldPath")
        check(name in variables or field is None or "value" in entry,
              f"{kind_name}: env {name} is one this check knows how to resolve")
    resolved = [resolve(a, variables) for a in args]
    check(all("$(" not in a for a in resolved), f"{kind_name}: every $(VAR) in args is defined in env")

    # The stubs' ConfigMaps mounted as whole folders (no subPath, which the kubelet would never update):
    # /home/wiremock/mappings holds every key of the mappings ConfigMap, /home/wiremock/__files the body files at the
    # paths of its `items` (ConfigMap keys are flat), or at their keys without items.
    trees = {"mappings": {}, "__files": {}}
    for target, directory in (("mappings", MAPPINGS_DIR), ("__files", FILES_DIR)):
        below = [m for m in container.get("volumeMounts", []) if m["mountPath"].startswith(directory + "/")]
        check(not below, f"{kind_name}: nothing mounted below {directory} (a subPath mount is never updated)")
        mount = next((m for m in container.get("volumeMounts", []) if m["mountPath"].rstrip("/") == directory), None)
        if mount is None:
            check(target == "__files", f"{kind_name}: a volume mounted at {directory}")
            continue
        source = volumes.get(mount["name"], {}).get("configMap", {})
        config_map = config_maps.get(source.get("name"))
        if not check(config_map is not None and "subPath" not in mount and "subPathExpr" not in mount
                     and mount.get("readOnly") is True,
                     f"{kind_name}: {directory} is a read-only whole-folder mount (no subPath) of a generated "
                     f"ConfigMap ({source.get('name')})"):
            continue
        cm_name = config_map["metadata"]["name"]
        data = config_map.get("data", {})
        items = source.get("items")
        if target == "mappings":
            check(items is None, f"{kind_name}: {directory} shows every key of {cm_name} (no items)")
        if items is None:
            projected = {key: key for key in data}
        else:
            projected = {}
            for item in items:
                key, path = item.get("key"), item.get("path", "")
                parts = path.split("/")
                check(key in data and path and not path.startswith("/") and ".." not in parts
                      and not any(p.startswith("..") for p in parts) and path not in projected.values(),
                      f"{kind_name}: {directory}: item {key} -> {path}: a key of {cm_name}, a relative path of its own")
                projected[key] = path
            check(sorted(projected) == sorted(data),
                  f"{kind_name}: every key of {cm_name} is projected under {directory} ({len(data)} keys)")
        for key, path in projected.items():
            if key in data:
                trees[target][path] = data[key]

    mappings = trees.get("mappings", {})
    files = trees.get("__files", {})
    check(len(mappings) > 0, f"{kind_name}: the mappings ConfigMap holds stubs ({len(mappings)} files)")
    for path, text in sorted(mappings.items()):
        try:
            document = json.loads(text)
        except json.JSONDecodeError as error:
            check(False, f"{kind_name}: mappings/{path} is JSON ({error})")
            continue
        stubs = stub_list(document)
        check(path.endswith(".json") and all(isinstance(s, dict) and "request" in s and "response" in s for s in stubs),
              f"{kind_name}: mappings/{path} is JSON with {len(stubs)} stub(s), each with request and response")
        for stub in stubs:
            body_file = stub.get("response", {}).get("bodyFileName") if isinstance(stub, dict) else None
            if body_file is not None:
                check(body_file in files,
                      f"{kind_name}: mappings/{path}: bodyFileName {body_file} resolves to a projected path of __files")
    for path, text in sorted(files.items()):
        if path.endswith(".json"):
            try:
                json.loads(text)
                check(True, f"{kind_name}: __files/{path} is JSON")
            except json.JSONDecodeError as error:
                check(False, f"{kind_name}: __files/{path} is JSON ({error})")

    if tree:
        for target, contents in trees.items():
            kubelet_write(os.path.join(tree, "stubs", target), contents)
        stubs = sum(len(stub_list(json.loads(text))) for text in mappings.values())
        with open(os.path.join(tree, "stub-count"), "w", encoding="utf-8") as f:
            f.write(f"{stubs}\n")
        with open(os.path.join(tree, "args"), "w", encoding="utf-8") as f:
            f.write("".join(a + "\n" for a in resolved))
        hosts = [resolved[i + 1] for i, a in enumerate(resolved[:-1]) if a == "--allowed-host"]
        with open(os.path.join(tree, "hosts"), "w", encoding="utf-8") as f:
            f.write("".join(h + "\n" for h in hosts))
    return template["metadata"].get("labels", {})


def check_services(workload, labels, objects):
    kind_name = f"{workload['kind']} {workload['metadata']['name']}"
    container = workload["spec"]["template"]["spec"]["containers"][0]
    services = [o for o in objects if o["kind"] == "Service"
                and o["spec"].get("selector") and all(labels.get(k) == v for k, v in o["spec"]["selector"].items())]
    if not check(len(services) == 1, f"{kind_name}: exactly one Service selects its pods"):
        return
    service = services[0]
    ports = service["spec"].get("ports", [])
    check(any(p.get("port") == PORT and port_number(p.get("targetPort", p.get("port")), container) == PORT
              for p in ports),
          f"{kind_name}: Service {service['metadata']['name']} serves port {PORT} from the container's {PORT}")
    if workload["kind"] == "StatefulSet":
        check(service["spec"].get("clusterIP") == "None"
              and workload["spec"].get("serviceName") == service["metadata"]["name"],
              f"{kind_name}: Service {service['metadata']['name']} is headless and its serviceName (a DNS name per pod)")
    else:
        check(service["spec"].get("type", "ClusterIP") == "ClusterIP",
              f"{kind_name}: Service {service['metadata']['name']} is a ClusterIP Service")
    selector = workload["spec"].get("selector", {}).get("matchLabels", {})
    check(selector and all(labels.get(k) == v for k, v in selector.items()),
          f"{kind_name}: its selector matches its pod template's labels")


def check_schemas(objects, versions):
    import kubernetes_validate  # noqa: PLC0415 (only with --schema)

    for version in versions:
        for obj in objects:
            what = f"{obj['kind']} {obj['metadata']['name']}: valid against Kubernetes {version}'s schema (strict)"
            try:
                kubernetes_validate.validate(obj, version, strict=True)
                check(True, what)
            except kubernetes_validate.ValidationError as error:
                path = "/".join(str(p) for p in error.path)
                check(False, f"{what}: {path}: {error.message}")
            except (kubernetes_validate.SchemaNotFoundError, kubernetes_validate.VersionNotSupportedError) as error:
                check(False, f"{what}: {error.message}")


def main():
    arguments = sys.argv[1:]
    versions = []
    while "--schema" in arguments:
        index = arguments.index("--schema")
        versions.append(arguments[index + 1])
        del arguments[index:index + 2]
    if len(arguments) != 2:
        sys.exit("usage: verify.py RENDERED.yaml TREE [--schema VERSION]...")
    rendered, tree = arguments
    with open(rendered, encoding="utf-8") as f:
        objects = [o for o in yaml.safe_load_all(f) if o]
    workloads = [o for o in objects if o["kind"] in ("Deployment", "StatefulSet")]
    if check(len(workloads) == 1, f"{rendered}: one workload (Deployment or StatefulSet)"):
        labels = check_workload(workloads[0], objects, tree)
        if labels is not None:
            check_services(workloads[0], labels, objects)
    if versions:
        check_schemas(objects, versions)
    print(f"verify.py: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
