#!/usr/bin/env bash
# Side by side with WireMock: each stub collection in Tests/Fixtures/WireMockCompat served by a stubserver binary and
# by the WireMock 2.35.1 jar (bundled in pip wiremock==2.7.0), the same requests sent to both, status, stub headers
# and bodies compared (.ci/wiremock-compat.py).
# Usage: .ci/e2e-wiremock-compat.sh PATH/TO/stubserver
set -euo pipefail
binary=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A failed install fails this step (set -e): the check must never pass by not running.
if ! command -v java >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq default-jre-headless
fi
if ! python3 -m venv "$work/venv" 2>/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv
  python3 -m venv "$work/venv"
fi
"$work/venv/bin/pip" install --quiet --disable-pip-version-check wiremock==2.7.0
jar=$(find "$work/venv" -name 'wiremock-standalone-2.35.1.jar' | head -1)
[ -n "$jar" ] || { echo "FAIL: wiremock==2.7.0 has no wiremock-standalone-2.35.1.jar" >&2; exit 1; }

python3 "$here/wiremock-compat.py" "$binary" "$jar" "$here/../Tests/Fixtures/WireMockCompat"
