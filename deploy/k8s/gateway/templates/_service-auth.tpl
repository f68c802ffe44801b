{{- /*
GATEWAY_SERVICE_AUTH_KEYS of a gRPC component (edge, accounts, sessions, refunds, webhooks):
key <component> of the Secret serviceAuth.existingSecret, holding only the caller>target pair
keys that component is part of (`npm run service-auth-secret` writes such a Secret). Other
components (the EPG simulator) call and serve no internal gRPC and get nothing.
*/ -}}
{{- define "gateway.serviceAuthEnv" -}}
{{- if has .name (list "edge" "accounts" "sessions" "refunds" "webhooks") }}
{{- $secret := .root.Values.serviceAuth.existingSecret }}
{{- if not $secret }}
{{- fail (printf "serviceAuth.existingSecret is required (component %s): internal gRPC refuses callers without service credentials; create the Secret with `npm run service-auth-secret`" .name) }}
{{- end }}
- name: GATEWAY_SERVICE_AUTH_KEYS
  valueFrom:
    secretKeyRef:
      name: {{ $secret }}
      key: {{ .name }}
{{- end }}
{{- end -}}
