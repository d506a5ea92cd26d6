"""The wire models: every request and response body of the HTTP API, shared by the server
(``response_model``), the Python client and the MCP tools. Level 0: pydantic, the stdlib,
``memforest.domain`` and ``memforest.errors`` only."""

from __future__ import annotations

from memforest.domain import SessionInput
from memforest.schemas.admin import ApiKey, Health, Problem, Readiness, Tenant, TenantDeleted
from memforest.schemas.base import Page, RawKept, Record, Timestamp, WireModel
from memforest.schemas.browse import (
    ChainLink,
    Fact,
    Interval,
    Leaf,
    LeafRef,
    Node,
    NodeChild,
    NodeTree,
    Placement,
    Provenance,
    Tree,
)
from memforest.schemas.lifecycle import (
    AdminMergeAccepted,
    ImportAccepted,
    JobAccepted,
    MergeAccepted,
    RematAccepted,
    RetractReport,
    WallSeconds,
)
from memforest.schemas.query import EvidenceItem, QueryResult, TreeHit
from memforest.schemas.requests import AdminMergeIn, ForestIn, KeyIn, MergeIn, QueryIn, RematIn, TenantIn
from memforest.schemas.resources import (
    JOB_DONE_STATES,
    Forest,
    ForestDeleted,
    Job,
    Session,
    SessionAccepted,
    SessionSummary,
    Turn,
)
from memforest.schemas.session import (
    Limits,
    SessionModel,
    TurnModel,
    session_to_json,
    validate_session,
)

__all__ = [
    "JOB_DONE_STATES",
    "AdminMergeAccepted",
    "AdminMergeIn",
    "ApiKey",
    "ChainLink",
    "EvidenceItem",
    "Fact",
    "Forest",
    "ForestDeleted",
    "ForestIn",
    "Health",
    "ImportAccepted",
    "Interval",
    "Job",
    "JobAccepted",
    "KeyIn",
    "Leaf",
    "LeafRef",
    "Limits",
    "MergeAccepted",
    "MergeIn",
    "Node",
    "NodeChild",
    "NodeTree",
    "Page",
    "Placement",
    "Problem",
    "Provenance",
    "QueryIn",
    "QueryResult",
    "RawKept",
    "Readiness",
    "Record",
    "RematAccepted",
    "RematIn",
    "RetractReport",
    "Session",
    "SessionAccepted",
    "SessionInput",
    "SessionModel",
    "SessionSummary",
    "Tenant",
    "TenantDeleted",
    "TenantIn",
    "Timestamp",
    "Tree",
    "TreeHit",
    "Turn",
    "TurnModel",
    "WallSeconds",
    "WireModel",
    "session_to_json",
    "validate_session",
]
