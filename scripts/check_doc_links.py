#!/usr/bin/env python3
"""Checks the relative links of the project's Markdown files: README.md, docs/*.md and the READMEs
under tests/data. Each link to a file must name one that exists, and each #fragment a heading of
its target, slugged as GitHub does (lower case; characters other than letters, digits, spaces,
hyphens and underscores dropped; spaces made hyphens; a repeated heading gets -1, -2, ...).
Prints every broken link and exits 1 if there is one.

    scripts/check_doc_links.py
"""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINK = re.compile(r"\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6} (.*?)\s*#*\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")


def markdown_files():
    files = ["README.md"] + sorted(glob.glob("docs/*.md", root_dir=ROOT))
    files += sorted(glob.glob("tests/data/**/README.md", root_dir=ROOT, recursive=True))
    return [f for f in files if os.path.exists(os.path.join(ROOT, f))]


def slug(heading):
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def lines_outside_code(path):
    """The file's lines that are not inside fenced code blocks."""
    inside = False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if FENCE.match(line):
                inside = not inside
                continue
            if not inside:
                yield line


def headings(path):
    """(level, text, anchor) of each heading of the file at path, in order; a repeated heading's
    anchor numbered as GitHub numbers it."""
    seen = {}
    for line in lines_outside_code(path):
        m = HEADING.match(line)
        if not m:
            continue
        base = slug(m.group(1))
        n = seen.get(base, 0)
        seen[base] = n + 1
        yield len(line) - len(line.lstrip("#")), m.group(1), base if n == 0 else "{}-{}".format(base, n)


def anchors(path):
    return {anchor for _, _, anchor in headings(path)}


def broken_links():
    cache = {}
    for name in markdown_files():
        path = os.path.join(ROOT, name)
        for line in lines_outside_code(path):
            for target in LINK.findall(line):
                if re.match(r"^[a-z]+:", target):  # http:, https:, mailto:
                    continue
                file_part, _, fragment = target.partition("#")
                resolved = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
                if not os.path.exists(resolved):
                    yield "{}: link to {} names no file".format(name, target)
                    continue
                if fragment and resolved.endswith(".md"):
                    if resolved not in cache:
                        cache[resolved] = anchors(resolved)
                    if fragment not in cache[resolved]:
                        yield "{}: link to {} names no heading of {}".format(
                            name, target, os.path.relpath(resolved, ROOT))


def main():
    broken = list(broken_links())
    for b in broken:
        print(b)
    print("check_doc_links: {} broken link(s) in {} files".format(len(broken), len(markdown_files())))
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
