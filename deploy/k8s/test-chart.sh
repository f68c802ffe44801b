#!/usr/bin/env bash
# Checks the Helm chart without a cluster:
#   - `helm lint --strict` with the chart's defaults and with each ci/*-values.yaml,
#   - `helm template` with each ci file, checked by check-rendered.py (hardened pods, probes,
#     resources, labels, secrets only by reference, exactly the components the file's
#     `# expect-components:` line names, wiring that points at rendered objects),
#   - variants (a component switched off renders nothing, NetworkPolicies on the defaults),
#   - values that must be refused, each with the message the operator would see.
#   - the alert rules (gateway/files/prometheus-rules.yaml): `promtool check rules`, and
#     `promtool test rules` with monitoring/prometheus-rules.test.yaml (each alert fires and
#     stays quiet); the chart's PrometheusRule must hold exactly that file,
#   - the Grafana dashboard (gateway/files/dashboards/gateway.json): its ConfigMap holds valid
#     JSON, carries the `grafana_dashboard: "1"` label, and every metric its panels query is
#     registered somewhere in packages/ or services/ (check-dashboard.py),
# Helm comes from scripts/install-helm.sh (built once, then reused from .cache/bin); promtool
# from Debian's prometheus package (.ci/run installs it).
# Ends with "N passed, M failed" and exits non-zero when anything failed.
set -uo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
chart="$repo_root/deploy/k8s/gateway"
checker="$repo_root/deploy/k8s/check-rendered.py"
all_components="edge,accounts,sessions,refunds,webhooks"

bash "$repo_root/scripts/install-helm.sh" || { echo "could not install helm" >&2; exit 1; }
helm="${GATEWAY_CACHE_DIR:-$repo_root/.cache}/bin/helm"
python3 -c 'import yaml' 2>/dev/null || {
  echo "python3 with PyYAML is required (apt-get install python3-yaml, or pip install pyyaml)" >&2
  exit 1
}

work_dir="$(mktemp -d "${TMPDIR:-/tmp}/gateway-test-chart.XXXXXX")"
trap 'rm -rf "$work_dir"' EXIT
# Helm keeps no state between these commands; keep whatever it writes out of $HOME.
export HELM_CACHE_HOME="$work_dir/helm-cache" HELM_CONFIG_HOME="$work_dir/helm-config" HELM_DATA_HOME="$work_dir/helm-data"

passed=0
failed=0
pass() { passed=$((passed + 1)); printf 'ok   %s\n' "$1"; }
fail() { failed=$((failed + 1)); printf 'FAIL %s\n' "$1"; [[ -s "$2" ]] && sed 's/^/     /' "$2" | head -n 40; }

# expect_success NAME COMMAND... : the command must exit 0.
expect_success() {
  local name="$1"; shift
  if "$@" >"$work_dir/out" 2>&1; then pass "$name"; else fail "$name" "$work_dir/out"; fi
}

# expect_refusal NAME MESSAGE COMMAND... : the command must fail, saying MESSAGE.
expect_refusal() {
  local name="$1" message="$2"; shift 2
  if "$@" >"$work_dir/out" 2>&1; then
    echo "expected a failure mentioning: $message" >>"$work_dir/out"
    fail "$name" "$work_dir/out"
  elif grep -qF -- "$message" "$work_dir/out"; then
    pass "$name"
  else
    echo "the failure does not mention: $message" >>"$work_dir/out"
    fail "$name" "$work_dir/out"
  fi
}

# Strict decoding of every rendered object into its k8s.io/api type (deploy/k8s/manifest-check,
# a Go module of its own; the Go build cache makes later builds quick).
manifest_check="$work_dir/manifest-check"
(cd "$repo_root/deploy/k8s/manifest-check" && go build -o "$manifest_check" .) || { echo "could not build manifest-check" >&2; exit 1; }

