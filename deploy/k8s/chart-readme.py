#!/usr/bin/env python3
"""Writes deploy/k8s/gateway/README.md from the chart's values.yaml: every key documented with a
`# -- ` comment (continued on the following `#` lines) becomes a row with its path, its default
and its description, in file order (helm-docs' comment convention, so the file stays readable by
that tool too).

Usage: chart-readme.py          rewrite the README
       chart-readme.py --check  exit 1 when the README differs from what values.yaml gives
"""
import json
import re
import sys
from pathlib import Path

import yaml

CHART = Path(__file__).resolve().parent / "gateway"
KEY = re.compile(r"^(\s*)([A-Za-z0-9_.-]+):(\s.*)?$")
DOC_START = re.compile(r"^\s*# -- ?(.*)$")
DOC_MORE = re.compile(r"^\s*# ?(.*)$")

HEADER = """# gateway chart

Runs the payment gateway's processes (edge, accounts, sessions, refunds, webhooks, optionally the
EPG simulator) from one image. Secrets are referenced, never stored in values. See
`ci/ha-values.yaml` for a high-availability setup and `ci/production-values.yaml` for a
production one.

Generated from the comments in `values.yaml` by `deploy/k8s/chart-readme.py`; do not edit by
hand (`deploy/k8s/test-chart.sh` fails when this file is out of date).

## Values

| Key | Default | Description |
|-----|---------|-------------|
"""


def lookup(values, path):
    node = values
    for part in path:
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def cell(text):
    return text.replace("|", "\\|").replace("\n", " ")


def rows(text, values):
    stack = []  # (indent, key)
    doc = None
    out = []
    for line in text.splitlines():
        start = DOC_START.match(line)
        if start:
            doc = [start.group(1)]
            continue
        if doc is not None and DOC_MORE.match(line) and line.strip().startswith("#"):
            doc.append(DOC_MORE.match(line).group(1))
            continue
        key = KEY.match(line)
        if not key:
            if line.strip() and not line.strip().startswith("#"):
                doc = None
            continue
        indent = len(key.group(1))
        while stack and stack[-1][0] >= indent:
            stack.pop()
        stack.append((indent, key.group(2)))
        if doc is not None:
            path = [k for _, k in stack]
            default = json.dumps(lookup(values, path), separators=(", ", ": "))
            out.append(f"| `{'.'.join(path)}` | `{cell(default)}` | {cell(' '.join(doc).strip())} |")
            doc = None
    return out


def render():
    text = (CHART / "values.yaml").read_text(encoding="utf-8")
    return HEADER + "\n".join(rows(text, yaml.safe_load(text))) + "\n"


def main():
    readme = CHART / "README.md"
    wanted = render()
    if "--check" in sys.argv[1:]:
        if not readme.exists() or readme.read_text(encoding="utf-8") != wanted:
            print("deploy/k8s/gateway/README.md is out of date: run deploy/k8s/chart-readme.py")
            return 1
        return 0
    readme.write_text(wanted, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
