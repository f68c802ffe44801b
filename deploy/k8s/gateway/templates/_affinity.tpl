{{- /*
A pod's affinity: `affinity` as given, plus, with podAntiAffinity.type soft or hard, a rule
keeping the component's replicas apart across podAntiAffinity.topologyKey (nodes or zones).
soft prefers it, hard requires it (pods stay Pending when there are fewer domains than replicas).
*/ -}}
{{- define "gateway.affinity" -}}
{{- $config := .config -}}
{{- $affinity := deepCopy (default dict $config.affinity) -}}
{{- $anti := default dict $config.podAntiAffinity -}}
{{- if $anti.type -}}
{{- $term := dict "labelSelector" (dict "matchLabels" (include "gateway.selectorLabels" (dict "root" .root "name" .name) | fromYaml)) "topologyKey" $anti.topologyKey -}}
{{- $rules := default dict (get $affinity "podAntiAffinity") -}}
{{- if eq $anti.type "hard" -}}
{{- $_ := set $rules "requiredDuringSchedulingIgnoredDuringExecution" (append (default list (get $rules "requiredDuringSchedulingIgnoredDuringExecution")) $term) -}}
{{- else -}}
{{- $_ := set $rules "preferredDuringSchedulingIgnoredDuringExecution" (append (default list (get $rules "preferredDuringSchedulingIgnoredDuringExecution")) (dict "weight" 100 "podAffinityTerm" $term)) -}}
{{- end -}}
{{- $_ := set $affinity "podAntiAffinity" $rules -}}
{{- end -}}
{{- with $affinity }}
  affinity:
    {{- toYaml . | nindent 4 }}
{{- end }}
{{- end -}}
