#!/usr/bin/env python3
"""Checks the output of `helm template` for the gateway chart against the rules every install
must keep: hardened pods, probes, resources, labels, secrets only by reference, exactly the
expected components, and internal wiring (service URLs, PDBs, NetworkPolicies) that points at
objects that exist.

Usage: check-rendered.py <rendered.yaml> --components edge,accounts,...

Python with PyYAML (Debian's python3-yaml, or `pip install pyyaml`) because the repository's
node_modules has no YAML parser, and adding one for this check alone is not worth a dependency.
"""
import argparse
import re
import sys

try:
    import yaml
except ImportError:  # pragma: no cover - depends on the machine
    sys.exit("check-rendered.py needs PyYAML: apt-get install python3-yaml, or pip install pyyaml")

# Variables that hold credentials: never a plain `value`, only valueFrom.secretKeyRef.
SECRET_VARIABLES = {"MONGODB_URL", "GATEWAY_SERVICE_AUTH_KEYS", "GATEWAY_ADMIN_TOKEN", "GATEWAY_DEMO_TEST_KEY", "EPG_SIM_PASSWORD"}
# Any other variable whose name says it is a credential must also come from a Secret.
SECRET_NAME_PATTERN = re.compile(r"(PASSWORD|TOKEN|SECRET|CREDENTIAL|PRIVATE_KEY|TEST_KEY|API_KEY)")
# Components that are not the gateway (no management listener, not scraped).
UNSCRAPED_COMPONENTS = {"epg-simulator"}
# A URL with user:password@ in a plain value leaks credentials into the Deployment.
URL_WITH_CREDENTIALS = re.compile(r"^[a-z][a-z0-9+.-]*://[^/@\s]+:[^/@\s]+@")

REQUIRED_LABELS = (
    "app.kubernetes.io/name",
    "app.kubernetes.io/instance",
    "app.kubernetes.io/version",
    "app.kubernetes.io/component",
    "app.kubernetes.io/part-of",
    "app.kubernetes.io/managed-by",
    "helm.sh/chart",
)


class Checker:
    def __init__(self):
        self.errors = []

    def require(self, condition, where, message):
        if not condition:
            self.errors.append(f"{where}: {message}")
        return condition


def check_drain_fits_grace(check, where, pod, grace):
    """The service's own shutdown deadline plus the preStop sleep must end before Kubernetes' SIGKILL."""
    for container in pod.get("containers") or []:
        env = {e.get("name"): e.get("value") for e in container.get("env") or []}
        drain = env.get("GATEWAY_SHUTDOWN_TIMEOUT")
        if not check.require(isinstance(drain, str) and re.fullmatch(r"\d+s", drain or ""), where, "GATEWAY_SHUTDOWN_TIMEOUT must be set in whole seconds"):
            continue
        command = (((container.get("lifecycle") or {}).get("preStop") or {}).get("exec") or {}).get("command") or []
        sleep = int(command[1]) if len(command) == 2 and command[0] == "sleep" else 0
        check.require(
            isinstance(grace, int) and int(drain[:-1]) + sleep < grace,
            where,
            f"GATEWAY_SHUTDOWN_TIMEOUT {drain} plus the preStop sleep {sleep}s must end before terminationGracePeriodSeconds {grace}",
        )


def load_documents(path):
    with open(path, encoding="utf-8") as handle:
        return [doc for doc in yaml.safe_load_all(handle) if doc]


def where_of(doc):
    return f"{doc.get('kind')}/{doc.get('metadata', {}).get('name')}"


def labels_of(doc):
    return doc.get("metadata", {}).get("labels") or {}


def is_metrics_service(doc):
    return labels_of(doc).get("gateway.metrics/scrape") == "true"


def is_hook(doc):
    return "helm.sh/hook" in (doc.get("metadata", {}).get("annotations") or {})


def check_labels(check, doc):
    labels = labels_of(doc)
    for label in REQUIRED_LABELS:
        check.require(labels.get(label), where_of(doc), f"label {label} is missing")


