"""_rules.py -- the SPEC_NOTES rule a library message reports.

The library's messages carry no rule tag (the tag sits on the C line that
enforces the rule), so the rule is read from the message's form: one row
per form, checked against every tagged negative golden by
python/test/test_errors.py.  A message of a form not listed gets None."""
import re

# (pattern over "OP: rest", rule; "{op}" is the operator's name)
_FORMS = []


def rule_of(message):
    op = message.split(":", 1)[0] if message else ""
    for pattern, rule in _FORMS:
        if pattern.search(message):
            return rule.format(op=op)
    return None


def _form(pattern, rule):
    _FORMS.append((re.compile(pattern), rule))
