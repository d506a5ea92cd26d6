// Generated from the MemForest server's OpenAPI document by scripts/generate.mjs: do not edit.
// Regenerate with `npm run generate`; test/schema.test.mjs fails when it drifts from the server.

export interface paths {
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Healthz
         * @description Liveness: the process answers.
         */
        get: operations["healthz_healthz_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Metrics
         * @description Prometheus text format. With ``MEMFOREST_API__METRICS_KEY`` set, a bearer key; without it, for
         *     loopback callers only (a server reachable beyond loopback refuses to start without the key).
         */
        get: operations["get_metrics_metrics_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readyz
         * @description Readiness: database reachable, migrated to head, RLS in force, model servers (if any) answering.
         */
        get: operations["readyz_readyz_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/merge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Post Admin Merge
         * @description Queue a merge of a forest of one tenant into a forest of another (created when missing).
         */
        post: operations["post_admin_merge_v1_admin_merge_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/tenants/{tenant_id}/jobs/{job_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Admin Job
         * @description A job of any tenant (the admin polls the merges it queued).
         */
        get: operations["get_admin_job_v1_admin_tenants__tenant_id__jobs__job_id__get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/tenants/{tenant_id}/limits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Tenant Limits
         * @description A tenant's fairness limits: its overrides (null = the server's default) and those in force.
         */
        get: operations["get_tenant_limits_v1_admin_tenants__tenant_id__limits_get"];
        /**
         * Put Tenant Limits
         * @description Set a tenant's request rate, burst and concurrent requests (null = the default, 0 = none).
         */
        put: operations["put_tenant_limits_v1_admin_tenants__tenant_id__limits_put"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/tenants/{tenant_id}/quotas": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Tenant Quotas
         * @description A tenant's quotas: its overrides (null = the server's default) and those in force.
         */
        get: operations["get_tenant_quotas_v1_admin_tenants__tenant_id__quotas_get"];
        /**
         * Put Tenant Quotas
         * @description Set a tenant's caps on queued jobs, stored facts, forests and large forests (null = the
         *     default, 0 = no cap).
         */
        put: operations["put_tenant_quotas_v1_admin_tenants__tenant_id__quotas_put"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/forests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Forests
         * @description The tenant's forests.
         */
        get: operations["get_forests_v1_forests_get"];
        put?: never;
        /**
         * Post Forest
         * @description Create a forest (409 when the name is taken).
         */
        post: operations["post_forest_v1_forests_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/forests/{forest}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get One Forest
         * @description A forest with its counts.
         */
        get: operations["get_one_forest_v1_forests__forest__get"];
        put?: never;
        post?: never;
        /**
         * Delete Forest
         * @description Forget a forest: every session, fact, tree and job in it. Returns what was deleted.
         */
        delete: operations["delete_forest_v1_forests__forest__delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/forests/{forest}/entities": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Entities
         * @description The forest's entities that facts name, most facts first, cursor-paginated: `key`, `label`,
         *     `is_speaker`, `fact_count`, `session_count`, `first_time`, `last_time`.
         */
        get: operations["get_entities_v1_forests__forest__entities_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/forests/{forest}/entities/{entity}/timeline": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Entity Timeline
         * @description An entity (label or key) and its timeline: `chains`, one per attribute of the entity
         *     (`residence`, `employer`...) with its values in valid-time order, each `{fact_id, text, kind,
         *     value, valid_from, valid_to, status}` (superseded values included, retracted ones not), and
         *     `events`, the other facts naming it in time order.
         */
        get: operations["get_entity_timeline_v1_forests__forest__entities__entity__timeline_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/forests/{forest}/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Export
         * @description The forest as versioned JSON Lines (header line, then one record per line), streamed.
         */
        get: operations["get_export_v1_forests__forest__export_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/forests/{forest}/facts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Facts
         * @description Canonical facts of the forest in time order (`valid_from`, then id), cursor-paginated.
         *
         *     Response: `{"items": [fact...], "next_cursor": str | null}`. Each fact: `id` (string), `text`,
         *     `kind`, `status` (`current`, `superseded` or `retracted`), `entities` (labels), `topics`, `speaker`,
         *     `time_text`, `valid_from`, `valid_to`, `recorded_at`, `retracted_at` (ISO 8601 or null),
         *     `supersedes` and `superseded_by` (fact ids or null), `source_count`.
         *
         *     `valid_at` and `as_of` replace the supersession filter by the validity interval (a fact superseded
         *     later is listed for times it was valid); with both, `valid_at` is the valid time and `as_of` the
         *     knowledge time. `valid_from` / `valid_to` keep the facts whose validity interval overlaps that
         *     window (either end may be left open).
         */
        get: operations["get_facts_v1_forests__forest__facts_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/forests/{forest}/facts/{fact_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Fact
         * @description One fact (the fields of the listing) plus:
         *
         *     - `provenance`: its sources, oldest first, one per cell: `session_id` (external id), `session_time`,
         *       `cell_id`, `turn_ids` (the client's turn ids), `time`, `snippet` (the turns' text, shortened),
         *       `linked_at`.
         *     - `supersession_chain`: the facts linked by supersession, oldest first, this one included
         *       (`is_requested`): `id`, `text`, `valid_from`, `valid_to`, `recorded_at`, `retracted_at`.
         *     - `placements`: the trees holding it: `tree_id`, `tree_kind`, `tree_label`, `node_id` (its leaf).
         */
        get: operations["get_fact_v1_forests__forest__facts__fact_id__get"];
        put?: never;
        post?: never;
        /**
         * Delete Fact
         * @description Delete a fact: it leaves query, browse, listings and export, and its leaves leave every tree
         *     (rebalanced, touched paths refreshed). Its history (`.../history`) keeps a `deleted` event with
         *     the text, or, with `forget_text`, no text in any of its events. A second delete is a 404.
         */
        delete: operations["delete_fact_v1_forests__forest__facts__fact_id__delete"];
        options?: never;
        head?: never;
        /**
         * Patch Fact
         * @description Correct a fact: a new fact (kind `correction`, no source turns) with `text`, placed in the same
         *     trees, supersedes it from `valid_from` (default now); the old one stays, marked superseded.
         *     Answers the new fact. 409 when the fact is already superseded (correct the current one).
         */
        patch: operations["patch_fact_v1_forests__forest__facts__fact_id__patch"];
        trace?: never;
    };
    "/v1/forests/{forest}/facts/{fact_id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Fact History
         * @description Every event of the fact, oldest first, also after it was deleted: `extracted` (with its source
         *     sessions and turns), `created` (no source turns: a correction), `restated` (a later turn said it
         *     again), `sources_removed` (a retracted session or turn), `supersedes`, `superseded` /
         *     `corrected` (by `related_fact_id`), `restored` (its successor went), `deleted` (the tombstone
         *     keeps the text; `actor` names the API key). `status` is the fact now: `current`, `superseded`
         *     or `deleted`. Forgetting the forest removes its history too. 404 when no event of the fact is
         *     kept.
         */
        get: operations["get_fact_history_v1_forests__forest__facts__fact_id__history_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/forests/{forest}/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Post Import
         * @description Import an export (the request body) into ``forest`` through the merge path, as an ``import`` job.
         */
        post: operations["post_import_v1_forests__forest__import_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/forests/{forest}/merge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Post Merge
         * @description Queue a merge of forest ``from`` into ``forest`` (both of the caller's tenant; no extraction).
         */
        post: operations["post_merge_v1_forests__forest__merge_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/forests/{forest}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Post Messages
         * @description Accept chat messages (the OpenAI ``messages`` shape) as one session of the forest (created on
         *     the first write). A turn's speaker is the message's ``name``, else its role.
         */
        post: operations["post_messages_v1_forests__forest__messages_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/forests/{forest}/nodes/{node_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Node
         * @description One tree node and a page of its children in time order.
         *
         *     Response: `id`, `tree` {`id`, `kind`, `label`}, `level` (0 = leaf), `interval` {`start`, `end`},
         *     `parent_id` (string or null), `dirty`, `n_children`, `summary` (internal nodes; null until refreshed),
         *     `leaf` (leaves: {`kind`: `fact` or `cell`, `id`, `text`}), `children` (each: `id`, `level`,
         *     `interval`, `n_children`, `dirty`, `text` (summary or leaf text, shortened), `leaf` {`kind`, `id`}
         *     or null) and `children_next_cursor`.
         */
        get: operations["get_node_v1_forests__forest__nodes__node_id__get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/forests/{forest}/query": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Post Query
         * @description Time-stamped evidence for a question, best first (the same items as the CLI's JSON). ``filter``
         *     keeps only evidence from matching sources: session ``metadata`` (top-level keys equal),
         *     ``session_ids``, ``speakers`` (ANDed; a fact matches when one of its sources does).
         */
        post: operations["post_query_v1_forests__forest__query_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/forests/{forest}/rematerialize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Post Rematerialize
         * @description Queue a re-materialisation of the forest's derived artifacts (no extraction is replayed).
         */
        post: operations["post_rematerialize_v1_forests__forest__rematerialize_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/forests/{forest}/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Sessions
         * @description Sessions in the order they were accepted.
         */
        get: operations["get_sessions_v1_forests__forest__sessions_get"];
        put?: never;
        /**
         * Post Session
         * @description Accept one session into the forest (created on the first write); a worker processes it (poll the job).
         */
        post: operations["post_session_v1_forests__forest__sessions_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/forests/{forest}/sessions/{session_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Session
         * @description One session with its turns.
         */
        get: operations["get_session_v1_forests__forest__sessions__session_id__get"];
        put?: never;
        post?: never;
        /**
         * Delete Session
         * @description Retract a session: its turns, cells, the facts only it supports (with their leaves) and its
         *     session tree go; facts also stated elsewhere only lose it as a source. Returns the report.
         */
        delete: operations["delete_session_v1_forests__forest__sessions__session_id__delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/forests/{forest}/sessions/{session_id}/turns/{turn_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete Turn
         * @description Retract one turn (by its client id, or ``<session>#<seq>`` for a turn sent without one): the
         *     facts only it supports go, and the cell that held it is rewritten for its other turns.
         */
        delete: operations["delete_turn_v1_forests__forest__sessions__session_id__turns__turn_id__delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/forests/{forest}/trees": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Trees
         * @description The forest's MemTrees in creation order, cursor-paginated.
         *
         *     Response: `{"items": [tree...], "next_cursor": str | null}`. Each tree: `id`, `kind` (`session`,
         *     `entity` or `scene`), `label`, `key`, `root_node_id` (string or null), `height`, `n_leaves`,
         *     `fanout`, `created_at`.
         */
        get: operations["get_trees_v1_forests__forest__trees_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/jobs/{job_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get One Job
         * @description A job: state (queued, running, succeeded, failed), progress, errors, usage per stage.
         */
        get: operations["get_one_job_v1_jobs__job_id__get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/key": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Key
         * @description The calling tenant key's scopes; `can_write` when it may correct, delete and retract.
         */
        get: operations["get_key_v1_key_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/overview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Overview
         * @description Every forest of the tenant by name with `sessions`, `facts` (not retracted), `facts_current`,
         *     `trees` and `last_write` (the latest session accepted, fact recorded or retracted).
         */
        get: operations["get_overview_v1_overview_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/query": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Post Multi Query
         * @description One ranked list of evidence from several forests of the tenant (the options of the per-forest
         *     query); every item carries its ``forest``. 404 when a forest does not exist.
         */
        post: operations["post_multi_query_v1_query_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Tenants
         * @description All tenants.
         */
        get: operations["get_tenants_v1_tenants_get"];
        put?: never;
        /**
         * Post Tenant
         * @description Create a tenant.
         */
        post: operations["post_tenant_v1_tenants_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete Tenant
         * @description Forget a tenant and everything it owns (forests, keys, jobs). Returns what was deleted.
         */
        delete: operations["delete_tenant_v1_tenants__tenant_id__delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant_id}/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Keys
         * @description The tenant's keys (prefixes only).
         */
        get: operations["get_keys_v1_tenants__tenant_id__keys_get"];
        put?: never;
        /**
         * Post Key
         * @description Create an API key for the tenant; the key is shown only in this response.
         */
        post: operations["post_key_v1_tenants__tenant_id__keys_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant_id}/keys/{key_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete Key
         * @description Revoke a key.
         */
        delete: operations["delete_key_v1_tenants__tenant_id__keys__key_id__delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Webhooks
         * @description The tenant's webhooks (without secrets).
         */
        get: operations["get_webhooks_v1_webhooks_get"];
        put?: never;
        /**
         * Post Webhook
         * @description Register a URL for job events (`job.succeeded`, `job.failed`: the default) and changes to facts
         *     (`memory.changed`). The answer's `secret` (`whsec_<base64>`, shown only here) signs every delivery
         *     per Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256
         *     of "<id>.<timestamp>.<raw body>">` (docs/webhooks.md); the deprecated `MemForest-Signature` is sent
         *     too. Private or loopback targets are refused unless the server allows them.
         */
        post: operations["post_webhook_v1_webhooks_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhook_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete Webhook
         * @description Remove a webhook; its pending deliveries are dropped.
         */
        delete: operations["delete_webhook_v1_webhooks__webhook_id__delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhook_id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get Deliveries
         * @description The webhook's latest deliveries, newest first: `state` pending, delivered or failed (gave up),
         *     `attempts`, `last_status`, `last_error`, `next_attempt_at` (pending only).
         */
        get: operations["get_deliveries_v1_webhooks__webhook_id__deliveries_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * AdminMergeAccepted
         * @description ``POST /v1/admin/merge``: a ``merge`` job of the receiving tenant.
         */
        AdminMergeAccepted: {
            /** Forest */
            forest: string;
            /** Job Id */
            job_id: string;
            /** Kind */
            kind: string;
            /** Tenant */
            tenant: string;
        };
        /**
         * AdminMergeIn
         * @description A merge across tenants (admin key only).
         */
        AdminMergeIn: {
            /** From Forest */
            from_forest: string;
            /**
             * From Tenant
             * Format: uuid
             */
            from_tenant: string;
            /** Into Forest */
            into_forest: string;
            /**
             * Into Tenant
             * Format: uuid
             */
            into_tenant: string;
        };
        /**
         * ApiKey
         * @description A tenant API key.
         *
         *     ``POST .../keys`` answers ``id``, ``key`` (the secret, shown only there) and ``scopes``; the listing
         *     answers ``id``, ``prefix``, ``scopes``, ``created_at`` and ``revoked_at``.
         */
        ApiKey: {
            /**
             * Created At
             * @description Only in the listing.
             */
            created_at?: string | null;
            /** Id */
            id: string;
            /**
             * Key
             * @description The secret; only in the answer to POST .../keys.
             */
            key?: string | null;
            /**
             * Prefix
             * @description The key's first characters; only in the listing.
             */
            prefix?: string | null;
            /**
             * Revoked At
             * @description Only in the listing; null while valid.
             */
            revoked_at?: string | null;
            /** Scopes */
            scopes: string[];
        };
        /**
         * ChainLink
         * @description A fact of a supersession chain (oldest first); ``is_requested`` marks the fact asked for.
         */
        ChainLink: {
            /** Id */
            id: string;
            /** Is Requested */
            is_requested: boolean;
            /**
             * Recorded At
             * Format: date-time
             */
            recorded_at: string;
            /** Retracted At */
            retracted_at: string | null;
            /** Text */
            text: string;
            /**
             * Valid From
             * Format: date-time
             */
            valid_from: string;
            /** Valid To */
            valid_to: string | null;
        };
        /**
         * ContentPart
         * @description One part of an OpenAI multi-part content. Text parts carry memory; image, audio, file and
         *     refusal parts are dropped (their payloads are not read).
         */
        ContentPart: {
            /** Text */
            text?: string | null;
            /** Type */
            type: string;
        };
        /**
         * EffectiveLimits
         * @description The limits in force (0 = none).
         */
        EffectiveLimits: {
            /** Burst */
            burst: number;
            /** Max In Flight */
            max_in_flight: number;
            /** Rate Per S */
            rate_per_s: number;
        };
        /**
         * EffectiveQuotas
         * @description The quotas in force (0 = no cap).
         */
        EffectiveQuotas: {
            /** Max Facts */
            max_facts: number;
            /** Max Forests */
            max_forests: number;
            /** Max Large Forests */
            max_large_forests: number;
            /** Max Queued Jobs */
            max_queued_jobs: number;
        };
        /**
         * EntitySummary
         * @description An entity of a forest (a person, place, thing facts name).
         */
        EntitySummary: {
            /** Fact Count */
            fact_count: number;
            /** First Time */
            first_time: string | null;
            /** Is Speaker */
            is_speaker: boolean;
            /** Key */
            key: string;
            /** Label */
            label: string;
            /** Last Time */
            last_time: string | null;
            /** Session Count */
            session_count: number;
        };
        /**
         * EntityTimeline
         * @description An entity, its state chains and the other facts naming it (``events``, in time order).
         */
        EntityTimeline: {
            /** Chains */
            chains: components["schemas"]["StateChain"][];
            entity: components["schemas"]["EntitySummary"];
            /** Events */
            events: components["schemas"]["StateValue"][];
        };
        /**
         * EvidenceItem
         * @description One evidence item of a query, best first by ``rank``.
         */
        EvidenceItem: {
            /**
             * Fact Id
             * @description The fact's id (facts only): PATCH or DELETE it.
             */
            fact_id?: string | null;
            /**
             * Forest
             * @description The forest it came from (POST /v1/query only).
             */
            forest?: string | null;
            /**
             * Kind
             * @description fact or cell
             */
            kind: string;
            /**
             * Other Turns
             * @description A fact restated in several turns cites those in the question's time window (else the latest); how many of its other source turns are not cited (present only when not 0).
             * @default 0
             */
            other_turns: number;
            /** Rank */
            rank: number;
            /** Score */
            score: number;
            /** Session Id */
            session_id: string | null;
            /**
             * Superseded
             * @description Superseded by a newer value (with include_superseded).
             * @default false
             */
            superseded: boolean;
            /**
             * Temporal Role
             * @description For a temporal question: answer (the state asked for), earlier or later (its neighbours).
             */
            temporal_role?: string | null;
            /** Text */
            text: string;
            /**
             * Time
             * Format: date-time
             */
            time: string;
            /**
             * Tree
             * @description The tree that led to it, as kind:label.
             */
            tree: string;
            /** Turn Ids */
            turn_ids: string[];
            /** Valid From */
            valid_from: string | null;
            /** Valid To */
            valid_to: string | null;
        };
        /**
         * Fact
         * @description A canonical fact. ``status`` is current, superseded or retracted.
         *
         *     ``GET .../facts/{fact_id}`` also answers ``provenance`` (its sources), ``supersession_chain``
         *     (oldest first) and ``placements`` (the trees and leaves holding it); the listing does not.
         */
        Fact: {
            /**
             * Entities
             * @default []
             */
            entities: string[];
            /** Id */
            id: string;
            /** Kind */
            kind: string;
            /**
             * Placements
             * @description Only in GET .../facts/{fact_id}.
             * @default []
             */
            placements: components["schemas"]["Placement"][];
            /**
             * Provenance
             * @description Only in GET .../facts/{fact_id}.
             * @default []
             */
            provenance: components["schemas"]["Provenance"][];
            /** Recorded At */
            recorded_at?: string | null;
            /** Retracted At */
            retracted_at?: string | null;
            /**
             * Source Count
             * @default 1
             */
            source_count: number;
            /** Speaker */
            speaker?: string | null;
            /**
             * Status
             * @default current
             */
            status: string;
            /** Superseded By */
            superseded_by?: string | null;
            /** Supersedes */
            supersedes?: string | null;
            /**
             * Supersession Chain
             * @description Only in GET .../facts/{fact_id}.
             * @default []
             */
            supersession_chain: components["schemas"]["ChainLink"][];
            /** Text */
            text: string;
            /** Time Text */
            time_text?: string | null;
            /**
             * Topics
             * @default []
             */
            topics: string[];
            /** Valid From */
            valid_from: string | null;
            /** Valid To */
            valid_to?: string | null;
        };
        /**
         * FactCorrectionIn
         * @description ``PATCH /v1/forests/{forest}/facts/{fact_id}``: the corrected text; ``valid_from`` defaults to now.
         */
        FactCorrectionIn: {
            /** Text */
            text: string;
            /** Valid From */
            valid_from?: string | null;
        };
        /**
         * FactDeleted
         * @description What ``DELETE /v1/forests/{forest}/facts/{fact_id}`` removed.
         */
        FactDeleted: {
            /** Fact Id */
            fact_id: string;
            /**
             * Facts Restored
             * @description Facts it superseded that are current again.
             */
            facts_restored: number;
            /** Forest */
            forest: string;
            /** Leaves Removed */
            leaves_removed: number;
            /** Nodes Refreshed */
            nodes_refreshed: number;
            /** Rebalance */
            rebalance?: {
                [key: string]: number;
            };
            /** Trees Removed */
            trees_removed: number;
        };
        /**
         * FactEvent
         * @description One event of a fact.
         */
        FactEvent: {
            /**
             * Actor
             * @description Who made the change: `key:<API key id>`; null for the worker.
             */
            actor?: string | null;
            /**
             * At
             * Format: date-time
             * @description When the change was made (its transaction's start).
             */
            at: string;
            /**
             * Event
             * @description extracted: stored by the write path from its source turns; created: stored without source turns (a client's correction, an import); restated: a later turn said it again (sources added); sources_removed: source turns went (a retracted session or turn, or the fact's deletion); supersedes: it replaced related_fact_id; superseded / corrected: related_fact_id (a newer value / a client's correction) replaced it; restored: current again (its successor went); deleted: removed from the forest (text kept as a tombstone unless forgotten: text_dropped).
             * @enum {string}
             */
            event: "extracted" | "created" | "restated" | "sources_removed" | "supersedes" | "superseded" | "corrected" | "restored" | "deleted";
            /**
             * Kind
             * @description The fact's kind.
             */
            kind?: string | null;
            /**
             * Related Fact Id
             * @description The other fact of a supersession.
             */
            related_fact_id?: string | null;
            /**
             * Related Text
             * @description That fact's text, while it is stored.
             */
            related_text?: string | null;
            /**
             * Sessions
             * @description Session ids of the turns added or removed.
             */
            sessions?: string[];
            /**
             * Text
             * @description The fact's text (extracted, created and deleted events).
             */
            text?: string | null;
            /**
             * Text Dropped
             * @description The fact was deleted with forget_text: its text is not kept.
             * @default false
             */
            text_dropped: boolean;
            /**
             * Turn Ids
             * @description The client's ids of those turns.
             */
            turn_ids?: string[];
            /** Valid From */
            valid_from?: string | null;
            /** Valid To */
            valid_to?: string | null;
        };
        /**
         * FactHistory
         * @description Every event of one fact, oldest first.
         */
        FactHistory: {
            /** Events */
            events: components["schemas"]["FactEvent"][];
            /** Fact Id */
            fact_id: string;
            /** Forest */
            forest: string;
            /**
             * Status
             * @description The fact now.
             * @enum {string}
             */
            status: "current" | "superseded" | "deleted";
            /**
             * Truncated
             * @description True when only the oldest events are listed.
             * @default false
             */
            truncated: boolean;
        };
        /**
         * FactKind
         * @description What sort of statement a candidate/fact is.
         * @enum {string}
         */
        FactKind: "event" | "state" | "preference" | "plan" | "relation" | "opinion" | "other";
        /**
         * FilteredQueryIn
         * @description ``POST /v1/forests/{forest}/query`` with an optional ``filter``.
         */
        FilteredQueryIn: {
            /** As Of */
            as_of?: string | null;
            filter?: components["schemas"]["QueryFilter"] | null;
            /**
             * Include Superseded
             * @default false
             */
            include_superseded: boolean;
            /**
             * Mode
             * @default emb
             */
            mode: string;
            /**
             * Now
             * @description When the question is asked: "two years ago" counts back from it (default: now).
             */
            now?: string | null;
            /** Query */
            query: string;
            /** Scope */
            scope?: string[] | null;
            /**
             * Speaker
             * @description Who asks: whom the question's "I" and "my" name (default: the forest's user-role speaker).
             */
            speaker?: string | null;
            /** Time From */
            time_from?: string | null;
            /** Time To */
            time_to?: string | null;
            /** Token Budget */
            token_budget?: number | null;
            /** Top K */
            top_k?: number | null;
        };
        /**
         * Forest
         * @description A forest; ``counts`` (sessions, turns, facts, trees, nodes, ...) only in ``GET /v1/forests/{forest}``.
         */
        Forest: {
            /**
             * Counts
             * @description Only in GET /v1/forests/{forest}.
             */
            counts?: {
                [key: string]: unknown;
            } | null;
            /** Name */
            name: string;
        };
        /**
         * ForestDeleted
         * @description What ``DELETE /v1/forests/{forest}`` removed: rows deleted per table.
         */
        ForestDeleted: {
            /** Deleted */
            deleted: {
                [key: string]: number;
            };
            /** Name */
            name: string;
        };
        /**
         * ForestIn
         * @description ``POST /v1/forests``.
         */
        ForestIn: {
            /** Name */
            name: string;
        };
        /**
         * ForestOverview
         * @description A forest with its counts and the time of its last write.
         */
        ForestOverview: {
            /**
             * Facts
             * @description Facts not retracted, superseded ones included.
             */
            facts: number;
            /**
             * Facts Current
             * @description Facts neither superseded nor retracted.
             */
            facts_current: number;
            /**
             * Last Write
             * Format: date-time
             * @description The latest session accepted, fact recorded or retracted.
             */
            last_write: string;
            /** Name */
            name: string;
            /** Sessions */
            sessions: number;
            /** Trees */
            trees: number;
        };
        /**
         * ForestOverviewList
         * @description Every forest of the tenant, by name.
         */
        ForestOverviewList: {
            /** Items */
            items: components["schemas"]["ForestOverview"][];
        };
        /**
         * FunctionCall
         * @description The function an assistant message calls (OpenAI's ``function`` of a tool call).
         */
        FunctionCall: {
            /** Arguments */
            arguments?: string | null;
            /** Name */
            name?: string | null;
        };
        /**
         * Health
         * @description ``GET /healthz``.
         */
        Health: {
            /** Status */
            status: string;
        };
        /**
         * ImportAccepted
         * @description ``POST /v1/forests/{forest}/import``: an ``import`` job; ``records`` counted per kind.
         */
        ImportAccepted: {
            /**
             * Derived
             * @description reused (vectors taken from the export) or rebuilt
             */
            derived: string;
            /** Forest */
            forest: string;
            /** Job Id */
            job_id: string;
            /** Kind */
            kind: string;
            /** Records */
            records: {
                [key: string]: number;
            };
        };
        /**
         * Interval
         * @description The time span a node covers.
         */
        Interval: {
            /** End */
            end: string | null;
            /** Start */
            start: string | null;
        };
        /**
         * Job
         * @description A queued job: ``state`` is queued, running, succeeded or failed.
         *
         *     ``GET /v1/jobs/{job_id}`` answers every field; the admin's ``GET /v1/admin/tenants/{t}/jobs/{j}``
         *     leaves out ``forest``, ``created_at``, ``started_at`` and ``finished_at``.
         */
        Job: {
            /**
             * Attempts
             * @default 0
             */
            attempts: number;
            /** Created At */
            created_at?: string | null;
            /** Errors */
            errors?: unknown[] | null;
            /** Finished At */
            finished_at?: string | null;
            /** Forest */
            forest?: string | null;
            /** Job Id */
            job_id: string;
            /**
             * Kept
             * @description POST .../messages?wait=: the messages kept as turns.
             */
            kept?: number | null;
            /** Kind */
            kind: string;
            /** Progress */
            progress?: {
                [key: string]: unknown;
            } | null;
            /** Result */
            result?: {
                [key: string]: unknown;
            } | null;
            /**
             * Skipped
             * @description POST .../messages?wait=: the messages skipped, per reason.
             */
            skipped?: {
                [key: string]: number;
            } | null;
            /** Started At */
            started_at?: string | null;
            /** State */
            state: string;
            /** Usage */
            usage?: {
                [key: string]: unknown;
            } | null;
        };
        /**
         * KeyIn
         * @description ``POST /v1/tenants/{tenant_id}/keys``.
         */
        KeyIn: {
            /** Scopes */
            scopes?: string[];
        };
        /**
         * KeyInfo
         * @description What the calling key may do.
         */
        KeyInfo: {
            /** Can Write */
            can_write: boolean;
            /** Scopes */
            scopes: string[];
        };
        /**
         * Leaf
         * @description A leaf's source with its text.
         */
        Leaf: {
            /** Id */
            id: string;
            /**
             * Kind
             * @description fact or cell
             */
            kind: string;
            /** Text */
            text: string | null;
        };
        /**
         * LeafRef
         * @description What a leaf points at: a fact or a cell.
         */
        LeafRef: {
            /** Id */
            id: string;
            /**
             * Kind
             * @description fact or cell
             */
            kind: string;
        };
        /**
         * LimitsIn
         * @description ``PUT /v1/admin/tenants/{tenant_id}/limits``: a field left out or null is the server's default; 0 = no limit.
         */
        LimitsIn: {
            /** Burst */
            burst?: number | null;
            /** Max In Flight */
            max_in_flight?: number | null;
            /** Rate Per S */
            rate_per_s?: number | null;
        };
        /**
         * MergeAccepted
         * @description ``POST /v1/forests/{forest}/merge``: a ``merge`` job.
         */
        MergeAccepted: {
            /** Forest */
            forest: string;
            /** From */
            from: string;
            /** Job Id */
            job_id: string;
            /** Kind */
            kind: string;
        };
        /**
         * MergeIn
         * @description Merge forest ``from`` (same tenant) into the forest of the path.
         */
        MergeIn: {
            /**
             * From
             * @description The forest to merge (unchanged).
             */
            from: string;
            /**
             * From Tenant
             * @description Not allowed with a tenant key (403).
             */
            from_tenant?: string | null;
        };
        /**
         * Message
         * @description One chat message in the OpenAI shape, as the OpenAI SDK and agent frameworks send it.
         *
         *     Every field of that shape is accepted (an unknown one is a 422); what becomes a turn is
         *     :meth:`MessagesIn.transcript`'s rule.
         */
        Message: {
            /** Annotations */
            annotations?: unknown[] | null;
            /** Audio */
            audio?: {
                [key: string]: unknown;
            } | null;
            /**
             * Content
             * @description Text, or a list of parts whose text parts are joined; null with tool_calls.
             */
            content?: string | components["schemas"]["ContentPart"][] | null;
            /** @description The older single tool call. */
            function_call?: components["schemas"]["FunctionCall"] | null;
            /**
             * Name
             * @description The speaker, or the tool's name.
             */
            name?: string | null;
            /** Refusal */
            refusal?: string | null;
            /**
             * Role
             * @enum {string}
             */
            role: "user" | "assistant" | "system" | "developer" | "tool" | "function";
            /**
             * Tool Call Id
             * @description The call a tool message answers.
             */
            tool_call_id?: string | null;
            /** Tool Calls */
            tool_calls?: components["schemas"]["ToolCall"][] | null;
        };
        /**
         * MessagesIn
         * @description ``POST /v1/forests/{forest}/messages``: only ``messages`` is required.
         */
        MessagesIn: {
            /** Messages */
            messages: components["schemas"]["Message"][];
            /** Metadata */
            metadata?: {
                [key: string]: unknown;
            };
            /**
             * Session Id
             * @description Default: a new id per request.
             */
            session_id?: string | null;
            /**
             * Time
             * @description When the exchange took place; default now.
             */
            time?: string | null;
        };
        /**
         * MultiQueryIn
         * @description ``POST /v1/query``: the same options over several forests of the tenant, one ranked list.
         */
        MultiQueryIn: {
            /** As Of */
            as_of?: string | null;
            filter?: components["schemas"]["QueryFilter"] | null;
            /** Forests */
            forests: string[];
            /**
             * Include Superseded
             * @default false
             */
            include_superseded: boolean;
            /**
             * Mode
             * @default emb
             */
            mode: string;
            /**
             * Now
             * @description When the question is asked: "two years ago" counts back from it (default: now).
             */
            now?: string | null;
            /** Query */
            query: string;
            /** Scope */
            scope?: string[] | null;
            /**
             * Speaker
             * @description Who asks: whom the question's "I" and "my" name (default: the forest's user-role speaker).
             */
            speaker?: string | null;
            /** Time From */
            time_from?: string | null;
            /** Time To */
            time_to?: string | null;
            /** Token Budget */
            token_budget?: number | null;
            /** Top K */
            top_k?: number | null;
        };
        /**
         * Node
         * @description A MemTree node with a page of its children (time order).
         *
         *     Level 0 is a leaf (``leaf``: fact or cell with its text); internal nodes have a ``summary`` (None
         *     until refreshed) over the interval ``start``..``end``.
         */
        Node: {
            /**
             * Children
             * @default []
             */
            children: components["schemas"]["NodeChild"][];
            /** Children Next Cursor */
            children_next_cursor?: string | null;
            /**
             * Dirty
             * @default false
             */
            dirty: boolean;
            /** Id */
            id: string;
            interval: components["schemas"]["Interval"];
            leaf?: components["schemas"]["Leaf"] | null;
            /** Level */
            level: number;
            /**
             * N Children
             * @default 0
             */
            n_children: number;
            /** Parent Id */
            parent_id?: string | null;
            /** Summary */
            summary?: string | null;
            tree: components["schemas"]["NodeTree"];
        };
        /**
         * NodeChild
         * @description A child as listed under its node: ``text`` is its summary or leaf text (shortened).
         */
        NodeChild: {
            /**
             * Dirty
             * @default false
             */
            dirty: boolean;
            /** Id */
            id: string;
            interval: components["schemas"]["Interval"];
            leaf?: components["schemas"]["LeafRef"] | null;
            /** Level */
            level: number;
            /**
             * N Children
             * @default 0
             */
            n_children: number;
            /** Text */
            text?: string | null;
        };
        /**
         * NodeTree
         * @description The tree a node belongs to.
         */
        NodeTree: {
            /** Id */
            id: string;
            /** Kind */
            kind: string;
            /** Label */
            label: string;
        };
        /** Page[ApiKey] */
        Page_ApiKey_: {
            /** Items */
            items: components["schemas"]["ApiKey"][];
            /** Next Cursor */
            next_cursor?: string | null;
        };
        /** Page[EntitySummary] */
        Page_EntitySummary_: {
            /** Items */
            items: components["schemas"]["EntitySummary"][];
            /** Next Cursor */
            next_cursor?: string | null;
        };
        /** Page[Fact] */
        Page_Fact_: {
            /** Items */
            items: components["schemas"]["Fact"][];
            /** Next Cursor */
            next_cursor?: string | null;
        };
        /** Page[Forest] */
        Page_Forest_: {
            /** Items */
            items: components["schemas"]["Forest"][];
            /** Next Cursor */
            next_cursor?: string | null;
        };
        /** Page[SessionSummary] */
        Page_SessionSummary_: {
            /** Items */
            items: components["schemas"]["SessionSummary"][];
            /** Next Cursor */
            next_cursor?: string | null;
        };
        /** Page[Tenant] */
        Page_Tenant_: {
            /** Items */
            items: components["schemas"]["Tenant"][];
            /** Next Cursor */
            next_cursor?: string | null;
        };
        /** Page[Tree] */
        Page_Tree_: {
            /** Items */
            items: components["schemas"]["Tree"][];
            /** Next Cursor */
            next_cursor?: string | null;
        };
        /** Page[Webhook] */
        Page_Webhook_: {
            /** Items */
            items: components["schemas"]["Webhook"][];
            /** Next Cursor */
            next_cursor?: string | null;
        };
        /** Page[WebhookDelivery] */
        Page_WebhookDelivery_: {
            /** Items */
            items: components["schemas"]["WebhookDelivery"][];
            /** Next Cursor */
            next_cursor?: string | null;
        };
        /**
         * Placement
         * @description A tree holding a fact, and the fact's leaf in it.
         */
        Placement: {
            /** Node Id */
            node_id: string;
            /** Tree Id */
            tree_id: string;
            /** Tree Kind */
            tree_kind: string;
            /** Tree Label */
            tree_label: string;
        };
        /**
         * Provenance
         * @description One source of a fact (one cell): the session, the client's turn ids, a snippet of the turns.
         */
        Provenance: {
            /** Cell Id */
            cell_id: string;
            /**
             * Linked At
             * Format: date-time
             */
            linked_at: string;
            /** Session Id */
            session_id: string;
            /**
             * Session Time
             * Format: date-time
             */
            session_time: string;
            /** Snippet */
            snippet: string;
            /**
             * Time
             * Format: date-time
             */
            time: string;
            /** Turn Ids */
            turn_ids: string[];
        };
        /**
         * QueryFilter
         * @description Which sources evidence may come from; every given part must hold (AND).
         */
        QueryFilter: {
            /**
             * Metadata
             * @description Session metadata: top-level keys equal to these values.
             */
            metadata?: {
                [key: string]: unknown;
            } | null;
            /**
             * Session Ids
             * @description Client session ids.
             */
            session_ids?: string[] | null;
            /**
             * Speakers
             * @description Speaker names of the turns.
             */
            speakers?: string[] | null;
        };
        /**
         * QueryResult
         * @description The answer to a query. ``raw`` is the server's JSON as is (what ``memforest query --json`` prints).
         */
        QueryResult: {
            /**
             * Context
             * @default
             */
            context: string;
            /** Evidence */
            evidence: components["schemas"]["EvidenceItem"][];
            /** Fallback */
            fallback?: string | null;
            /** Forest */
            forest: string;
            /**
             * Forests
             * @description The forests asked (POST /v1/query only).
             */
            forests?: string[] | null;
            /** Llm Calls */
            llm_calls?: {
                [key: string]: number;
            };
            /** Mode */
            mode: string;
            /** Mode Used */
            mode_used: string;
            /** Question */
            question: string;
            /** Strategy */
            strategy?: string | null;
            /**
             * Temporal
             * @description The temporal plan's reading of the question (operator, attribute, subject).
             */
            temporal?: string | null;
            /** Time Cues */
            time_cues?: string | null;
            /** Timings Ms */
            timings_ms?: {
                [key: string]: number;
            };
            /**
             * Trees
             * @default []
             */
            trees: components["schemas"]["TreeHit"][];
        };
        /**
         * QuotasIn
         * @description ``PUT /v1/admin/tenants/{tenant_id}/quotas``: a field left out or null is the server's default; 0 = no cap.
         */
        QuotasIn: {
            /** Max Facts */
            max_facts?: number | null;
            /** Max Forests */
            max_forests?: number | null;
            /** Max Large Forests */
            max_large_forests?: number | null;
            /** Max Queued Jobs */
            max_queued_jobs?: number | null;
        };
        /**
         * Readiness
         * @description ``GET /readyz`` (200): ``checks`` per dependency (database, migrations, models, backends).
         */
        Readiness: {
            /** Checks */
            checks: {
                [key: string]: unknown;
            };
            /** Status */
            status: string;
        };
        /**
         * RematAccepted
         * @description ``POST /v1/forests/{forest}/rematerialize``: a ``rematerialize`` job.
         */
        RematAccepted: {
            /** Forest */
            forest: string;
            /** Job Id */
            job_id: string;
            /** Kind */
            kind: string;
        };
        /**
         * RematIn
         * @description What to regenerate. At least one action; ``k`` only with ``rebuild_trees``.
         */
        RematIn: {
            /**
             * Embeddings
             * @description Recompute fact, node and centroid embeddings.
             * @default false
             */
            embeddings: boolean;
            /**
             * K
             * @description Fan-out of the rebuilt trees (default: settings).
             */
            k?: number | null;
            /**
             * Rebuild Trees
             * @description Drop and rebuild every tree from facts and cells.
             * @default false
             */
            rebuild_trees: boolean;
            /**
             * Summaries
             * @description Regenerate every internal-node summary.
             * @default false
             */
            summaries: boolean;
        };
        /**
         * RetractReport
         * @description What one retract (``DELETE`` a session or a turn) removed, detached and refreshed.
         */
        RetractReport: {
            /** Cells */
            cells: number;
            /**
             * Cells Rewritten
             * @description Cells re-created for the remaining turns of a partly retracted cell.
             */
            cells_rewritten: number;
            /** Entities Removed */
            entities_removed: number;
            /**
             * Facts Detached
             * @description Facts that lost a source but kept others.
             */
            facts_detached: number;
            /** Facts Removed */
            facts_removed: number;
            /**
             * Facts Restored
             * @description Facts superseded only by a removed fact: current again.
             */
            facts_restored: number;
            /** Forest */
            forest: string;
            /** Leaves Removed */
            leaves_removed: number;
            /** Model Calls */
            model_calls: number;
            /**
             * Model Usage
             * @description Model usage per stage.
             */
            model_usage: {
                [key: string]: {
                    [key: string]: number;
                };
            };
            /** Nodes Refreshed */
            nodes_refreshed: number;
            /**
             * Rebalance
             * @description Tree rebalancing: leaves, borrows, merges, collapses, ...
             */
            rebalance: {
                [key: string]: number;
            };
            /** Scenes Removed */
            scenes_removed: number;
            /** Session */
            session: string;
            /**
             * Sessions
             * @description Session rows removed (a turn retract removes its session with its last turn).
             */
            sessions: number;
            /** Summaries Changed */
            summaries_changed: number;
            /** Summary Calls */
            summary_calls: number;
            /** Trees Removed */
            trees_removed: number;
            /** Turn */
            turn?: string | null;
            /** Turns */
            turns: number;
            wall_s: components["schemas"]["WallSeconds"];
        };
        /**
         * Session
         * @description A stored session with its turns.
         */
        Session: {
            /** Created At */
            created_at?: string | null;
            /** Metadata */
            metadata?: {
                [key: string]: unknown;
            };
            /** Session Id */
            session_id: string;
            /**
             * Time
             * Format: date-time
             */
            time: string;
            /**
             * Turns
             * @default []
             */
            turns: components["schemas"]["Turn"][];
        };
        /**
         * SessionAccepted
         * @description The answer to ``POST .../sessions``: the job that processes it (None when nothing new was accepted).
         */
        SessionAccepted: {
            /** Created */
            created: boolean;
            /** Job Id */
            job_id: string | null;
            /**
             * Kept
             * @description POST .../messages: the messages kept as turns.
             */
            kept?: number | null;
            /** Session Id */
            session_id: string;
            /**
             * Skipped
             * @description POST .../messages: the messages skipped, per reason (docs/agents.md).
             */
            skipped?: {
                [key: string]: number;
            } | null;
        };
        /**
         * SessionSummary
         * @description A session as listed (no turns).
         */
        SessionSummary: {
            /** Created At */
            created_at?: string | null;
            /** Session Id */
            session_id: string;
            /**
             * Time
             * Format: date-time
             */
            time: string;
            /** Turns */
            turns: number;
        };
        /**
         * StateChain
         * @description The values an entity's attribute took, in valid-time order.
         */
        StateChain: {
            /** Attribute */
            attribute: string;
            /** States */
            states: components["schemas"]["StateValue"][];
        };
        /**
         * StateValue
         * @description One value of a state chain (or one event), valid over ``[valid_from, valid_to)``.
         */
        StateValue: {
            /** Fact Id */
            fact_id: string;
            /** Kind */
            kind: string;
            /**
             * Status
             * @description current or superseded
             */
            status: string;
            /** Text */
            text: string;
            /**
             * Valid From
             * Format: date-time
             */
            valid_from: string;
            /** Valid To */
            valid_to: string | null;
            /** Value */
            value: string | null;
        };
        /**
         * Tenant
         * @description A tenant. ``POST /v1/tenants`` answers ``id`` and ``name`` only; the listing adds ``created_at``.
         */
        Tenant: {
            /**
             * Created At
             * @description Absent in the answer to POST /v1/tenants.
             */
            created_at?: string | null;
            /** Id */
            id: string;
            /** Name */
            name: string;
        };
        /**
         * TenantDeleted
         * @description What ``DELETE /v1/tenants/{tenant_id}`` removed: rows deleted per table.
         */
        TenantDeleted: {
            /** Deleted */
            deleted: {
                [key: string]: number;
            };
            /** Id */
            id: string;
        };
        /**
         * TenantIn
         * @description ``POST /v1/tenants``.
         */
        TenantIn: {
            /** Name */
            name: string;
        };
        /**
         * TenantLimits
         * @description A tenant's stored overrides (null = the server's default) and the limits in force.
         */
        TenantLimits: {
            /** Burst */
            burst?: number | null;
            effective: components["schemas"]["EffectiveLimits"];
            /** Max In Flight */
            max_in_flight?: number | null;
            /** Rate Per S */
            rate_per_s?: number | null;
            /** Tenant */
            tenant: string;
        };
        /**
         * TenantQuotas
         * @description A tenant's stored quota overrides (null = the server's default) and the quotas in force.
         */
        TenantQuotas: {
            effective: components["schemas"]["EffectiveQuotas"];
            /** Max Facts */
            max_facts?: number | null;
            /** Max Forests */
            max_forests?: number | null;
            /** Max Large Forests */
            max_large_forests?: number | null;
            /** Max Queued Jobs */
            max_queued_jobs?: number | null;
            /** Tenant */
            tenant: string;
        };
        /**
         * ToolCall
         * @description One tool call of an assistant message; its id links the ``tool`` message that answers it.
         */
        ToolCall: {
            function?: components["schemas"]["FunctionCall"] | null;
            /** Id */
            id?: string | null;
            /**
             * Type
             * @default function
             */
            type: string;
        };
        /**
         * Tree
         * @description A MemTree of a forest: ``kind`` is session, entity or scene.
         */
        Tree: {
            /** Created At */
            created_at?: string | null;
            /** Fanout */
            fanout?: number | null;
            /**
             * Height
             * @default 1
             */
            height: number;
            /** Id */
            id: string;
            /** Key */
            key?: string | null;
            /** Kind */
            kind: string;
            /**
             * Label
             * @default
             */
            label: string;
            /**
             * N Leaves
             * @default 0
             */
            n_leaves: number;
            /** Root Node Id */
            root_node_id?: string | null;
        };
        /**
         * TreeHit
         * @description A tree the forest recall picked, with its fused score and its rank per channel.
         */
        TreeHit: {
            /** Ranks */
            ranks: {
                [key: string]: number;
            };
            /** Score */
            score: number;
            /** Tree */
            tree: string;
        };
        /**
         * TreeKind
         * @description The three scope kinds a MemTree can index.
         * @enum {string}
         */
        TreeKind: "session" | "entity" | "scene";
        /**
         * Turn
         * @description One stored turn.
         */
        Turn: {
            /** Id */
            id: string | null;
            /** Role */
            role: string | null;
            /** Speaker */
            speaker: string;
            /** Text */
            text: string;
            /** Time */
            time: string | null;
        };
        /**
         * WallSeconds
         * @description Wall time of a retract's two phases, in seconds.
         */
        WallSeconds: {
            /** Refresh */
            refresh: number;
            /** Structural */
            structural: number;
        };
        /**
         * Webhook
         * @description A registered webhook (the secret is shown only when it is created).
         */
        Webhook: {
            /** Created At */
            created_at?: string | null;
            /** Events */
            events: string[];
            /** Id */
            id: string;
            /**
             * Secret
             * @description Only in the answer to POST /v1/webhooks.
             */
            secret?: string | null;
            /** Url */
            url: string;
        };
        /**
         * WebhookDelivery
         * @description One delivery of an event to a webhook: ``state`` is pending, delivered or failed (gave up).
         */
        WebhookDelivery: {
            /** Attempts */
            attempts: number;
            /**
             * Created At
             * Format: date-time
             */
            created_at: string;
            /** Delivered At */
            delivered_at?: string | null;
            /** Event Id */
            event_id: string;
            /** Id */
            id: string;
            /** Last Error */
            last_error?: string | null;
            /** Last Status */
            last_status?: number | null;
            /** Next Attempt At */
            next_attempt_at?: string | null;
            /** State */
            state: string;
            /** Type */
            type: string;
        };
        /**
         * WebhookIn
         * @description ``POST /v1/webhooks``.
         */
        WebhookIn: {
            /**
             * Events
             * @description `job.succeeded`, `job.failed` (the default: both), `memory.changed` (facts created, superseded, corrected, restored or deleted, one event per transaction).
             */
            events?: ("job.succeeded" | "job.failed" | "memory.changed")[];
            /**
             * Url
             * @description An http(s) URL that receives the POSTs.
             */
            url: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    healthz_healthz_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
        };
    };
    get_metrics_metrics_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description Missing, malformed, unknown or revoked key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
        };
    };
    readyz_readyz_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
            /** @description Not ready */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
        };
    };
    post_admin_merge_v1_admin_merge_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AdminMergeIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminMergeAccepted"];
                };
            };
            /** @description Missing, malformed, unknown or revoked key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description No such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
        };
    };
    get_admin_job_v1_admin_tenants__tenant_id__jobs__job_id__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                job_id: string;
                tenant_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            /** @description Missing, malformed, unknown or revoked key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description No such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
        };
    };
    get_tenant_limits_v1_admin_tenants__tenant_id__limits_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenantLimits"];
                };
            };
            /** @description Missing, malformed, unknown or revoked key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description No such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
        };
    };
    put_tenant_limits_v1_admin_tenants__tenant_id__limits_put: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LimitsIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenantLimits"];
                };
            };
            /** @description Missing, malformed, unknown or revoked key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description No such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
        };
    };
    get_tenant_quotas_v1_admin_tenants__tenant_id__quotas_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenantQuotas"];
                };
            };
            /** @description Missing, malformed, unknown or revoked key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description No such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
        };
    };
    put_tenant_quotas_v1_admin_tenants__tenant_id__quotas_put: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["QuotasIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenantQuotas"];
                };
            };
            /** @description Missing, malformed, unknown or revoked key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description No such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
        };
    };
    get_forests_v1_forests_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_Forest_"];
                };
            };
            /** @description Missing, malformed, unknown or revoked key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description No such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
        };
    };
    post_forest_v1_forests_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ForestIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Forest"];
                };
            };
            /** @description Missing, malformed, unknown or revoked key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description No such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Conflicts with stored state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
        };
    };
    get_one_forest_v1_forests__forest__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                forest: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Forest"];
                };
            };
            /** @description Missing, malformed, unknown or revoked key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description No such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
        };
    };
    delete_forest_v1_forests__forest__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                forest: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ForestDeleted"];
                };
            };
            /** @description Missing, malformed, unknown or revoked key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description No such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
        };
    };
    get_entities_v1_forests__forest__entities_get: {
        parameters: {
            query?: {
                /** @description `next_cursor` of the previous page. */
                cursor?: string | null;
                /** @description Page size. */
                limit?: number;
                /** @description A part of the entity's name. */
                q?: string | null;
            };
            header?: never;
            path: {
                forest: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_EntitySummary_"];
                };
            };
            /** @description Missing, malformed, unknown or revoked key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description No such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
        };
    };
    get_entity_timeline_v1_forests__forest__entities__entity__timeline_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                entity: string;
                forest: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EntityTimeline"];
                };
            };
            /** @description Missing, malformed, unknown or revoked key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description No such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
        };
    };
    get_export_v1_forests__forest__export_get: {
        parameters: {
            query?: {
                with_derived?: boolean;
            };
            header?: never;
            path: {
                forest: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/x-ndjson": string;
                };
            };
            /** @description Missing, malformed, unknown or revoked key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description No such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
        };
    };
    get_facts_v1_forests__forest__facts_get: {
        parameters: {
            query?: {
                /** @description Only facts known (recorded, not retracted) and valid at this time. */
                as_of?: string | null;
                /** @description `next_cursor` of the previous page. */
                cursor?: string | null;
                /** @description Entity label or key. */
                entity?: string | null;
                /** @description Also retracted (forgotten) facts. */
                include_retracted?: boolean;
                /** @description Also facts superseded by a newer value. */
                include_superseded?: boolean;
                /** @description Only facts of this kind. */
                kind?: components["schemas"]["FactKind"] | null;
                /** @description Page size. */
                limit?: number;
                /** @description Text contains / full-text match. */
                q?: string | null;
                /** @description A source session's external id. */
                session?: string | null;
                /** @description Only facts of this speaker (any case). */
                speaker?: string | null;
                /** @description Only facts valid at this time. */
                valid_at?: string | null;
                /** @description Window start: only facts still valid after this time. */
                valid_from?: string | null;
                /** @description Window end: only facts valid before this time. */
                valid_to?: string | null;
            };
            header?: never;
            path: {
                forest: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_Fact_"];
                };
            };
            /** @description Missing, malformed, unknown or revoked key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description No such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
        };
    };
    get_fact_v1_forests__forest__facts__fact_id__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                fact_id: string;
                forest: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Fact"];
                };
            };
            /** @description Missing, malformed, unknown or revoked key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description No such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
        };
    };
    delete_fact_v1_forests__forest__facts__fact_id__delete: {
        parameters: {
            query?: {
                /** @description Also forget the text: the fact's history keeps its events without it. */
                forget_text?: boolean;
            };
            header?: never;
            path: {
                fact_id: string;
                forest: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FactDeleted"];
                };
            };
            /** @description Missing, malformed, unknown or revoked key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description No such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
        };
    };
    patch_fact_v1_forests__forest__facts__fact_id__patch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                fact_id: string;
                forest: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FactCorrectionIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Fact"];
                };
            };
            /** @description Missing, malformed, unknown or revoked key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description No such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
        };
    };
    get_fact_history_v1_forests__forest__facts__fact_id__history_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                fact_id: string;
                forest: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FactHistory"];
                };
            };
            /** @description Missing, malformed, unknown or revoked key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description No such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
        };
    };
    post_import_v1_forests__forest__import_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                forest: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportAccepted"];
                };
            };
            /** @description Missing, malformed, unknown or revoked key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description No such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Body over the size limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
        };
    };
    post_merge_v1_forests__forest__merge_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                forest: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MergeIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MergeAccepted"];
                };
            };
            /** @description Missing, malformed, unknown or revoked key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description No such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
        };
    };
    post_messages_v1_forests__forest__messages_post: {
        parameters: {
            query?: {
                /** @description Seconds (0-30) to wait for the job: 200 with the job if it ends in time, else 202. */
                wait?: number;
            };
            header?: {
                "Idempotency-Key"?: string | null;
            };
            path: {
                forest: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MessagesIn"];
            };
        };
        responses: {
            /** @description The job ended in time. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            /** @description Successful Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionAccepted"];
                };
            };
            /** @description Missing, malformed, unknown or revoked key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description No such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Conflicts with stored state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Body over the size limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
        };
    };
    get_node_v1_forests__forest__nodes__node_id__get: {
        parameters: {
            query?: {
                /** @description `children_next_cursor` of a previous call. */
                cursor?: string | null;
                /** @description Children per page. */
                limit?: number;
            };
            header?: never;
            path: {
                forest: string;
                node_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Node"];
                };
            };
            /** @description Missing, malformed, unknown or revoked key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description No such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
        };
    };
    post_query_v1_forests__forest__query_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                forest: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FilteredQueryIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueryResult"];
                };
            };
            /** @description Missing, malformed, unknown or revoked key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description No such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
        };
    };
    post_rematerialize_v1_forests__forest__rematerialize_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                forest: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RematIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RematAccepted"];
                };
            };
            /** @description Missing, malformed, unknown or revoked key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description No such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
        };
    };
    get_sessions_v1_forests__forest__sessions_get: {
        parameters: {
            query?: {
                cursor?: string | null;
                limit?: number;
            };
            header?: never;
            path: {
                forest: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_SessionSummary_"];
                };
            };
            /** @description Missing, malformed, unknown or revoked key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description No such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
        };
    };
    post_session_v1_forests__forest__sessions_post: {
        parameters: {
            query?: {
                /** @description Seconds (0-30) to wait for the job: 200 with the job if it ends in time, else 202. */
                wait?: number;
            };
            header?: {
                "Idempotency-Key"?: string | null;
            };
            path: {
                forest: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description The job ended in time. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            /** @description Successful Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionAccepted"];
                };
            };
            /** @description Missing, malformed, unknown or revoked key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description No such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Conflicts with stored state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Body over the size limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
        };
    };
    get_session_v1_forests__forest__sessions__session_id__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                forest: string;
                session_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            /** @description Missing, malformed, unknown or revoked key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description No such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
        };
    };
    delete_session_v1_forests__forest__sessions__session_id__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                forest: string;
                session_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RetractReport"];
                };
            };
            /** @description Missing, malformed, unknown or revoked key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description No such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
        };
    };
    delete_turn_v1_forests__forest__sessions__session_id__turns__turn_id__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                forest: string;
                session_id: string;
                turn_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RetractReport"];
                };
            };
            /** @description Missing, malformed, unknown or revoked key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description No such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
        };
    };
    get_trees_v1_forests__forest__trees_get: {
        parameters: {
            query?: {
                /** @description `next_cursor` of the previous page. */
                cursor?: string | null;
                /** @description Only trees of this scope kind. */
                kind?: components["schemas"]["TreeKind"] | null;
                /** @description Page size. */
                limit?: number;
            };
            header?: never;
            path: {
                forest: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_Tree_"];
                };
            };
            /** @description Missing, malformed, unknown or revoked key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description No such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
        };
    };
    get_one_job_v1_jobs__job_id__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                job_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            /** @description Missing, malformed, unknown or revoked key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description No such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
        };
    };
    get_key_v1_key_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KeyInfo"];
                };
            };
            /** @description Missing, malformed, unknown or revoked key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description No such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
        };
    };
    get_overview_v1_overview_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ForestOverviewList"];
                };
            };
            /** @description Missing, malformed, unknown or revoked key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description No such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
        };
    };
    post_multi_query_v1_query_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MultiQueryIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueryResult"];
                };
            };
            /** @description Missing, malformed, unknown or revoked key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description No such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
        };
    };
    get_tenants_v1_tenants_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_Tenant_"];
                };
            };
            /** @description Missing, malformed, unknown or revoked key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description No such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
        };
    };
    post_tenant_v1_tenants_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TenantIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Tenant"];
                };
            };
            /** @description Missing, malformed, unknown or revoked key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description No such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
        };
    };
    delete_tenant_v1_tenants__tenant_id__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenantDeleted"];
                };
            };
            /** @description Missing, malformed, unknown or revoked key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description No such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
        };
    };
    get_keys_v1_tenants__tenant_id__keys_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_ApiKey_"];
                };
            };
            /** @description Missing, malformed, unknown or revoked key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description No such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
        };
    };
    post_key_v1_tenants__tenant_id__keys_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["KeyIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            /** @description Missing, malformed, unknown or revoked key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description No such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
        };
    };
    delete_key_v1_tenants__tenant_id__keys__key_id__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                key_id: string;
                tenant_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing, malformed, unknown or revoked key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description No such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
        };
    };
    get_webhooks_v1_webhooks_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_Webhook_"];
                };
            };
            /** @description Missing, malformed, unknown or revoked key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description No such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
        };
    };
    post_webhook_v1_webhooks_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description Missing, malformed, unknown or revoked key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description No such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Conflicts with stored state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
        };
    };
    delete_webhook_v1_webhooks__webhook_id__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing, malformed, unknown or revoked key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description No such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
        };
    };
    get_deliveries_v1_webhooks__webhook_id__deliveries_get: {
        parameters: {
            query?: {
                /** @description How many, newest first. */
                limit?: number;
            };
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_WebhookDelivery_"];
                };
            };
            /** @description Missing, malformed, unknown or revoked key */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description The key lacks the scope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description No such object for this tenant */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": {
                        /**
                         * Checks
                         * @description Readiness checks (503 from /readyz).
                         */
                        checks?: {
                            [key: string]: unknown;
                        } | null;
                        /** Detail */
                        detail: string;
                        /**
                         * Errors
                         * @description Request validation errors (422).
                         */
                        errors?: {
                            [key: string]: unknown;
                        }[] | null;
                        /**
                         * Location
                         * @description The offending field or parameter, when known.
                         */
                        location?: string | null;
                        /** Status */
                        status: number;
                        /** Title */
                        title: string;
                        /** Type */
                        type: string;
                    };
                };
            };
        };
    };
}