def check_env(check, where, container):
    names = set()
    env = container.get("env") or []
    for variable in env:
        name = variable.get("name")
        check.require(name not in names, where, f"env {name} is set twice")
        names.add(name)
        if "value" in variable:
            value = str(variable["value"])
            secret_like = name in SECRET_VARIABLES or SECRET_NAME_PATTERN.search(name or "")
            check.require(not secret_like, where, f"env {name} has an inline value; it must come from a Secret")
            check.require(not URL_WITH_CREDENTIALS.match(value), where, f"env {name} holds a URL with credentials inline")
        else:
            source = variable.get("valueFrom") or {}
            check.require(source, where, f"env {name} has neither value nor valueFrom")
            if name in SECRET_VARIABLES:
                ref = source.get("secretKeyRef") or {}
                check.require(ref.get("name") and ref.get("key"), where, f"env {name} must use secretKeyRef with name and key")
    return {variable["name"]: variable for variable in env}


def check_probe(check, where, container, probe_name, path):
    probe = container.get(probe_name)
    if not check.require(probe, where, f"{probe_name} is missing"):
        return
    http = probe.get("httpGet") or {}
    check.require(http.get("path") == path, where, f"{probe_name} must GET {path}, found {http.get('path')}")
    check.require(http.get("port") == "http", where, f"{probe_name} must use the named port http")


def check_deployment(check, doc, services_by_name):
    where = where_of(doc)
    check_labels(check, doc)
    spec = doc.get("spec", {})
    selector = spec.get("selector", {}).get("matchLabels") or {}
    template = spec.get("template", {})
    pod_labels = template.get("metadata", {}).get("labels") or {}
    check.require(selector, where, "selector.matchLabels is empty")
    for key, value in selector.items():
        check.require(pod_labels.get(key) == value, where, f"pod label {key} does not match the selector")
    check.require("app.kubernetes.io/version" not in selector, where, "the selector must not contain the version (immutable field)")

    annotations = template.get("metadata", {}).get("annotations") or {}
    # Every gateway process serves /metrics on its management port; the EPG simulator (the
    # acquirer's stand-in) is not the gateway and has none.
    scraped = labels_of(doc).get("app.kubernetes.io/component") not in UNSCRAPED_COMPONENTS
    if scraped:
        check.require(annotations.get("prometheus.io/scrape") == "true", where, "prometheus.io/scrape annotation is missing")
        check.require(annotations.get("prometheus.io/path") == "/metrics", where, "prometheus.io/path must be /metrics")

    pod = template.get("spec", {})
    pod_security = pod.get("securityContext") or {}
    check.require(pod_security.get("runAsNonRoot") is True, where, "pod securityContext.runAsNonRoot must be true")
    check.require(pod.get("automountServiceAccountToken") is False, where, "the service account token must not be mounted")
    grace = pod.get("terminationGracePeriodSeconds")
    check.require(isinstance(grace, int) and grace >= 30, where, "terminationGracePeriodSeconds must be at least 30")
    check_drain_fits_grace(check, where, pod, grace)
    volumes = {volume.get("name"): volume for volume in pod.get("volumes") or []}

    containers = pod.get("containers") or []
    check.require(len(containers) == 1, where, f"expected one container, found {len(containers)}")
    for container in containers:
        cwhere = f"{where} container {container.get('name')}"
        security = container.get("securityContext") or {}
        check.require(security.get("readOnlyRootFilesystem") is True, cwhere, "readOnlyRootFilesystem must be true")
        check.require(security.get("allowPrivilegeEscalation") is False, cwhere, "allowPrivilegeEscalation must be false")
        check.require("ALL" in ((security.get("capabilities") or {}).get("drop") or []), cwhere, "capabilities must drop ALL")
        check.require(security.get("runAsNonRoot") is True or pod_security.get("runAsNonRoot") is True, cwhere, "must run as non-root")

        resources = container.get("resources") or {}
        requests = resources.get("requests") or {}
        limits = resources.get("limits") or {}
        check.require(requests.get("cpu") and requests.get("memory"), cwhere, "resources.requests needs cpu and memory")
        check.require(limits.get("memory"), cwhere, "resources.limits needs memory")

        check_probe(check, cwhere, container, "livenessProbe", "/healthz")
        check_probe(check, cwhere, container, "readinessProbe", "/readyz")
        check_probe(check, cwhere, container, "startupProbe", "/healthz")

        args = container.get("args") or []
        # The image runs compiled JavaScript only (no TypeScript tooling in it).
        check.require(len(args) == 1 and re.fullmatch(r"[^/\s]\S*/dist/\S+\.(js|mjs)", str(args[0])), cwhere, f"args must be one compiled entry (<workspace>/dist/<file>.js), found {args}")

        ports = {port.get("name"): port for port in container.get("ports") or []}
        http_port = (ports.get("http") or {}).get("containerPort")
        check.require(http_port, cwhere, "a port named http is missing")
        env = check_env(check, cwhere, container)
        check.require((env.get("HOST") or {}).get("value") == "0.0.0.0", cwhere, "HOST must be 0.0.0.0")
        check.require((env.get("PORT") or {}).get("value") == str(http_port), cwhere, "PORT must equal the http containerPort")
        check.require(env.get("OTEL_SERVICE_NAME"), cwhere, "OTEL_SERVICE_NAME is missing")
        if scraped:
            # Metrics on the management listener only: its own port, scraped there.
            metrics_port = (ports.get("metrics") or {}).get("containerPort")
            if check.require(metrics_port, cwhere, "a port named metrics is missing"):
                check.require(metrics_port != http_port, cwhere, "the metrics port must differ from the http port")
                check.require((env.get("MANAGEMENT_PORT") or {}).get("value") == str(metrics_port), cwhere,
                              "MANAGEMENT_PORT must equal the metrics containerPort")
                check.require(annotations.get("prometheus.io/port") == str(metrics_port), where, "prometheus.io/port must be the metrics port")

        # <NAME>_URL of a sibling component must name a rendered Service and its port.
        for name, variable in env.items():
            value = str(variable.get("value", ""))
            match = re.fullmatch(r"http://([a-z0-9-]+):(\d+)", value)
            if name.endswith("_URL") and match:
                service = services_by_name.get(match.group(1))
                if check.require(service, cwhere, f"{name} points at Service {match.group(1)}, which is not rendered"):
                    service_ports = [port.get("port") for port in service.get("spec", {}).get("ports") or []]
                    check.require(int(match.group(2)) in service_ports, cwhere, f"{name} uses port {match.group(2)}, Service has {service_ports}")

        mounts = {mount.get("mountPath"): mount for mount in container.get("volumeMounts") or []}
        tmp = mounts.get("/tmp")
        if check.require(tmp, cwhere, "/tmp must be a writable volume (read-only root filesystem)"):
            check.require("emptyDir" in (volumes.get(tmp.get("name")) or {}), cwhere, "/tmp must be an emptyDir")


