#!/bin/sh
# Regenerates java-regex-expected.json from corpus.txt with the JDK on PATH (Java 17 was used; WireMock
# runs on 11+). The Swift tests only read the JSON: they need no Java.
#   Tests/Fixtures/JavaRegex/generate.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
javac -d "$work" "$here/JavaRegexCorpus.java"
# Arguments: corpus, output, random seed, number of random patterns.
java -cp "$work" JavaRegexCorpus "$here/corpus.txt" "$here/java-regex-expected.json" 12 600
echo "wrote $here/java-regex-expected.json"
