"""The one Settings object (env prefix ``MEMFOREST_``), built at the edges and passed down."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

WORKER_CONCURRENCY_DEFAULT = 8
WORKER_CONCURRENCY_MAX = 256


def _default_home() -> Path:
    return Path("~/.local/share/memforest").expanduser()


def _no_control_characters(value: SecretStr | None) -> SecretStr | None:
    """An API key goes into an HTTP header verbatim: a control character (CR, LF, NUL, ...) there
    would break or forge the request, so it is refused at start-up (without echoing the key)."""
    if value is not None and any(ord(c) < 32 or ord(c) == 127 for c in value.get_secret_value()):
        raise ValueError("api_key must not contain control characters (CR, LF, NUL, ...)")
    return value


class DatabaseSettings(BaseModel):
    """Database connection pool. Where the database is: ``Settings.database_url``."""

    pool_size: int = 10
    max_overflow: int = 10
    # connections (and as many again in overflow) for statements that run beside a request's own
    # transaction: a query reads its full-text channels there while its vector channels run
    # (ADR 0024). 0: no such pool; a query reads every channel in its own transaction
    side_pool_size: int = Field(default=5, ge=0, le=1000)
    statement_timeout_ms: int = 60_000
    # a transaction left idle this long is ended by the server (its locks and pooled connection freed)
    idle_in_transaction_timeout_ms: int = Field(default=60_000, ge=0)
    # a request's tenant transaction waits at most this long for a lock (a forest's lock held by a
    # long merge, a row another request updates); past it the request answers 503 with Retry-After.
    # Worker jobs wait without this bound. 0 = wait as long as the server's own lock_timeout says
    request_lock_timeout_ms: int = Field(default=5_000, ge=0)
    # shared_buffers of the embedded server (written to its memforest.conf at each start, effective
    # from the next start of the server): "auto" = an eighth of the machine's memory, 128MB to 4GB;
    # else a PostgreSQL size such as "512MB". Ignored for an external database (its DBA tunes it).
    embedded_shared_buffers: str = Field(default="auto", pattern=r"^(auto|[0-9]+(kB|MB|GB))$")


class LLMSettings(BaseModel):
    """Chat model backend. ``base_url`` unset selects the built-in rule-based backend."""

    model_config = ConfigDict(hide_input_in_errors=True)  # an error never echoes the API key

    base_url: str | None = None
    api_key: SecretStr | None = None
    model: str = "Qwen/Qwen3-4B-Instruct-2507"
    concurrency: int = Field(default=32, ge=1, le=4096)
    timeout_s: float = Field(default=120.0, gt=0)
    max_attempts: int = Field(default=4, ge=1, le=20)
    backoff_base_s: float = Field(default=0.5, ge=0)
    backoff_max_s: float = Field(default=20.0, ge=0)
    temperature: float = 0.0
    max_tokens: int = 1024

    _api_key_is_a_header_value = field_validator("api_key")(_no_control_characters)


class EmbeddingSettings(BaseModel):
    """Embedding backend: ``hashed`` (built in), ``http`` (``/v1/embeddings``), ``local`` (sentence-transformers)."""

    model_config = ConfigDict(hide_input_in_errors=True)  # an error never echoes the API key

    backend: str = "hashed"
    dim: int = Field(default=384, ge=8, le=4096)
    base_url: str | None = None
    api_key: SecretStr | None = None
    model: str = "Qwen/Qwen3-Embedding-0.6B"
    local_path: str | None = None
    # how the local backend runs its model: ONNX Runtime (the faster on CPU, ADR 0042) or torch
    local_runtime: Literal["onnx", "torch"] = "onnx"
    # onnx runtime: auto: the batches (ingest) on bfloat16 weights run by torch when the CPU has
    # bfloat16 units and a probe batch gives the float model's vectors (to 0.999 in cosine), else
    # as none; questions always on the float model (ADR 0113). none: the model's weights as they
    # are. bf16: as auto's bfloat16 case, refused when the model cannot run in it (ADR 0112, 0113).
    # int8: dynamically quantised, less model CPU, vectors close to but not the model's own (ADR
    # 0058); int8-mixed: int8 with the feed-forward output projections in float, closer vectors for
    # less of the saving (ADR 0078)
    local_quantize: Literal["auto", "none", "int8", "int8-mixed", "bf16"] = "auto"
    # vectors of texts already embedded, kept per tenant so no text is embedded twice (0 = no cache)
    cache_entries: int = Field(default=50_000, ge=0, le=10_000_000)
    # an inner tree node's vector: its summary embedded, or the mean of its children's vectors (no
    # model call; ADR 0058); auto: summaries with hashed vectors, children with a model backend
    node_vectors: Literal["auto", "summary", "children"] = "auto"
    # a cell leaf's vector: its text embedded, or the mean of the vectors of the facts drawn from its
    # turns, weighted by their length (no model call; the cell waits for its session's facts): on the
    # LoCoMo dev set MiniLM ingest about 1.6x hashed instead of 2.2x, for 0.008 of recall@10 and 0.023
    # of multi-hop@10 (ADR 0105)
    cell_vectors: Literal["text", "facts"] = "text"
    concurrency: int = Field(default=16, ge=1, le=1024)
    batch_size: int = Field(default=64, ge=1, le=4096)
    timeout_s: float = Field(default=60.0, gt=0)
    max_attempts: int = Field(default=4, ge=1, le=20)

    @field_validator("backend")
    @classmethod
    def _known_backend(cls, v: str) -> str:
        if v not in {"hashed", "http", "local"}:
            raise ValueError("embedding backend must be one of: hashed, http, local")
        return v

    _api_key_is_a_header_value = field_validator("api_key")(_no_control_characters)


class PipelineSettings(BaseModel):
    """Write-path knobs."""

    cell_turns: int = Field(default=2, ge=1, le=64)
    fanout_session: int = Field(default=8, ge=2, le=16)
    fanout_entity: int = Field(default=8, ge=2, le=16)
    fanout_scene: int = Field(default=8, ge=2, le=16)
    extract_concurrency: int = Field(default=16, ge=1, le=4096)
    # The rule-based extractor runs in this many worker processes of its own (off the process's
    # GIL, ADR 0141); 0 runs it in the process's text threads.
    extract_processes: int = Field(default=1, ge=0, le=64)
    refresh_concurrency: int = Field(default=16, ge=1, le=4096)
    near_duplicate_threshold: float = Field(default=0.92, ge=0, le=1)
    entity_min_facts: int = Field(default=3, ge=1)
    entity_min_sessions: int = Field(default=2, ge=1)
    scene_assign_threshold: float = Field(default=0.22, ge=-1, le=1)
    summary_max_chars: int = Field(default=600, ge=80, le=20_000)
    extract_max_attempts: int = Field(default=3, ge=1, le=20)
    # Coalesced refresh (ADR 0013): an ingest job refreshes dirty nodes up to this level itself;
    # the levels above wait for one per-forest refresh job that runs once this many ingest commits
    # are pending or this many seconds after the first of them. 1 commit = every job refreshes all.
    refresh_eager_max_level: int = Field(default=1, ge=0, le=64)
    refresh_coalesce_commits: int = Field(default=16, ge=1, le=100_000)
    refresh_coalesce_delay_s: float = Field(default=5.0, ge=0, le=86_400)
    # Sessions of one forest commit in the order they were accepted (extraction still runs in
    # parallel): a job waits at most this long for older sessions' commits. 0 = commit at once.
    commit_order_wait_s: float = Field(default=30.0, ge=0, le=3_600)
    # Burst refresh (ADR 0025, opt-in): while a younger session of the forest is still to commit,
    # an ingest job refreshes only its leaves and hands them to a running refresh instead of waiting
    # for it. Fewer summary calls and earlier queryable sessions in a burst, but routing then sees
    # stale level-1 summaries, which costs LoCoMo recall; hence off by default.
    burst_refresh_handoff: bool = False


class RetrievalSettings(BaseModel):
    """Read-path defaults (a preset; benchmarks sweep these)."""

    top_trees: int = Field(default=10, ge=1, le=200)
    top_k: int = Field(default=10, ge=1, le=200)
    beam_width: int = Field(default=4, ge=1, le=64)
    # a forest with more facts gets its own HNSW indexes (built after a refresh, ADR 0024); until
    # they are built, and below this size, its vectors are scanned exactly
    exact_scan_max_rows: int = Field(default=5_000, ge=0)
    # candidates an HNSW search keeps: 128 holds the overlap with the exact top 60 (the fact budget of
    # a query for 20+ items; one for 10 reads 30) at >= 0.95 across index builds, where 100 fell
    # below it on some builds (ADR 0024). A query for fewer items
    # searches with its share of it, as it reads its share of the budgets (ADR 0034)
    hnsw_ef_search: int = Field(default=128, ge=1, le=1000)
    # ... but with no fewer candidates than this (nor more than hnsw_ef_search): at 96 the cell
    # leaves' graph of a 100K-fact forest kept >= 0.97 of its exact top 20 (a top-10 query's cell
    # budget) for three question sets, at 80 0.957-0.973 (ADR 0034). Set it to hnsw_ef_search or
    # more for every query to search with the whole list
    hnsw_ef_search_floor: int = Field(default=96, ge=1, le=1000)
    # maintenance_work_mem of a forest's index builds (a graph that fits builds several times faster)
    forest_index_build_memory: str = Field(default="256MB", pattern=r"^[1-9][0-9]*(kB|MB|GB)$")
    rrf_k: int = Field(default=60, ge=1)
    # corroboration's weight (ADR 0042): None derives it from the embedder, on with a real model
    # (local or http) and off (no statement) with the hashed vectors, where it measured no gain
    support_weight: float | None = Field(default=None, ge=0.0, le=1.0)
    # follow-on (ADR 0052): the rank given to the cell said right after the first item's turn; 0
    # turns it off (a deployment whose cells are notes or documents rather than conversation)
    follow_on_rank: int = Field(default=3, ge=0, le=200)
    # a temporal plan reads at most the newest this many facts of each (subject, attribute) slot, so one
    # subject with a long history of one kind of state cannot make a query slow (ADR 0091)
    temporal_slot_rows: int = Field(default=64, ge=1, le=100_000)


class APISettings(BaseModel):
    """HTTP surface."""

    host: str = "127.0.0.1"
    port: int = 8420
    max_body_bytes: int = 2_000_000
    max_turns_per_session: int = 5_000
    max_text_chars: int = 20_000
    max_top_k: int = 200
    metrics_key: SecretStr | None = None  # when set, /metrics wants "Authorization: Bearer <key>" (ADR 0010)


class WorkerSettings(BaseModel):
    """Job queue workers."""

    poll_interval_s: float = Field(default=0.5, gt=0)
    # jobs one worker runs at once (the server's in-process worker and `memforest worker`): each
    # ingest job is one session, so with 1 a server works through its users' sessions one by one.
    # Not given: the most the pool serves (derived_worker_concurrency), of which the worker runs as
    # many as the chat budget keeps busy, at least the default (worker_chat_budget, ADR 0099)
    concurrency: int = Field(default=WORKER_CONCURRENCY_DEFAULT, ge=1, le=WORKER_CONCURRENCY_MAX)
    # an ingest job done with its extraction and embedding calls gives its slot to the next
    # job while it waits for its forest's older sessions to commit, commits and refreshes its
    # lowest levels: at most `concurrency` such jobs more run at once (ADR 0027)
    commit_overlap: bool = True
    lease_s: float = Field(default=300.0, gt=0)
    max_attempts: int = Field(default=5, ge=1)
    # an idle long-running worker queues a refresh job for forests left with dirty nodes and no job
    # that would refresh them (the last refresh job failed, a crash between two statements)
    sweep_interval_s: float = Field(default=60.0, gt=0)
    # finished (succeeded or failed) jobs are deleted this long after they finished; a long-running
    # worker prunes every prune_interval_s (ADR 0019). Idempotency keys are honoured as long.
    job_retention_s: float = Field(default=7 * 86_400.0, gt=0)
    prune_interval_s: float = Field(default=3_600.0, gt=0)
    # a worker whose jobs have outgrown a table's planner statistics (the table at least doubled
    # since its last ANALYZE) analyzes it; it looks at most this often, after a job ends (ADR 0156)
    planner_stats_interval_s: float = Field(default=1.0, gt=0)


def derived_worker_concurrency(database: DatabaseSettings) -> int:
    """Jobs at once when ``worker.concurrency`` is not given: the most the pool serves, half the
    tenant pool (``database.pool_size + max_overflow``: each job, and the one committing behind it,
    may hold a connection), never fewer than the default. How many of them run is the chat budget's
    to say: the worker admits a job past the default only while the extraction calls its jobs ask for
    at once leave room in ``llm.concurrency`` (:func:`worker_chat_budget`, ADR 0099)."""
    served = (database.pool_size + database.max_overflow) // 2
    return min(WORKER_CONCURRENCY_MAX, max(WORKER_CONCURRENCY_DEFAULT, served))


def worker_chat_budget(settings: Settings) -> int | None:
    """The chat budget a worker admits its jobs against (``llm.concurrency``) where
    ``worker.concurrency`` was derived; None where it was given (exactly that many jobs run)."""
    return None if "concurrency" in settings.worker.model_fields_set else settings.llm.concurrency


class LimitSettings(BaseModel):
    """Per-tenant fairness (ADR 0019): defaults a tenant's own columns override (NULL = these).

    Each server process enforces them for the requests it serves; 0 switches a limit off."""

    rate_per_s: float = Field(default=50.0, ge=0)  # sustained requests per second per tenant
    burst: int = Field(default=100, ge=0)  # requests a tenant may make at once above the rate
    # concurrent requests per tenant: well under the tenant pool (database.pool_size + max_overflow,
    # shared with every other tenant and the in-process worker's jobs); Settings refuses more than half
    max_in_flight: int = Field(default=8, ge=0)
    key_cache_s: float = Field(default=10.0, ge=0)  # how long a key -> tenant limits lookup is reused
    unknown_key_cache_s: float = Field(default=30.0, ge=0)  # how long an unknown or revoked key is remembered
    # requests per second (and burst) per client address whose bearer key is not a known tenant key
    # or the admin key, charged before the key is looked up; 0 = no limit
    client_rate_per_s: float = Field(default=10.0, ge=0)
    client_burst: int = Field(default=100, ge=0)
    export_spool_memory_bytes: int = Field(default=4_000_000, ge=0)  # an export spools to disk beyond this
    # Quotas: what one tenant may hold, checked when a request would add to it (a tenant's own
    # columns override these; 0 = no cap). Queued jobs past the cap answer 429, the others 409.
    max_queued_jobs: int = Field(default=10_000, ge=0)  # jobs of the tenant waiting in the queue
    max_facts: int = Field(default=5_000_000, ge=0)  # facts stored by the tenant, all forests together
    max_forests: int = Field(default=1_000, ge=0)  # forests of the tenant
    # forests with more than retrieval.exact_scan_max_rows facts, which get indexes of their own (ADR
    # 0024); past it, another forest that outgrows the threshold is scanned and refuses more writes
    max_large_forests: int = Field(default=50, ge=0)
    # delivered and failed webhook deliveries are deleted this long after their last attempt, by a
    # long-running worker's periodic prune (worker.prune_interval_s)
    webhook_delivery_retention_s: float = Field(default=7 * 86_400.0, gt=0)


class WebhookSettings(BaseModel):
    """Webhook deliveries (ADR 0020): retried with exponential backoff for ``retry_for_s`` seconds."""

    allow_private: bool = False  # targets on private, loopback or link-local addresses (tests, trusted nets)
    timeout_s: float = Field(default=10.0, gt=0)  # each connect, write and read of an attempt
    deadline_s: float = Field(default=15.0, gt=0, le=60)  # a whole attempt (under the 120 s claim lease)
    response_cap_bytes: int = Field(default=4_096, ge=0, le=65_536)  # of a response body read; the rest is not
    ports: list[int] = Field(default=[80, 443])  # target ports allowed below min_port
    min_port: int = Field(default=1_024, ge=1, le=65_536)  # target ports from here up are allowed
    concurrency: int = Field(default=16, ge=1, le=256)  # attempts in flight in one process
    per_tenant: int = Field(default=4, ge=1)  # of those, the most one tenant's deliveries hold
    backoff_base_s: float = Field(default=2.0, gt=0)
    backoff_max_s: float = Field(default=600.0, gt=0)
    retry_for_s: float = Field(default=86_400.0, gt=0)
    poll_interval_s: float = Field(default=1.0, gt=0)
    batch: int = Field(default=20, ge=1, le=1_000)  # deliveries claimed by one query at most
    max_per_tenant: int = Field(default=20, ge=1)


class Settings(BaseSettings):
    """All configuration. Nested sections read ``MEMFOREST_<SECTION>__<FIELD>``.

    ``database_url`` (``MEMFOREST_DATABASE_URL``; unset means: start the embedded PostgreSQL under
    home) and ``admin_key`` (``MEMFOREST_ADMIN_KEY``) are top-level fields.
    """

    model_config = SettingsConfigDict(
        env_prefix="MEMFOREST_",
        env_nested_delimiter="__",
        extra="ignore",
        case_sensitive=False,
        hide_input_in_errors=True,  # a configuration error never echoes a key or a database URL
    )

    home: Path = Field(default_factory=_default_home)
    database_url: str | None = None
    admin_key: SecretStr | None = None
    default_tenant: str = "local"
    log_format: Literal["json", "text"] = "json"  # MEMFOREST_LOG_FORMAT for serve and worker (ADR 0010)
    database: DatabaseSettings = Field(default_factory=DatabaseSettings)
    llm: LLMSettings = Field(default_factory=LLMSettings)
    embedding: EmbeddingSettings = Field(default_factory=EmbeddingSettings)
    pipeline: PipelineSettings = Field(default_factory=PipelineSettings)
    retrieval: RetrievalSettings = Field(default_factory=RetrievalSettings)
    api: APISettings = Field(default_factory=APISettings)
    worker: WorkerSettings = Field(default_factory=WorkerSettings)
    webhooks: WebhookSettings = Field(default_factory=WebhookSettings)
    limits: LimitSettings = Field(default_factory=LimitSettings)
    # MEMFOREST_DATABASE_TENANT_URL: the login role tenant work connects as (a member of
    # memforest_app that cannot bypass row-level security); the embedded default makes its own (ADR 0018)
    database_tenant_url: str | None = None

    @model_validator(mode="after")
    def _jobs_the_pool_serves(self) -> Settings:
        return self._with_derived_jobs()

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """A copy; a derived ``worker.concurrency`` follows the copy's pool."""
        return super().model_copy(update=update, deep=deep)._with_derived_jobs()

    def _with_derived_jobs(self) -> Self:
        # worker.concurrency not given: as many jobs as the pool serves (derived_worker_concurrency;
        # the worker runs as many of them as the chat budget keeps busy, worker_chat_budget). The
        # result is a new WorkerSettings (a given instance stays the caller's, unchanged) whose
        # fields_set still lacks concurrency, so a copy with another pool derives it again
        worker = self.worker
        if "concurrency" not in worker.model_fields_set:
            jobs = derived_worker_concurrency(self.database)
            values = {**worker.__dict__, "concurrency": jobs}
            self.worker = WorkerSettings.model_construct(_fields_set=set(worker.model_fields_set), **values)
        return self

    @model_validator(mode="after")
    def _in_flight_under_the_pool(self) -> Settings:
        # one tenant's requests in flight may each hold a tenant pool connection: with more than
        # half the pool, one tenant could leave every other tenant (and the worker) waiting for one
        pool = self.database.pool_size + self.database.max_overflow
        if self.limits.max_in_flight > max(1, pool // 2):
            raise ValueError(
                f"limits.max_in_flight ({self.limits.max_in_flight}) must be at most half the tenant pool "
                f"(database.pool_size + database.max_overflow = {pool}): one tenant would hold most of it"
            )
        return self
