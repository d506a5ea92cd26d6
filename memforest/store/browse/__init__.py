"""Read-only browsing of one forest: facts (with provenance and supersession chains), trees, nodes,
and the node reads of the read path's tree descent.

Every function takes ``tenant_id`` and ``forest_id`` first, filters every statement by both, and
returns JSON-ready dicts (ids as strings, times as ISO 8601) whose field names are the stable
contract of the HTTP API, the MCP server and the CLI. Lists use keyset pagination with opaque
cursors, so pages never overlap or skip rows however deep the client pages.
"""

from memforest.store.browse.facts import (
    MAX_CHAIN,
    SNIPPET_CHARS,
    FactFilter,
    fact_placements,
    fact_provenance,
    get_fact,
    list_facts,
    supersession_chain,
)
from memforest.store.browse.nodes import get_node, list_trees
from memforest.store.browse.paging import (
    MAX_LIMIT,
    SHORT_CHARS,
    Page,
    decode_cursor,
    encode_cursor,
    parse_id,
    utc_time,
)

__all__ = [
    "MAX_CHAIN",
    "MAX_LIMIT",
    "SHORT_CHARS",
    "SNIPPET_CHARS",
    "FactFilter",
    "Page",
    "decode_cursor",
    "encode_cursor",
    "fact_placements",
    "fact_provenance",
    "get_fact",
    "get_node",
    "list_facts",
    "list_trees",
    "parse_id",
    "supersession_chain",
    "utc_time",
]
