{{/*
Names and labels shared by every template. Resource names are "<fullname>-<component>",
e.g. "gateway-sessions" for a release named "gateway".
*/}}

{{- define "gateway.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "gateway.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "gateway.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Name of one component's resources. Params: root, name. */}}
{{- define "gateway.componentFullname" -}}
{{- printf "%s-%s" (include "gateway.fullname" .root) .name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Labels on every resource of the release. */}}
{{- define "gateway.commonLabels" -}}
helm.sh/chart: {{ include "gateway.chart" . }}
app.kubernetes.io/name: {{ include "gateway.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ include "gateway.imageTag" . | quote }}
app.kubernetes.io/part-of: {{ include "gateway.name" . }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{/* Labels of one component's resources. Params: root, name. */}}
{{- define "gateway.labels" -}}
{{ include "gateway.commonLabels" .root }}
app.kubernetes.io/component: {{ .name }}
{{- end -}}

{{/* Selector of one component's pods: stable across upgrades (never add the version here). Params: root, name. */}}
{{- define "gateway.selectorLabels" -}}
app.kubernetes.io/name: {{ include "gateway.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .name }}
{{- end -}}

{{- define "gateway.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "gateway.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* The image tag: default.image.tag, else the chart's appVersion. */}}
{{- define "gateway.imageTag" -}}
{{- default .Chart.AppVersion .Values.default.image.tag -}}
{{- end -}}

{{/* registry/repository:tag[@digest] of an image block. Params: root, image. */}}
{{- define "gateway.image" -}}
{{- $image := .image -}}
{{- $tag := default .root.Chart.AppVersion $image.tag -}}
{{- $ref := printf "%s:%s" $image.repository $tag -}}
{{- if $image.registry -}}
{{- $ref = printf "%s/%s" (trimSuffix "/" $image.registry) $ref -}}
{{- end -}}
{{- if $image.digest -}}
{{- $ref = printf "%s@%s" $ref $image.digest -}}
{{- end -}}
{{- $ref -}}
{{- end -}}

{{/*
Recursive overlay of two maps, returned as YAML (read back with fromYaml): maps are merged key
by key, anything else in "over" replaces "base", including false, 0 and "" (which sprig's
mergeOverwrite would silently ignore). Params: base, over.
*/}}
{{- define "gateway.overlay" -}}
{{- $result := deepCopy .base -}}
{{- range $key, $value := .over -}}
{{- $current := get $result $key -}}
{{- if and (kindIs "map" $value) (kindIs "map" $current) -}}
{{- $_ := set $result $key (include "gateway.overlay" (dict "base" $current "over" $value) | fromYaml) -}}
{{- else -}}
{{- $_ := set $result $key $value -}}
{{- end -}}
{{- end -}}
{{- toYaml $result -}}
{{- end -}}

{{/*
The settings of one component: `default` overlaid with `components.<name>`, as YAML.
Params: root, name.
*/}}
{{- define "gateway.componentConfig" -}}
{{- $component := index .root.Values.components .name -}}
{{- include "gateway.overlay" (dict "base" .root.Values.default "over" $component) -}}
{{- end -}}

{{/* The in-cluster URL of a component's Service. Params: root, name. */}}
{{- define "gateway.componentUrl" -}}
{{- $config := include "gateway.componentConfig" . | fromYaml -}}
{{- printf "http://%s:%d" (include "gateway.componentFullname" .) (include "gateway.servicePort" $config | int) -}}
{{- end -}}

{{/* The port a component's Service exposes: service.servicePort, else service.port. Param: the component config. */}}
{{- define "gateway.servicePort" -}}
{{- default .service.port .service.servicePort | int -}}
{{- end -}}

{{/* The smallest replica count a component runs with (autoscaling.minReplicas when autoscaled). Param: the component config. */}}
{{- define "gateway.minReplicas" -}}
{{- if .autoscaling.enabled -}}
{{- .autoscaling.minReplicas | int -}}
{{- else -}}
{{- .replicas | int -}}
{{- end -}}
{{- end -}}

{{/* Components that list "name" in their dependsOn (they call it). Params: root, name. Returns a YAML list. */}}
{{- define "gateway.callersOf" -}}
{{- $callers := list -}}
{{- range $caller, $component := .root.Values.components -}}
{{- if and $component.enabled (has $.name (default list $component.dependsOn)) -}}
{{- $callers = append $callers $caller -}}
{{- end -}}
{{- end -}}
{{- toYaml $callers -}}
{{- end -}}
