{{/*
A vLLM OpenAI-compatible server: Deployment + Service.
Call with (dict "ctx" $ "name" <resource name> "component" <label> "spec" <values block> "args" <list>).
*/}}
{{- define "memforest.vllmServer" -}}
{{- $ctx := .ctx }}
{{- $spec := .spec }}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .name }}
  labels:
    {{- include "memforest.componentLabels" (dict "ctx" $ctx "component" .component) | nindent 4 }}
spec:
  replicas: {{ $spec.replicas }}
  # One GPU per pod: replace pods rather than surge (a surge pod would wait for a free GPU).
  strategy:
    type: Recreate
  selector:
    matchLabels:
      {{- include "memforest.componentSelectorLabels" (dict "ctx" $ctx "component" .component) | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "memforest.componentSelectorLabels" (dict "ctx" $ctx "component" .component) | nindent 8 }}
    spec:
      automountServiceAccountToken: false
      {{- with $ctx.Values.imagePullSecrets }}
      imagePullSecrets:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      containers:
        - name: vllm
          image: {{ include "memforest.vllmImage" $ctx }}
          imagePullPolicy: {{ $ctx.Values.vllm.image.pullPolicy }}
          # The image's entrypoint is `vllm serve`; the first argument is the model.
          args:
            {{- range .args }}
            - {{ . | quote }}
            {{- end }}
            {{- range $spec.extraArgs }}
            - {{ . | quote }}
            {{- end }}
          env:
            - name: HF_HOME
              value: /models/hf
            - name: VLLM_API_KEY
              valueFrom:
                secretKeyRef:
                  name: {{ include "memforest.secretName" $ctx }}
                  key: {{ $ctx.Values.secrets.keys.vllmApiKey }}
                  optional: true
            - name: HF_TOKEN
              valueFrom:
                secretKeyRef:
                  name: {{ include "memforest.secretName" $ctx }}
                  key: {{ $ctx.Values.secrets.keys.hfToken }}
                  optional: true
          ports:
            - name: http
              containerPort: {{ $ctx.Values.vllm.port }}
              protocol: TCP
          # Weights download + CUDA graph capture: allow up to 30 minutes to start.
          startupProbe:
            httpGet:
              path: /health
              port: http
            periodSeconds: 10
            failureThreshold: 180
          livenessProbe:
            httpGet:
              path: /health
              port: http
            periodSeconds: 15
            timeoutSeconds: 5
            failureThreshold: 4
          readinessProbe:
            httpGet:
              path: /health
              port: http
            periodSeconds: 10
            timeoutSeconds: 5
            failureThreshold: 3
          resources:
            {{- toYaml $spec.resources | nindent 12 }}
          volumeMounts:
            - name: model-cache
              mountPath: /models
            - name: dshm
              mountPath: /dev/shm
      volumes:
        - name: model-cache
          {{- if $ctx.Values.vllm.cache.existingClaim }}
          persistentVolumeClaim:
            claimName: {{ $ctx.Values.vllm.cache.existingClaim }}
          {{- else }}
          emptyDir:
            sizeLimit: {{ $ctx.Values.vllm.cache.sizeLimit }}
          {{- end }}
        - name: dshm
          emptyDir:
            medium: Memory
            sizeLimit: {{ $ctx.Values.vllm.shmSize }}
      {{- with $spec.nodeSelector }}
      nodeSelector:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $spec.tolerations }}
      tolerations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $spec.affinity }}
      affinity:
        {{- toYaml . | nindent 8 }}
      {{- end }}
---
apiVersion: v1
kind: Service
metadata:
  name: {{ .name }}
  labels:
    {{- include "memforest.componentLabels" (dict "ctx" $ctx "component" .component) | nindent 4 }}
spec:
  type: ClusterIP
  selector:
    {{- include "memforest.componentSelectorLabels" (dict "ctx" $ctx "component" .component) | nindent 4 }}
  ports:
    - name: http
      port: {{ $ctx.Values.vllm.port }}
      targetPort: http
      protocol: TCP
{{- end }}
