{{/*
The pod of one component. Every component runs the same image; the TypeScript entry in
`command` is the container's argument (the image's entrypoint is `tini -- node --conditions=gateway-compiled`).
Params: root, name, config (the merged component settings from gateway.componentConfig).
*/}}

{{/*
Environment of one component, in this order so later `$(VAR)` references can use earlier ones:
downward API, fixed (HOST, PORT, MANAGEMENT_PORT), plain values (computed service URLs, then `default.env`
overlaid with the component's `env`), then variables from Secrets. A plain variable that a
configured Secret provides (its `existingSecret` is set) is left out in every component, so a
credential-bearing value is never half from a Secret, half inline. Empty values are left out
(the service's default applies).
*/}}
{{- define "gateway.env" -}}
{{- $root := .root -}}
{{- $name := .name -}}
{{- $config := .config -}}
{{- range $forbidden := list "PORT" "HOST" "MANAGEMENT_PORT" -}}
{{- if hasKey (default dict $config.env) $forbidden -}}
{{- fail (printf "components.%s.env.%s (or default.env.%s): do not set it, the chart sets it (PORT from service.port, MANAGEMENT_PORT from metrics.port, HOST to 0.0.0.0)" $name $forbidden $forbidden) -}}
{{- end -}}
{{- end -}}
{{- $fromSecrets := dict -}}
{{- range $variable := default list $config.secretEnv -}}
{{- $ref := get $root.Values.secrets $variable -}}
{{- if not $ref -}}
{{- fail (printf "components.%s.secretEnv lists %s, which has no entry under secrets" $name $variable) -}}
{{- end -}}
{{- if $ref.existingSecret -}}
{{- $_ := set $fromSecrets $variable $ref -}}
{{- else if $ref.required -}}
{{- fail (printf "secrets.%s.existingSecret is required (component %s): create a Secret holding %s under key %q and name it there" $variable $name $variable (default $variable $ref.key)) -}}
{{- end -}}
{{- end -}}
{{- $plain := dict "OTEL_SERVICE_NAME" $name -}}
{{- /* The service's own drain deadline: what the grace period leaves after the preStop sleep, minus 5 s for the abandon and exit. */ -}}
{{- $drainSeconds := sub (sub (int $config.terminationGracePeriodSeconds) (int $config.preStopSleepSeconds)) 5 -}}
{{- if lt $drainSeconds 1 -}}
{{- fail (printf "components.%s: terminationGracePeriodSeconds must exceed preStopSleepSeconds by more than 5 s (the service needs time to drain)" $name) -}}
{{- end -}}
{{- $_ := set $plain "GATEWAY_SHUTDOWN_TIMEOUT" (printf "%ds" $drainSeconds) -}}
{{- range $dependency := default list $config.dependsOn -}}
{{- $target := get $root.Values.components $dependency -}}
{{- if and $target $target.enabled -}}
{{- $_ := set $plain (printf "%s_URL" ($dependency | replace "-" "_" | upper)) (include "gateway.componentUrl" (dict "root" $root "name" $dependency)) -}}
{{- end -}}
{{- end -}}
{{- range $key, $value := default dict $config.env -}}
{{- $_ := set $plain $key $value -}}
{{- end -}}
- name: POD_NAME
  valueFrom:
    fieldRef:
      fieldPath: metadata.name
- name: POD_NAMESPACE
  valueFrom:
    fieldRef:
      fieldPath: metadata.namespace
- name: HOST
  value: "0.0.0.0"
- name: PORT
  value: {{ $config.service.port | int | quote }}
{{- if $config.metrics.enabled }}
- name: MANAGEMENT_PORT
  value: {{ $config.metrics.port | int | quote }}
{{- end }}
{{- range $key, $value := $plain }}
{{- $secretRef := get $root.Values.secrets $key }}
{{- if and (not (and $secretRef $secretRef.existingSecret)) (ne (toString $value) "") }}
- name: {{ $key }}
  value: {{ toString $value | quote }}
{{- end }}
{{- end }}
{{- range $variable, $ref := $fromSecrets }}
- name: {{ $variable }}
  valueFrom:
    secretKeyRef:
      name: {{ $ref.existingSecret }}
      key: {{ default $variable $ref.key }}
{{- end }}
{{- include "gateway.serviceAuthEnv" (dict "root" $root "name" $name) }}
{{- end -}}

