#!/usr/bin/env python3
"""check-doc-links.py [ROOT] -- every relative link of the tree's Markdown files
resolves: the file exists and, where the link names a #fragment in a Markdown
file, a heading of that file has that anchor (GitHub's rule: lower case,
punctuation dropped, spaces to hyphens, -1, -2 ... for repeats).  Links to
http(s):, mailto: and the build folders are not checked.  Exit 0 when all
resolve, 1 with one line per broken link (file:line: link: why)."""
import os
import re
import sys

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
SKIP_DIRS = {".git", "build", "build-asan", "node_modules", "__pycache__"}
ANCHORS = {}  # path -> the anchors of its headings, each file read once


def prose(path):
    """(line number, line) of a Markdown file, code fences left out."""
    fence = False
    with open(path, encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            if line.startswith("```"):
                fence = not fence
            elif not fence:
                yield no, line


def anchors(path):
    if path not in ANCHORS:
        seen, out = {}, set()
        for _, line in prose(path):
            m = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
            if not m:
                continue
            slug = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-")
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            out.add(slug if n == 0 else "%s-%d" % (slug, n))
        ANCHORS[path] = out
    return ANCHORS[path]


def main(argv):
    root = argv[1] if len(argv) > 1 else "."
    bad = 0
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS and not x.startswith(".carry"))
        for name in sorted(files):
            if not name.endswith(".md"):
                continue
            md = os.path.join(d, name)
            for no, line in prose(md):
                for target in LINK.findall(line):
                    if re.match(r"[a-z]+:", target):
                        continue
                    path, _, frag = target.partition("#")
                    dest = os.path.normpath(os.path.join(d, path)) if path else md
                    why = None
                    if not os.path.exists(dest):
                        why = "no such file"
                    elif frag and dest.endswith(".md") and frag not in anchors(dest):
                        why = "no heading with anchor #" + frag
                    if why:
                        bad += 1
                        print("%s:%d: %s: %s" % (os.path.relpath(md, root), no, target, why))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