# render_and_check NAME COMPONENTS HELM-ARGS... : helm template, then check-rendered.py and
# manifest-check (the Kubernetes API types).
render_and_check() {
  local name="$1" components="$2"; shift 2
  local rendered="$work_dir/rendered.yaml"
  if ! "$helm" template gateway "$chart" --namespace payments "$@" >"$rendered" 2>"$work_dir/out"; then
    fail "$name (helm template)" "$work_dir/out"
    return
  fi
  expect_success "$name" python3 "$checker" "$rendered" --components "$components"
  expect_success "$name (API types)" "$manifest_check" "$rendered"
}

echo "== helm $("$helm" version --template '{{.Version}}'), chart $chart"

expect_success "lint: chart defaults" "$helm" lint --strict "$chart"
render_and_check "template: chart defaults" "$all_components"

# The API-type check itself refuses what it must: an unknown field and an unknown kind.
printf 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: x\nspec:\n  replica: 2\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n    spec: {containers: [{name: c, image: i}]}\n' >"$work_dir/bad-field.yaml"
expect_refusal "API types: an unknown field is refused" 'unknown field "spec.replica"' "$manifest_check" "$work_dir/bad-field.yaml"
printf 'apiVersion: v1\nkind: Sevice\nmetadata:\n  name: x\n' >"$work_dir/bad-kind.yaml"
expect_refusal "API types: an unknown kind is refused" 'no kind "Sevice" is registered' "$manifest_check" "$work_dir/bad-kind.yaml"

