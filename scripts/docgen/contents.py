"""A long page's contents: its headings of levels 2 and 3, each linked to its anchor."""

import os

from check_doc_links import HEADING, lines_outside_code, slug  # scripts/, beside this package

from docgen.common import ROOT, note

# the pages long enough to open with their contents
CONTENTS_PAGES = ["docs/fidelity.md", "docs/gpu-model.md", "docs/h200-data.md", "docs/speed.md"]


def gen_contents(path):
    entries, seen = [], {}
    for line in lines_outside_code(os.path.join(ROOT, path)):
        m = HEADING.match(line)
        if not m:
            continue
        # anchors are numbered over every heading of the page, as GitHub numbers a repeated one
        base = slug(m.group(1))
        repeat = seen.get(base, 0)
        seen[base] = repeat + 1
        level = len(line) - len(line.lstrip("#"))
        if level in (2, 3):
            anchor = base if repeat == 0 else "{}-{}".format(base, repeat)
            entries.append("{}- [{}](#{})".format("  " * (level - 2), m.group(1), anchor))
    return note("the page's own headings") + "\n" + "\n".join(entries) + "\n"
