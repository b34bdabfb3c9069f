#!/usr/bin/env python3
"""Lint: Linux-only API appears only inside Linux guards.

macOS has no Glibc module, MSG_NOSIGNAL, /proc, eventfd, epoll or accept4. Each use in Swift code must sit
in a branch that only Linux compiles: `#if os(Linux)` or `#if canImport(Glibc)` (and not in its `#else`).
The same walk checks that API newer than the oldest toolchain Package.swift declares (Swift 6.1) sits in a
`#if compiler(>=6.2)` (or later) branch: `weak let`, Swift Testing's `Attachment.record`, exit tests and
issue severities, which Xcode 16.3 cannot compile.
Comments are ignored. Usage: lint-linux-only.py [ROOT]; exit status 1 when something is out of place.
"""
import os
import re
import sys

PATTERNS = [
    (re.compile(r"\bGlibc\."), "Glibc."),
    (re.compile(r"\bMSG_NOSIGNAL\b"), "MSG_NOSIGNAL"),
    (re.compile(r"/proc\b"), "/proc"),
    (re.compile(r"\beventfd\b|\bEFD_[A-Z]+"), "eventfd"),
    (re.compile(r"\bepoll_[a-z_0-9]+|\bEPOLL[A-Z_]*\b|\bcstub_epoll\w*|\bEpollSelector\b"), "epoll"),
    (re.compile(r"\baccept4\b|\bcstub_accept4\b"), "accept4"),
]
LINUX_CONDITION = re.compile(r"^\s*(os\(Linux\)|canImport\(Glibc\))\s*$")
NEWER_THAN_6_1 = [
    (re.compile(r"\bweak\s+let\b"), "weak let (Swift 6.2)"),
    (re.compile(r"\bAttachment\.record\b"), "Attachment.record (Swift Testing 6.2)"),
    (re.compile(r"\bprocessExitsWith\b"), "exit tests (Swift Testing 6.2)"),
    (re.compile(r"\bseverity:\s*\.warning\b"), "issue severity (Swift Testing 6.3)"),
]
NEWER_COMPILER_CONDITION = re.compile(r"\bcompiler\(\s*>=\s*(6\.([2-9]|\d\d)|[7-9])")
DIRECTORIES = ["Sources", "Tests", "Benchmarks", "Examples"]


def strip_comment(line):
    """The line without a trailing // comment (a // inside a string literal is kept)."""
    in_string = False
    i = 0
    while i < len(line) - 1:
        char = line[i]
        if char == "\\" and in_string:
            i += 2
            continue
        if char == '"':
            in_string = not in_string
        elif not in_string and line.startswith("//", i):
            return line[:i]
        i += 1
    return line


def check(path, display, patterns=PATTERNS, guarded=LINUX_CONDITION.match, what="outside a Linux guard"):
    problems = []
    # One entry per open #if: is the current branch Linux-only?
    stack = []
    in_block_comment = False
    with open(path, encoding="utf-8") as file:
        for number, raw in enumerate(file, 1):
            line = raw
            if in_block_comment:
                if "*/" not in line:
                    continue
                line = line.split("*/", 1)[1]
                in_block_comment = False
            if "/*" in line and "*/" not in line.split("/*", 1)[1]:
                line = line.split("/*", 1)[0]
                in_block_comment = True
            line = strip_comment(line)
            directive = line.strip()
            if directive.startswith("#if "):
                stack.append(bool(guarded(directive[4:])))
                continue
            if directive.startswith("#elseif "):
                if stack:
                    stack[-1] = bool(guarded(directive[8:]))
                continue
            if directive == "#else":
                if stack:
                    stack[-1] = False
                continue
            if directive == "#endif":
                if stack:
                    stack.pop()
                continue
            if any(stack):
                continue
            for pattern, name in patterns:
                if pattern.search(line):
                    problems.append(f"{display}:{number}: {name} {what}: {raw.strip()}")
    return problems


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    problems = []
    checked = 0
    for directory in DIRECTORIES:
        for base, folders, files in os.walk(os.path.join(root, directory)):
            folders[:] = sorted(f for f in folders if f not in (".build", ".swiftpm"))
            for name in sorted(files):
                if name.endswith(".swift"):
                    path = os.path.join(base, name)
                    checked += 1
                    display = os.path.relpath(path, root)
                    problems += check(path, display)
                    problems += check(path, display, NEWER_THAN_6_1, NEWER_COMPILER_CONDITION.search,
                                      "outside an #if compiler(>=6.2) guard (Package.swift declares 6.1)")
    for problem in problems:
        print(problem)
    print(f"lint-linux-only: {checked} Swift files, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