shopt -s nullglob
ci_files=("$chart"/ci/*-values.yaml)
[[ ${#ci_files[@]} -gt 0 ]] || { echo "no ci/*-values.yaml files in $chart" >&2; exit 1; }
for values in "${ci_files[@]}"; do
  file="ci/$(basename "$values")"
  components="$(sed -n 's/^# expect-components: *//p' "$values" | head -n 1)"
  if [[ -z "$components" ]]; then
    echo "missing '# expect-components: a,b' line" >"$work_dir/out"
    fail "$file" "$work_dir/out"
    continue
  fi
  expect_success "lint: $file" "$helm" lint --strict "$chart" -f "$values"
  render_and_check "template: $file" "$components" -f "$values"
done

echo "== variants"
render_and_check "a disabled component renders nothing (edge off)" "accounts,sessions,refunds,webhooks" \
  --set components.edge.enabled=false
render_and_check "two components off (refunds, webhooks)" "edge,accounts,sessions" \
  --set components.refunds.enabled=false --set components.webhooks.enabled=false
render_and_check "network policies off" "$all_components" --set networkPolicy.enabled=false
# NetworkPolicy is on by default, ingress and egress: webhooks may reach public HTTPS only, the
# edge no database, and every component DNS.
if "$helm" template gateway "$chart" >"$work_dir/policies.yaml" 2>"$work_dir/out" &&
  python3 - "$work_dir/policies.yaml" >>"$work_dir/out" 2>&1 <<'PY'
import sys, yaml
policies = {d["metadata"]["labels"]["app.kubernetes.io/component"]: d["spec"]
            for d in yaml.safe_load_all(open(sys.argv[1])) if d and d["kind"] == "NetworkPolicy"}
ports = lambda name: {p["port"] for rule in policies[name]["egress"] for p in rule["ports"]}
problems = [message for ok, message in [
    (set(policies) == {"edge", "accounts", "sessions", "refunds", "webhooks"}, f"policies for {sorted(policies)}"),
    (all(p["policyTypes"] == ["Ingress", "Egress"] for p in policies.values()), "every policy restricts ingress and egress"),
    (all(53 in ports(n) for n in policies), "every component may resolve names"),
    (443 in ports("webhooks") and 443 in ports("sessions") and 443 in ports("refunds"), "webhooks and the acquirer calls may leave on 443"),
    (27017 not in ports("edge") and 443 not in ports("edge"), "the edge reaches no database and no outside HTTPS"),
    (any(r.get("to", [{}])[0].get("ipBlock", {}).get("except") for r in policies["webhooks"]["egress"]), "webhooks egress excludes private ranges"),
] if not ok]
print("\n".join(problems))
sys.exit(1 if problems else 0)
PY
then
  pass "network policies on by default (ingress and egress)"
else
  fail "network policies on by default (ingress and egress)" "$work_dir/out"
fi
render_and_check "autoscaling on every component" "$all_components" \
  --set default.autoscaling.enabled=true --set default.autoscaling.targetMemoryUtilizationPercentage=80

# A component's value replaces the default even when it is false, 0 or "" (sprig's
# mergeOverwrite would ignore those), and maps merge key by key.
overlay_args=(--set components.edge.topologySpread.enabled=false --set components.accounts.preStopSleepSeconds=0
  --set-string components.sessions.env.LOG_LEVEL= --set components.webhooks.resources.requests.cpu=300m)
render_and_check "component overrides of default (render)" "$all_components" "${overlay_args[@]}"
if "$helm" template gateway "$chart" "${overlay_args[@]}" >"$work_dir/overlay.yaml" 2>"$work_dir/out" &&
  python3 - "$work_dir/overlay.yaml" >>"$work_dir/out" 2>&1 <<'PY'
import sys, yaml
pods = {d["metadata"]["labels"]["app.kubernetes.io/component"]: d["spec"]["template"]["spec"]
        for d in yaml.safe_load_all(open(sys.argv[1])) if d and d["kind"] == "Deployment"}
container = lambda name: pods[name]["containers"][0]
env = lambda name: {e["name"]: e.get("value") for e in container(name)["env"]}
problems = [message for ok, message in [
    ("topologySpreadConstraints" not in pods["edge"], "edge: topologySpread.enabled=false did not apply"),
    ("topologySpreadConstraints" in pods["sessions"], "sessions lost the default topologySpread"),
    ("lifecycle" not in container("accounts"), "accounts: preStopSleepSeconds=0 did not remove the preStop hook"),
    ("lifecycle" in container("edge"), "edge lost the default preStop hook"),
    ("LOG_LEVEL" not in env("sessions"), "sessions: LOG_LEVEL='' did not unset the default"),
    (env("edge").get("LOG_LEVEL") == "info", "edge lost the default LOG_LEVEL"),
    (container("webhooks")["resources"]["requests"] == {"cpu": "300m", "memory": "192Mi"}, "webhooks: resources did not merge key by key"),
    (container("webhooks")["resources"]["limits"] == {"memory": "512Mi"}, "webhooks lost the default memory limit"),
] if not ok]
print("\n".join(problems))
sys.exit(1 if problems else 0)
PY
then
  pass "component overrides of default (false, 0 and \"\" win; maps merge)"
else
  fail "component overrides of default (false, 0 and \"\" win; maps merge)" "$work_dir/out"
fi

# The test hook and the edge's Ingress only exist with the edge.
if "$helm" template gateway "$chart" --set components.edge.enabled=false >"$work_dir/no-edge.yaml" 2>"$work_dir/out" &&
  ! grep -q 'helm.sh/hook' "$work_dir/no-edge.yaml"; then
  pass "no test hook without the edge"
else
  fail "no test hook without the edge" "$work_dir/out"
fi

# The HA example: 3+ replicas apart across zones, a PDB each, JetStream with 3 replicas.
if "$helm" template gateway "$chart" -f "$chart/ci/ha-values.yaml" >"$work_dir/ha.yaml" 2>"$work_dir/out" &&
  python3 - "$work_dir/ha.yaml" >>"$work_dir/out" 2>&1 <<'PY'
import sys, yaml
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
component = lambda d: d["metadata"]["labels"]["app.kubernetes.io/component"]
deployments = {component(d): d for d in docs if d["kind"] == "Deployment"}
pdbs = {component(d) for d in docs if d["kind"] == "PodDisruptionBudget"}
problems = []
for name, d in deployments.items():
    pod = d["spec"]["template"]["spec"]
    env = {e["name"]: e.get("value") for e in pod["containers"][0]["env"]}
    anti = pod.get("affinity", {}).get("podAntiAffinity", {}).get("requiredDuringSchedulingIgnoredDuringExecution", [])
    if d["spec"]["replicas"] < 3: problems.append(f"{name}: fewer than 3 replicas")
    if not any(t["topologyKey"] == "topology.kubernetes.io/zone" and t["labelSelector"]["matchLabels"]["app.kubernetes.io/component"] == name for t in anti):
        problems.append(f"{name}: no zone anti-affinity on its own pods")
    if name not in pdbs: problems.append(f"{name}: no PodDisruptionBudget")
    if env.get("GATEWAY_JETSTREAM_REPLICAS") != "3": problems.append(f"{name}: GATEWAY_JETSTREAM_REPLICAS is not 3")
print("\n".join(problems))
sys.exit(1 if problems or len(deployments) != 5 else 0)
PY
then
  pass "HA example: replicas, zone anti-affinity, PDBs, JetStream replicas"
else
  fail "HA example: replicas, zone anti-affinity, PDBs, JetStream replicas" "$work_dir/out"
fi

# The chart README is generated from the values' comments and must not drift from them.
expect_success "README.md matches values.yaml (deploy/k8s/chart-readme.py)" python3 "$repo_root/deploy/k8s/chart-readme.py" --check


render_and_check "monitoring on (ServiceMonitor, metrics Services, PrometheusRule)" "$all_components" \
  --set monitoring.serviceMonitor.enabled=true --set monitoring.prometheusRule.enabled=true \
  --set monitoring.grafanaDashboard.enabled=true
render_and_check "monitoring on with the EPG simulator (no metrics Service for it)" "$all_components,epg-simulator" \
  --set monitoring.serviceMonitor.enabled=true --set components.epg-simulator.enabled=true

echo "== alert rules"
rules="$chart/files/prometheus-rules.yaml"
if command -v promtool >/dev/null 2>&1; then
  expect_success "promtool check rules" promtool check rules "$rules"
  expect_success "promtool test rules (every alert fires and stays quiet)" \
    promtool test rules "$repo_root/deploy/k8s/monitoring/prometheus-rules.test.yaml"
else
  echo "promtool is missing (apt-get install prometheus)" >"$work_dir/out"
  fail "promtool check/test rules" "$work_dir/out"
fi
# The PrometheusRule is the file promtool tested, with runbookBaseUrl in place of docs/runbooks.
if "$helm" template gateway "$chart" --set monitoring.prometheusRule.enabled=true \
  --set monitoring.prometheusRule.runbookBaseUrl=https://runbooks.example.com/gateway >"$work_dir/rules.yaml" 2>"$work_dir/out" &&
  python3 - "$work_dir/rules.yaml" "$rules" "$repo_root" >>"$work_dir/out" 2>&1 <<'PY'
import os, sys, yaml
rendered = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d and d["kind"] == "PrometheusRule"]
source = yaml.safe_load(open(sys.argv[2]))
problems = []
if len(rendered) != 1:
    problems.append(f"expected one PrometheusRule, found {len(rendered)}")
