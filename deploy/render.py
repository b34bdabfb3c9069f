#!/usr/bin/env python3
"""Render a kustomization as `kubectl kustomize DIR` does, for the few kustomize features deploy/kubernetes uses.

deploy/check.sh renders with `kubectl kustomize` when kubectl is installed, and checks that this script renders
the same objects; without kubectl (kustomize is packaged neither by Debian 12 nor on PyPI) this script's output
is what gets validated. It implements exactly these fields of a Kustomization, and refuses any other:

- `resources`: YAML files (one or more documents) and folders holding a kustomization.yaml, in order;
- `namespace`: set on every object;
- `images`: `name` with `newName`, `newTag`, `digest`, applied to the containers and init containers of pod
  templates;
- `configMapGenerator`: `name` and `files` (`FILE` or `KEY=FILE`, read as UTF-8 text, inside the kustomization's
  folder), with kustomize's content hash appended to the name (its hasher: SHA-256 of the ConfigMap's kind, name
  and data as Go's json.Marshal writes them, the first 10 hex digits, with 0 1 3 a e replaced by g h k m t; the
  name hashed is empty, as kustomize 5.5 has it then) and the references to it from pod templates (volumes,
  projected volumes, env, envFrom) renamed to match.

Usage: render.py DIR  (prints the objects as a YAML stream, like `kubectl kustomize DIR`). Needs PyYAML.
"""

import hashlib
import json
import os
import sys

import yaml

KNOWN_FIELDS = {"apiVersion", "kind", "namespace", "resources", "images", "configMapGenerator"}


class RenderError(Exception):
    pass


def go_json(value):
    """json.Marshal's bytes for a map of strings: sorted keys, no spaces, <, >, &, U+2028, U+2029 escaped."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    for raw, escaped in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("\u2028", "\\u2028"),
                         ("\u2029", "\\u2029")):
        text = text.replace(raw, escaped)
    return text


def config_map_hash(data):
    # kustomize 5.5 (kubectl 1.32) hashes the generated ConfigMap before it has its name: an empty one.
    encoded = go_json({"kind": "ConfigMap", "name": "", "data": data})
    digest = hashlib.sha256(encoded.encode("utf-8")).hexdigest()[:10]
    return digest.translate(str.maketrans("013ae", "ghkmt"))


def inside(root, path, what):
    full = os.path.realpath(os.path.join(root, path))
    if os.path.commonpath([full, os.path.realpath(root)]) != os.path.realpath(root):
        raise RenderError(f"{what} '{path}' is outside the kustomization folder {root} (kustomize refuses it)")
    return full


def generate_config_maps(root, generators):
    maps, renames = [], {}
    for generator in generators:
        unknown = set(generator) - {"name", "files"}
        if unknown:
            raise RenderError(f"{root}/kustomization.yaml: configMapGenerator field(s) {sorted(unknown)} not supported")
        name = generator["name"]
        data = {}
        for entry in generator.get("files", []):
            key, _, path = entry.partition("=") if "=" in entry else (os.path.basename(entry), "", entry)
            if key in data:
                raise RenderError(f"{root}/kustomization.yaml: configMapGenerator {name}: key {key} given twice")
            with open(inside(root, path, "file"), encoding="utf-8") as f:
                data[key] = f.read()
        hashed = f"{name}-{config_map_hash(data)}"
        renames[name] = hashed
        maps.append({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": hashed}, "data": data})
    return maps, renames


def pod_specs(obj):
    spec = obj.get("spec", {})
    if obj.get("kind") == "Pod":
        yield spec
    elif "template" in spec:
        yield spec["template"].get("spec", {})
    elif obj.get("kind") == "CronJob":
        yield spec["jobTemplate"]["spec"]["template"].get("spec", {})


def rename_config_maps(obj, renames):
    for spec in pod_specs(obj):
        for volume in spec.get("volumes", []):
            if "configMap" in volume:
                ref = volume["configMap"]
                ref["name"] = renames.get(ref.get("name"), ref.get("name"))
            for source in volume.get("projected", {}).get("sources", []):
                if "configMap" in source:
                    ref = source["configMap"]
                    ref["name"] = renames.get(ref.get("name"), ref.get("name"))
        for container in spec.get("containers", []) + spec.get("initContainers", []):
            for env in container.get("env", []):
                ref = env.get("valueFrom", {}).get("configMapKeyRef")
                if ref:
                    ref["name"] = renames.get(ref.get("name"), ref.get("name"))
            for env_from in container.get("envFrom", []):
                ref = env_from.get("configMapRef")
                if ref:
                    ref["name"] = renames.get(ref.get("name"), ref.get("name"))


def set_images(obj, images):
    for spec in pod_specs(obj):
        for container in spec.get("containers", []) + spec.get("initContainers", []):
            image = container.get("image", "")
            if "@" in image:
                name, tag = image.split("@", 1)[0], None
            else:
                slash = image.rfind("/")
                colon = image.rfind(":")
                name, tag = (image[:colon], image[colon + 1:]) if colon > slash else (image, None)
            for rule in images:
                if rule["name"] != name:
                    continue
                new_name = rule.get("newName", name)
                if "digest" in rule:
                    container["image"] = f"{new_name}@{rule['digest']}"
                elif "newTag" in rule:
                    container["image"] = f"{new_name}:{rule['newTag']}"
                else:
                    container["image"] = f"{new_name}:{tag}" if tag else new_name


def render(root):
    """The objects of the kustomization in `root`, and the generated ConfigMaps' names by their given names."""
    path = os.path.join(root, "kustomization.yaml")
    with open(path, encoding="utf-8") as f:
        kustomization = yaml.safe_load(f) or {}
    unknown = set(kustomization) - KNOWN_FIELDS
    if unknown:
        raise RenderError(f"{path}: field(s) {sorted(unknown)} not supported by deploy/render.py")
    objects, renames = [], {}
    for resource in kustomization.get("resources", []):
        full = os.path.join(root, resource)
        if os.path.isdir(full):
            child_objects, child_renames = render(full)
            objects += child_objects
            renames.update(child_renames)
        else:
            with open(inside(root, resource, "resource"), encoding="utf-8") as f:
                objects += [doc for doc in yaml.safe_load_all(f) if doc]
    maps, own_renames = generate_config_maps(root, kustomization.get("configMapGenerator", []))
    objects += maps
    renames.update(own_renames)
    for obj in objects:
        rename_config_maps(obj, renames)
        set_images(obj, kustomization.get("images", []))
        if "namespace" in kustomization:
            obj.setdefault("metadata", {})["namespace"] = kustomization["namespace"]
    return objects, renames


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: render.py DIR")
    try:
        objects, _ = render(sys.argv[1])
    except (RenderError, OSError, yaml.YAMLError) as error:
        sys.exit(f"render.py: {error}")
    sys.stdout.write(yaml.safe_dump_all(objects, sort_keys=True, default_flow_style=False))


if __name__ == "__main__":
    main()
