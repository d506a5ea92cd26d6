{{/*
Chart name, truncated to the 63 characters DNS labels allow.
*/}}
{{- define "memforest.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Fully qualified app name (release-scoped).
*/}}
{{- define "memforest.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "memforest.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Common labels.
*/}}
{{- define "memforest.labels" -}}
helm.sh/chart: {{ include "memforest.chart" . }}
{{ include "memforest.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: memforest
{{- end }}

{{- define "memforest.selectorLabels" -}}
app.kubernetes.io/name: {{ include "memforest.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/*
Component selector labels: pass (dict "ctx" $ "component" "api").
*/}}
{{- define "memforest.componentSelectorLabels" -}}
{{ include "memforest.selectorLabels" .ctx }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{- define "memforest.componentLabels" -}}
{{ include "memforest.labels" .ctx }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{- define "memforest.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "memforest.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "memforest.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{- define "memforest.vllmImage" -}}
{{- printf "%s:%s" .Values.vllm.image.repository .Values.vllm.image.tag }}
{{- end }}

{{/*
Name of the Secret holding the admin key and database URL.
*/}}
{{- define "memforest.secretName" -}}
{{- if .Values.secrets.existingSecret }}
{{- .Values.secrets.existingSecret }}
{{- else }}
{{- include "memforest.fullname" . }}
{{- end }}
{{- end }}

{{- define "memforest.configMapName" -}}
{{- printf "%s-config" (include "memforest.fullname" .) }}
{{- end }}

{{- define "memforest.vllmChatName" -}}
{{- printf "%s-vllm-chat" (include "memforest.fullname" .) | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "memforest.vllmEmbedName" -}}
{{- printf "%s-vllm-embed" (include "memforest.fullname" .) | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
OpenAI-compatible base URLs: explicit values win, else the in-chart vLLM Services.
*/}}
{{- define "memforest.llmBaseUrl" -}}
{{- if .Values.config.llm.baseUrl }}
{{- .Values.config.llm.baseUrl }}
{{- else if .Values.vllm.chat.enabled }}
{{- printf "http://%s:%v/v1" (include "memforest.vllmChatName" .) .Values.vllm.port }}
{{- end }}
{{- end }}

{{- define "memforest.embeddingBaseUrl" -}}
{{- if .Values.config.embedding.baseUrl }}
{{- .Values.config.embedding.baseUrl }}
{{- else if .Values.vllm.embed.enabled }}
{{- printf "http://%s:%v/v1" (include "memforest.vllmEmbedName" .) .Values.vllm.port }}
{{- end }}
{{- end }}

{{/*
Secret-backed environment shared by the API, the workers and the migrations Job.
*/}}
{{- define "memforest.secretEnv" -}}
- name: MEMFOREST_DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ include "memforest.secretName" . }}
      key: {{ .Values.secrets.keys.databaseUrl }}
- name: MEMFOREST_DATABASE_TENANT_URL
  valueFrom:
    secretKeyRef:
      name: {{ include "memforest.secretName" . }}
      key: {{ .Values.secrets.keys.tenantDatabaseUrl }}
- name: MEMFOREST_ADMIN_KEY
  valueFrom:
    secretKeyRef:
      name: {{ include "memforest.secretName" . }}
      key: {{ .Values.secrets.keys.adminKey }}
- name: MEMFOREST_LLM__API_KEY
  valueFrom:
    secretKeyRef:
      name: {{ include "memforest.secretName" . }}
      key: {{ .Values.secrets.keys.vllmApiKey }}
      optional: true
- name: MEMFOREST_EMBEDDING__API_KEY
  valueFrom:
    secretKeyRef:
      name: {{ include "memforest.secretName" . }}
      key: {{ .Values.secrets.keys.vllmApiKey }}
      optional: true
{{- end }}

{{/*
Pod-level bits shared by the MemForest Deployments.
*/}}
{{- define "memforest.podCommon" -}}
serviceAccountName: {{ include "memforest.serviceAccountName" . }}
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
securityContext:
  {{- toYaml .Values.podSecurityContext | nindent 2 }}
{{- end }}