else:
    for group in source["groups"]:
        for rule in group["rules"]:
            path = rule["annotations"]["runbook_url"]
            if not os.path.isfile(os.path.join(sys.argv[3], path)):
                problems.append(f"{rule['alert']}: runbook {path} does not exist")
            rule["annotations"]["runbook_url"] = path.replace("docs/runbooks/", "https://runbooks.example.com/gateway/")
    if rendered[0]["spec"] != source:
        problems.append("the PrometheusRule's spec differs from files/prometheus-rules.yaml")
print("\n".join(problems))
sys.exit(1 if problems else 0)
PY
then
  pass "PrometheusRule = files/prometheus-rules.yaml, every runbook_url names a runbook"
else
  fail "PrometheusRule = files/prometheus-rules.yaml, every runbook_url names a runbook" "$work_dir/out"
fi

echo "== Grafana dashboard"
"$helm" template gateway "$chart" --set monitoring.grafanaDashboard.enabled=true \
  --set monitoring.grafanaDashboard.labels.team=payments >"$work_dir/dashboard.yaml" 2>"$work_dir/out"
expect_success "dashboard ConfigMap: labelled, valid JSON, every queried metric exists in the code" \
  python3 "$repo_root/deploy/k8s/check-dashboard.py" "$work_dir/dashboard.yaml" "$repo_root"