def check_service(check, doc, deployments_by_component):
    where = where_of(doc)
    check_labels(check, doc)
    component = labels_of(doc).get("app.kubernetes.io/component")
    deployment = deployments_by_component.get(component)
    if not check.require(deployment, where, f"no Deployment for component {component}"):
        return
    pod_labels = deployment["spec"]["template"]["metadata"]["labels"]
    selector = doc.get("spec", {}).get("selector") or {}
    check.require(selector, where, "selector is empty")
    for key, value in selector.items():
        check.require(pod_labels.get(key) == value, where, f"selector {key}={value} does not match the pods")
    if is_metrics_service(doc):
        # Scraped by the ServiceMonitor: the management port only, never the component's own.
        check.require(doc["spec"].get("clusterIP") == "None", where, "a metrics Service must be headless")
        for port in doc.get("spec", {}).get("ports") or []:
            check.require(port.get("targetPort") == "metrics", where, "a metrics Service must target the named port metrics")
        return
    for port in doc.get("spec", {}).get("ports") or []:
        check.require(port.get("targetPort") == "http", where, "targetPort must be the named port http")
    if component == "edge":
        check.require([p.get("port") for p in doc["spec"]["ports"]] == [80], where, "the edge Service must listen on port 80")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("rendered", help="output of helm template")
    parser.add_argument("--components", required=True, help="comma-separated components that must be rendered, and only those")
    args = parser.parse_args()
    expected = {name for name in args.components.split(",") if name}

    check = Checker()
    docs = load_documents(args.rendered)
    check.require(docs, args.rendered, "nothing was rendered")
    for doc in docs:
        check.require(doc.get("kind") != "Secret", where_of(doc), "the chart must not create Secrets (secrets are by reference)")

    regular = [doc for doc in docs if not is_hook(doc)]
    deployments = [doc for doc in regular if doc.get("kind") == "Deployment"]
    services = [doc for doc in regular if doc.get("kind") == "Service"]
    deployments_by_component = {labels_of(doc).get("app.kubernetes.io/component"): doc for doc in deployments}
    services_by_name = {doc["metadata"]["name"]: doc for doc in services}

    rendered_components = set(deployments_by_component)
    check.require(len(deployments) == len(rendered_components), "Deployments", "two Deployments share a component label")
    check.require(rendered_components == expected, "components",
                  f"expected Deployments for {sorted(expected)}, found {sorted(rendered_components)}")
    # A disabled component leaves nothing behind: no Service, PDB, HPA, Ingress or NetworkPolicy.
    for doc in regular:
        component = labels_of(doc).get("app.kubernetes.io/component")
        if component is not None:
            check.require(component in expected, where_of(doc), f"belongs to component {component}, which is not enabled")

    for doc in deployments:
        check_deployment(check, doc, services_by_name)
    for doc in services:
        check_service(check, doc, deployments_by_component)
    own_services = [doc for doc in services if not is_metrics_service(doc)]
    check.require(len(own_services) == len(deployments), "Services", f"{len(own_services)} Services for {len(deployments)} Deployments")
    # With the ServiceMonitor on: one metrics Service per scraped component, none for the others.
    metrics_services = {labels_of(doc).get("app.kubernetes.io/component") for doc in services if is_metrics_service(doc)}
    if metrics_services or any(doc.get("kind") == "ServiceMonitor" for doc in regular):
        scraped = rendered_components - UNSCRAPED_COMPONENTS
        check.require(metrics_services == scraped, "metrics Services", f"cover {sorted(metrics_services)}, expected {sorted(scraped)}")

    # PodDisruptionBudgets exactly for the components that run more than one pod.
    hpas = {labels_of(d).get("app.kubernetes.io/component"): d for d in regular if d.get("kind") == "HorizontalPodAutoscaler"}
    pdbs = {labels_of(d).get("app.kubernetes.io/component"): d for d in regular if d.get("kind") == "PodDisruptionBudget"}
    for component, deployment in deployments_by_component.items():
        hpa = hpas.get(component)
        replicas = hpa["spec"]["minReplicas"] if hpa else deployment["spec"].get("replicas", 1)
        if hpa:
            check.require("replicas" not in deployment["spec"], where_of(deployment), "an autoscaled Deployment must leave replicas to the HPA")
        if replicas > 1:
            check.require(component in pdbs, component, f"runs {replicas} pods but has no PodDisruptionBudget")
        else:
            check.require(component not in pdbs, component, "runs one pod but has a PodDisruptionBudget (it would block node drains)")

    policies = [d for d in regular if d.get("kind") == "NetworkPolicy"]
    if policies:
        covered = {labels_of(d).get("app.kubernetes.io/component") for d in policies}
        check.require(covered == rendered_components, "NetworkPolicies", f"cover {sorted(covered)}, not every component")
        for policy in policies:
            for rule in policy["spec"].get("ingress") or []:
                for peer in rule.get("from") or []:
                    selected = ((peer.get("podSelector") or {}).get("matchLabels") or {}).get("app.kubernetes.io/component")
                    if selected and "namespaceSelector" not in peer:
                        check.require(selected in rendered_components, where_of(policy), f"allows component {selected}, which is not rendered")

    for doc in regular:
        if doc.get("kind") == "Ingress":
            for rule in doc["spec"].get("rules") or []:
                for path in rule.get("http", {}).get("paths") or []:
                    name = path["backend"]["service"]["name"]
                    check.require(name in services_by_name, where_of(doc), f"routes to Service {name}, which is not rendered")

    kinds = sorted({doc.get("kind") for doc in docs})
    if check.errors:
        for error in check.errors:
            print(f"FAIL {error}", file=sys.stderr)
        sys.exit(1)
    print(f"ok: {len(docs)} objects ({', '.join(kinds)}); components {', '.join(sorted(rendered_components))}")


if __name__ == "__main__":
    main()
