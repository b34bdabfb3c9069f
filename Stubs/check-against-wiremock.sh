#!/usr/bin/env bash
# Checks a running server against the GitHub-user demo in Stubs/ (mappings/ + __files/).
#
#   Stubs/check-against-wiremock.sh http://127.0.0.1:8080
#
# Written and first run against WireMock 2.35.1 (java -jar wiremock-standalone-2.35.1.jar --root-dir Stubs
# --local-response-templating: WireMock 2 renders response templates only with that flag or the global one),
# so stubserver can be held to the very same checks. For each route it checks the status, the headers the
# stubs set, and the body: byte for byte against the __files/ file (PNG included, via cmp), or exactly for
# inline bodies, or as equal JSON for `jsonBody` (WireMock re-serialises it, so only the value is compared).
# Headers a server adds of its own (Matched-Stub-Id, Vary: User-Agent, Transfer-Encoding) are not checked.
# Exits 0 if every check passed, 1 otherwise; the last line reads "N passed, N failed".
set -u

if [ $# -ne 1 ]; then
  echo "usage: $0 BASE_URL   (e.g. http://127.0.0.1:8080)" >&2
  exit 2
fi
BASE=${1%/}
HERE=$(cd "$(dirname "$0")" && pwd)
FILES="$HERE/__files"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

passed=0
failed=0
ok()   { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL $ROUTE: $*"; }

# fetch METHOD PATH: leaves the status in $STATUS, headers in $WORK/headers, body in $WORK/body.
fetch() {
  ROUTE="$1 $2"
  : > "$WORK/headers"; : > "$WORK/body"
  STATUS=$(curl -sS --max-time 10 -X "$1" -D "$WORK/headers" -o "$WORK/body" -w '%{http_code}' "$BASE$2" 2>"$WORK/err") \
    || { fail "curl: $(cat "$WORK/err")"; STATUS=000; }
}

expect_status() {
  if [ "$STATUS" = "$1" ]; then ok; else fail "status $STATUS, expected $1"; fi
}

# expect_header NAME VALUE: some header field NAME (case-insensitive) has exactly VALUE.
expect_header() {
  local values
  values=$(tr -d '\r' < "$WORK/headers" | awk -v n="$(echo "$1" | tr 'A-Z' 'a-z')" '
    { i = index($0, ":"); if (i > 0 && tolower(substr($0, 1, i - 1)) == n) { v = substr($0, i + 1); sub(/^[ \t]+/, "", v); sub(/[ \t]+$/, "", v); print v } }')
  if printf '%s\n' "$values" | grep -qxF -- "$2"; then ok; else fail "header $1: got '${values//$'\n'/' | '}', expected '$2'"; fi
}

expect_body_file() {
  if cmp -s "$WORK/body" "$FILES/$1"; then ok
  else fail "body differs from __files/$1 ($(wc -c < "$WORK/body") bytes vs $(wc -c < "$FILES/$1"))"; fi
}

expect_body_text() {
  printf '%s' "$1" > "$WORK/expected"
  if cmp -s "$WORK/body" "$WORK/expected"; then ok; else fail "body '$(head -c 200 "$WORK/body")', expected '$1'"; fi
}

expect_body_json() {
  if python3 -c 'import json,sys; sys.exit(0 if json.load(open(sys.argv[1])) == json.loads(sys.argv[2]) else 1)' \
      "$WORK/body" "$1" 2>/dev/null; then ok
  else fail "JSON body '$(head -c 200 "$WORK/body")', expected $1"; fi
}

expect_github_headers() {
  expect_header Content-Type "application/json; charset=utf-8"
  expect_header X-RateLimit-Limit 60
  expect_header X-RateLimit-Remaining 59
  expect_header X-RateLimit-Reset 1893456000
  expect_header X-RateLimit-Resource core
  expect_header X-GitHub-Media-Type "github.v3; format=json"
  expect_header Vary "Accept, Accept-Encoding"
}

NOT_FOUND='{"message": "Not Found", "documentation_url": "https://docs.github.com/rest/users/users#get-a-user", "status": "404"}'

fetch GET /users/shashikant86
expect_status 200
expect_github_headers
expect_header Cache-Control "public, max-age=60, s-maxage=60"
expect_header ETag 'W/"3f8d1c0a9e2b4f6d8a7c5e3b1d9f0a2c"'
expect_body_file users/shashikant86.json
expect_body_json '{"name": "StubName", "location": "StubLocation", "blog": "http://shashikantjagtap.net",
  "avatar_url": "https://avatars0.githubusercontent.com/u/2176586?v=4", "followers": 1000, "public_repos": 100,
  "login": "Shashikant86", "id": 2176586, "node_id": "MDQ6VXNlcjIxNzY1ODY=", "gravatar_id": "",
  "url": "https://api.github.com/users/Shashikant86", "html_url": "https://github.com/Shashikant86",
  "followers_url": "https://api.github.com/users/Shashikant86/followers",
  "following_url": "https://api.github.com/users/Shashikant86/following{/other_user}",
  "gists_url": "https://api.github.com/users/Shashikant86/gists{/gist_id}",
  "starred_url": "https://api.github.com/users/Shashikant86/starred{/owner}{/repo}",
  "subscriptions_url": "https://api.github.com/users/Shashikant86/subscriptions",
  "organizations_url": "https://api.github.com/users/Shashikant86/orgs",
  "repos_url": "https://api.github.com/users/Shashikant86/repos",
  "events_url": "https://api.github.com/users/Shashikant86/events{/privacy}",
  "received_events_url": "https://api.github.com/users/Shashikant86/received_events",
  "type": "User", "site_admin": false, "company": "StubCompany", "email": null, "hireable": null,
  "bio": "Stubbed bio for UI tests", "twitter_username": null, "public_gists": 12, "following": 10,
  "created_at": "2012-08-18T12:06:05Z", "updated_at": "2018-06-03T10:21:51Z"}'

# urlPath ignores the query string.
fetch GET '/users/shashikant86?per_page=1'
expect_status 200
expect_body_file users/shashikant86.json

fetch GET /users/octocat
expect_status 200
expect_github_headers
expect_header ETag 'W/"b3d5b7c1f0e94a6c8e2d4f6a8c0e2b4d"'
expect_body_file users/octocat.json

fetch GET /users/octocat/repos
expect_status 200
expect_github_headers
expect_header ETag 'W/"7a9c1e3f5b7d9f1a3c5e7a9c1e3f5b7d"'
expect_body_file users/octocat-repos.json

# Users that do not exist (priority 10): ghost, nobody-*, and names GitHub does not allow.
for user in nobody-at-all ghost not_a_login; do
  fetch GET "/users/$user"
  expect_status 404
  expect_github_headers
  expect_body_json "$NOT_FOUND"
done

# Anyone else (priority 20, a response template): a profile for that login whose URLs, avatar included,
# point back at the server. Paths match case-sensitively, so Shashikant86 is not the stubbed shashikant86.
for user in ada-lovelace Shashikant86; do
  fetch GET "/users/$user"
  expect_status 200
  expect_github_headers
  expect_body_json "$(sed -e "s|{{request.baseUrl}}|$BASE|g" -e "s|{{request.pathSegments.\[1\]}}|$user|g" "$FILES/users/any-user.json")"
done
fetch GET /avatars/u/ada-lovelace
expect_status 200
expect_header Content-Type image/png
expect_body_file avatars/default.png

fetch GET /avatars/u/2176586
expect_status 200
expect_header Content-Type image/png
expect_header Cache-Control max-age=300
expect_body_file avatars/2176586.png

fetch GET /avatars/u/583231
expect_status 200
expect_header Content-Type image/png
expect_body_file avatars/583231.png

fetch GET /hello
expect_status 200
expect_header Content-Type text/plain
expect_body_text "Hello, stubserver"

# Nothing matches these: a 404 whatever the body (WireMock's is a plain-text near-miss report).
fetch GET /users/octocat/followers
expect_status 404
fetch POST /users/shashikant86
expect_status 404
fetch GET /nope
expect_status 404

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