expect_refusal "schema: grafanaDashboard takes only known keys" "/monitoring/grafanaDashboard': additional properties 'label' not allowed" \
  "$helm" lint --strict "$chart" --set monitoring.grafanaDashboard.label=x

echo "== refused values"
expect_refusal "schema: unknown key in a component" "additional properties 'bogus' not allowed" \
  "$helm" lint --strict "$chart" --set components.edge.bogus=1
expect_refusal "schema: unknown component" "additional properties 'sesions' not allowed" \
  "$helm" lint --strict "$chart" --set components.sesions.enabled=true
expect_refusal "schema: unknown top-level key" "additional properties 'replicaCount' not allowed" \
  "$helm" lint --strict "$chart" --set replicaCount=3
expect_refusal "schema: unknown key in default" "additional properties 'replicas' not allowed" \
  "$helm" lint --strict "$chart" --set default.replicas=3
expect_refusal "schema: env values are strings" "/components/edge/env/GATEWAY_MAX_BODY_BYTES': got number, want string" \
  "$helm" lint --strict "$chart" --set components.edge.env.GATEWAY_MAX_BODY_BYTES=1024
expect_refusal "schema: bad image digest" "/default/image/digest': 'latest' does not match pattern" \
  "$helm" lint --strict "$chart" --set default.image.digest=latest
expect_refusal "schema: dependsOn names a component" "/components/edge/dependsOn/0': value must be one of" \
  "$helm" lint --strict "$chart" --set 'components.edge.dependsOn={acounts}'
expect_refusal "schema: port range" "/components/accounts/service/port': maximum" \
  "$helm" lint --strict "$chart" --set components.accounts.service.port=70000
expect_refusal "schema: the image runs compiled entries only" "/components/edge/command': 'services/edge/src/main.ts' does not match pattern" \
  "$helm" lint --strict "$chart" --set components.edge.command=services/edge/src/main.ts

expect_refusal "schema: runbookBaseUrl is a URL without a trailing slash" "/monitoring/prometheusRule/runbookBaseUrl': 'runbooks/' does not match pattern" \
  "$helm" lint --strict "$chart" --set monitoring.prometheusRule.runbookBaseUrl=runbooks/
expect_refusal "MongoDB secret is required" "secrets.MONGODB_URL.existingSecret is required" \
  "$helm" template gateway "$chart" --set secrets.MONGODB_URL.existingSecret=
expect_refusal "service auth secret is required" "serviceAuth.existingSecret is required" \
  "$helm" template gateway "$chart" --set serviceAuth.existingSecret=
expect_refusal "PORT is set by the chart" "do not set it, the chart sets it" \
  "$helm" template gateway "$chart" --set-string components.edge.env.PORT=9000
expect_refusal "MANAGEMENT_PORT is set by the chart" "do not set it, the chart sets it" \
  "$helm" template gateway "$chart" --set-string default.env.MANAGEMENT_PORT=9000
expect_refusal "secretEnv must name a secrets entry" "has no entry under secrets" \
  "$helm" template gateway "$chart" --set 'components.edge.secretEnv={NO_SUCH_SECRET}'
expect_refusal "autoscaling bounds" "minReplicas (5) is above maxReplicas (3)" \
  "$helm" template gateway "$chart" --set components.edge.autoscaling.enabled=true \
  --set components.edge.autoscaling.minReplicas=5 --set components.edge.autoscaling.maxReplicas=3

echo
echo "$passed passed, $failed failed"
[[ "$failed" -eq 0 ]]
