"""A long page's contents: its headings of levels 2 and 3, each linked to its anchor."""

import os

from check_doc_links import headings  # scripts/, beside this package

from docgen.common import ROOT, note

# the pages long enough to open with their contents
CONTENTS_PAGES = ["docs/fidelity.md", "docs/fidelity-shared-memory.md", "docs/model-studies.md", "docs/gpu-model.md", "docs/h200-data.md", "docs/speed.md"]


def gen_contents(path):
    entries = ["{}- [{}](#{})".format("  " * (level - 2), text, anchor)
               for level, text, anchor in headings(os.path.join(ROOT, path)) if level in (2, 3)]
    return note("the page's own headings") + "\n" + "\n".join(entries) + "\n"
