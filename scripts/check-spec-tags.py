#!/usr/bin/env python3
"""check-spec-tags.py [ROOT] -- SPEC_NOTES.md's numbered rules and the tree agree.

A rule is defined by a line of SPEC_NOTES.md that opens `- **TAG-N` (or a range,
`- **TAG-1 … -5`).  Elsewhere a tag is cited as `GATHER-3`, or as a range
(`SPLIT-1 .. SPLIT-10`, `JOIN-1..6`, `CUMULATIVE_SUMMATION-11 .. -13`), which
cites every rule in it.  Checked:
  1. every tag cited anywhere in the tree is defined (no typo, no stale number);
  2. every rule is cited in code (a source file outside the tests) and in a
     test (a file under a test/ folder, or a case file of goldens/), so that
     `grep -rn GATHER-3` finds the spec, the line that enforces it and the test
     that checks it; EXEMPT names the rules that cannot be, and why.
Exit 0 when all hold, 1 with one line per failure (what, where), 2 on usage."""
import os
import re
import sys

# Rules with nothing to enforce or nothing a test of this tree can observe:
# tag -> (what is missing: "code", "test" or "both", why).
EXEMPT = {
    "CUMULATIVE_PRODUCT-14": ("code", "what the page's text gets wrong; the doc cases pin its examples"),
    "CUMULATIVE_SUMMATION-15": ("code", "the page's examples are consistent: nothing to enforce"),
    "DML-2": ("test", "FLOAT16 rounding of Wine + vkd3d + lavapipe: an environment, not a rule of the reference"),
}
SKIP_DIRS = {".git", "node_modules", "__pycache__"}  # and build*: the build folders
CODE_EXT = {".c", ".h", ".cu", ".cuh", ".cpp", ".py", ".sh"}
# Sizes past which a file is data (the large goldens' .npy), not text to search.
MAX_BYTES = 4 << 20
# The checker and its test, whose tags are examples.
SELF = {"scripts/check-spec-tags.py", "scripts/test/test-spec-tags.sh"}
DEF = re.compile(r"^- \*\*([A-Z][A-Z0-9_]*)-(\d+)[a-z]?(?: *(?:…|\.\.) *(?:\1)?-(\d+))?")


def defined(spec):
    """The rules of SPEC_NOTES.md: {tag: line}."""
    out = {}
    with open(spec, encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            m = DEF.match(line)
            if m:
                hi = int(m.group(3) or m.group(2))
                for n in range(int(m.group(2)), hi + 1):
                    out.setdefault(f"{m.group(1)}-{n}", no)
    return out


def citation(prefixes):
    """A tag or a range of tags of one of the prefixes, as a regular expression."""
    p = "|".join(sorted(prefixes, key=len, reverse=True))
    return re.compile(rf"(?<![A-Za-z0-9_])({p})-(\d+)(?![0-9])"
                      rf"(?: *(?:…|\.\.) *(?:\1-)?-?(\d+)(?![0-9]))?")


def kind(rel):
    """'test', 'code' or None (documentation, data) for a path relative to the root."""
    parts = rel.split("/")
    if "test" in parts[:-1] or "tests" in parts[:-1]:
        return "test"
    if parts[0] in ("goldens", "goldens-huge") and rel.endswith(".json"):
        return "test"
    if os.path.splitext(rel)[1] in CODE_EXT and parts[0] not in ("goldens", "goldens-huge"):
        return "code"
    return None


def main(argv):
    if len(argv) > 2:
        print("usage: check-spec-tags.py [ROOT]", file=sys.stderr)
        return 2
    root = argv[1] if len(argv) == 2 else "."
    spec = os.path.join(root, "SPEC_NOTES.md")
    rules = defined(spec)
    prefixes = {t.rsplit("-", 1)[0] for t in rules}
    cite = citation(prefixes)
    seen = {t: set() for t in rules}  # tag -> the kinds of file that cite it
    bad = []
    for top, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("build"))
        for name in sorted(files):
            path = os.path.join(top, name)
            rel = os.path.relpath(path, root).replace(os.sep, "/")
            if os.path.getsize(path) > MAX_BYTES or rel in SELF:
                continue
            try:
                with open(path, encoding="utf-8") as f:
                    lines = f.readlines()
            except (UnicodeDecodeError, OSError):
                continue  # binary: .npy, .so
            k = kind(rel)
            for no, line in enumerate(lines, 1):
                if rel == "SPEC_NOTES.md" and DEF.match(line):
                    continue
                for m in cite.finditer(line):
                    lo = int(m.group(2))
                    hi = int(m.group(3)) if m.group(3) else lo
                    if hi < lo or hi - lo > 40:
                        hi = lo  # "GATHER-3 .. 1" is no range
                    for n in range(lo, hi + 1):
                        tag = f"{m.group(1)}-{n}"
                        if tag not in rules:
                            bad.append(f"{rel}:{no}: {tag}: no such rule in SPEC_NOTES.md")
                        elif k:
                            seen[tag].add(k)
    for tag, no in sorted(rules.items(), key=lambda kv: kv[1]):
        exempt = EXEMPT.get(tag, ("", ""))[0]
        for k in ("code", "test"):
            if k not in seen[tag] and exempt not in (k, "both"):
                bad.append(f"SPEC_NOTES.md:{no}: {tag}: cited in no {k} file")
            if k in seen[tag] and exempt in (k, "both"):
                bad.append(f"SPEC_NOTES.md:{no}: {tag}: exempt from {k} in check-spec-tags.py, but a {k} file cites it")
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for tag in sorted(set(EXEMPT) - set(rules)) if os.path.samefile(root, here) else []:
        bad.append(f"scripts/check-spec-tags.py: EXEMPT names {tag}, which SPEC_NOTES.md does not define")
    for line in bad:
        print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