{{- define "gateway.podAnnotations" -}}
{{- $config := .config -}}
{{- if $config.metrics.enabled }}
prometheus.io/scrape: "true"
prometheus.io/port: {{ $config.metrics.port | int | quote }}
prometheus.io/path: {{ $config.metrics.path | quote }}
{{- end }}
{{- with $config.podAnnotations }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{- define "gateway.podTemplate" -}}
{{- $root := .root -}}
{{- $name := .name -}}
{{- $config := .config -}}
metadata:
  labels:
    {{- include "gateway.labels" (dict "root" $root "name" $name) | nindent 4 }}
    {{- with $config.podLabels }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  {{- with (include "gateway.podAnnotations" . | trim) }}
  annotations:
    {{- . | nindent 4 }}
  {{- end }}
spec:
  serviceAccountName: {{ include "gateway.serviceAccountName" $root }}
  # The gateway calls no Kubernetes API.
  automountServiceAccountToken: false
  enableServiceLinks: false
  {{- with $config.imagePullSecrets }}
  imagePullSecrets:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with $config.priorityClassName }}
  priorityClassName: {{ . }}
  {{- end }}
  securityContext:
    {{- toYaml $config.podSecurityContext | nindent 4 }}
  # preStop sleep + the service's own drain (GATEWAY_SHUTDOWN_TIMEOUT, set from this minus the
  # preStop sleep minus 5 s: past it the service abandons what is left and exits 1) fit in this.
  terminationGracePeriodSeconds: {{ $config.terminationGracePeriodSeconds | int }}
  containers:
    - name: {{ $name }}
      image: {{ include "gateway.image" (dict "root" $root "image" $config.image) | quote }}
      imagePullPolicy: {{ $config.image.pullPolicy }}
      args:
        - {{ $config.command | quote }}
      ports:
        - name: http
          containerPort: {{ $config.service.port | int }}
          protocol: TCP
        {{- if $config.metrics.enabled }}
        # The management listener: GET /metrics only, never routed by a Service's public port.
        - name: metrics
          containerPort: {{ $config.metrics.port | int }}
          protocol: TCP
        {{- end }}
      env:
        {{- include "gateway.env" . | nindent 8 }}
      {{- with $config.startupProbe }}
      startupProbe:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $config.livenessProbe }}
      livenessProbe:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $config.readinessProbe }}
      readinessProbe:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- if gt (int $config.preStopSleepSeconds) 0 }}
      lifecycle:
        # Keeps serving while load balancers and kube-proxy drop this pod from their
        # endpoints, so no new connection lands on a server that is shutting down.
        preStop:
          exec:
            command: ["sleep", {{ $config.preStopSleepSeconds | int | quote }}]
      {{- end }}
      resources:
        {{- toYaml $config.resources | nindent 8 }}
      securityContext:
        {{- toYaml $config.securityContext | nindent 8 }}
      volumeMounts:
        # The root filesystem is read-only; Node's temporary files go here.
        - name: tmp
          mountPath: /tmp
  volumes:
    - name: tmp
      {{- $emptyDir := dict }}
      {{- with $config.tmpVolume.sizeLimit }}{{ $_ := set $emptyDir "sizeLimit" . }}{{ end }}
      {{- with $config.tmpVolume.medium }}{{ $_ := set $emptyDir "medium" . }}{{ end }}
      emptyDir: {{ toJson $emptyDir }}
  {{- with $config.nodeSelector }}
  nodeSelector:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- include "gateway.affinity" (dict "root" $root "name" $name "config" $config) }}
  {{- with $config.tolerations }}
  tolerations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- if or $config.topologySpread.enabled $config.topologySpreadConstraints }}
  topologySpreadConstraints:
    {{- if $config.topologySpread.enabled }}
    - maxSkew: {{ $config.topologySpread.maxSkew | int }}
      topologyKey: {{ $config.topologySpread.topologyKey }}
      whenUnsatisfiable: {{ $config.topologySpread.whenUnsatisfiable }}
      labelSelector:
        matchLabels:
          {{- include "gateway.selectorLabels" (dict "root" $root "name" $name) | nindent 10 }}
    {{- end }}
    {{- with $config.topologySpreadConstraints }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  {{- end }}
{{- end -}}
