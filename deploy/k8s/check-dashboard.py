#!/usr/bin/env python3
"""Checks the Grafana dashboard ConfigMap in the output of `helm template` rendered with
`monitoring.grafanaDashboard.enabled=true` and the extra label `team=payments`: one ConfigMap,
labelled `grafana_dashboard: "1"` (what Grafana's dashboard sidecar loads) and with the extra
label, holding one valid JSON dashboard whose every queried metric is registered in the code
(`name: "gateway_..."` in a source file under packages/ or services/). A renamed metric would
otherwise leave a blank panel that no test notices.

Usage: check-dashboard.py <rendered.yaml> <repository root>
"""
import json
import os
import re
import sys

import yaml


def registered_metrics(repo_root):
    names = set()
    for top in ("packages", "services"):
        for root, dirs, files in os.walk(os.path.join(repo_root, top)):
            dirs[:] = [d for d in dirs if d not in ("node_modules", "dist", "gen", "test")]
            for name in files:
                if name.endswith(".ts") and not name.endswith(".test.ts"):
                    with open(os.path.join(root, name), encoding="utf-8") as source:
                        names.update(re.findall(r'name:\s*"(gateway_[a-z0-9_]+)"', source.read()))
    return names


def problems_of(rendered_path, repo_root):
    with open(rendered_path, encoding="utf-8") as rendered:
        config_maps = [d for d in yaml.safe_load_all(rendered) if d and d["kind"] == "ConfigMap"]
    if len(config_maps) != 1:
        return [f"expected one dashboard ConfigMap, got {len(config_maps)}"]
    problems = []
    labels = config_maps[0]["metadata"].get("labels", {})
    if labels.get("grafana_dashboard") != "1":
        problems.append('the ConfigMap lacks the label grafana_dashboard: "1"')
    if labels.get("team") != "payments":
        problems.append("the ConfigMap lacks the extra label of monitoring.grafanaDashboard.labels")
    files = config_maps[0].get("data", {})
    if list(files) != ["payment-gateway.json"]:
        return problems + [f"expected one file payment-gateway.json, got {list(files)}"]
    dashboard = json.loads(files["payment-gateway.json"])
    exprs = [t["expr"] for panel in dashboard["panels"] for t in panel.get("targets", [])]
    if not exprs:
        problems.append("the dashboard queries nothing")
    registered = registered_metrics(repo_root)
    for expr in exprs:
        for metric in re.findall(r"\bgateway_[a-z0-9_]+", expr):
            # A histogram's series are <name>_bucket, _sum and _count.
            if metric not in registered and re.sub(r"_(bucket|sum|count)$", "", metric) not in registered:
                problems.append(f"{metric} (in {expr}) is not a metric the code registers")
    return problems


if __name__ == "__main__":
    found = problems_of(sys.argv[1], sys.argv[2])
    print("\n".join(found))
    sys.exit(1 if found else 0)
