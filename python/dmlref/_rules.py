"""_rules.py -- the SPEC_NOTES rule a library message reports.

The library's messages carry no rule tag: the tag sits on the C line that
enforces the rule.  The negative cases of the corpus carry both: each names
its rule in its tags ("GATHER-3") and the exact message in expect_error.  So
the rule of a message is read from the corpus, not from a second list kept
here: a message's form (its numbers and type widths made wildcards) together
with its operator names the rule that every negative case of that form and
operator is tagged with.  The corpus is looked for in $DMLREF_GOLDENS, the
checkout this package sits in (goldens/), and make install's
DATADIR/goldens; without one, or for a form no negative case has, the rule
is None.  The table is built once, on the first question.
"""
import json
import os
import re

_HERE = os.path.dirname(os.path.abspath(__file__))
_TAG = re.compile(r"^[A-Z][A-Z0-9_]*-[0-9]+$")
_table = None


def _corpus_dirs():
    if os.environ.get("DMLREF_GOLDENS"):
        yield os.environ["DMLREF_GOLDENS"]
    yield os.path.normpath(os.path.join(_HERE, "..", "..", "goldens"))
    try:
        from . import _install
        yield os.path.join(_install.DATADIR, "goldens")
    except (ImportError, AttributeError):
        pass


def form(message):
    """(operator, the message with every number a wildcard)."""
    op, _, rest = message.partition(": ")
    return op, re.sub(r"[0-9]+", "#", rest)


def _build():
    seen = {}
    for d in _corpus_dirs():
        if not os.path.isdir(d):
            continue
        for root, dirs, files in os.walk(d):
            dirs[:] = sorted(x for x in dirs if x != "tools")
            if os.sep + "gen" + os.sep in root + os.sep and "negative" not in root:
                continue  # the generated positive cases: no messages
            for f in files:
                if f.endswith(".json"):
                    _read(os.path.join(root, f), seen)
        break  # the first corpus found is the one
    table = {}
    for key, tag_sets in seen.items():
        common = [t for t in tag_sets[0] if all(t in s for s in tag_sets)]
        if common:
            table[key] = common[0]
    return table


def _read(path, seen):
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if '"expect_error"' not in text:
            return
        doc = json.loads(text)
        message = doc["expect_error"].get("message")
    except (OSError, ValueError, KeyError, AttributeError):
        return
    tags = [t for t in doc.get("tags", []) if isinstance(t, str) and _TAG.match(t)]
    if message and tags:
        seen.setdefault(form(message), []).append(tags)


def rule_of(message):
    global _table
    if not message:
        return None
    if _table is None:
        _table = _build()
    return _table.get(form(message))
