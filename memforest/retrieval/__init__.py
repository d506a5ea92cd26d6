"""Read path: forest recall, tree browse (``emb`` / ``llm``) and evidence assembly."""

from memforest.retrieval.preset import RetrievalPreset
from memforest.retrieval.service import Evidence, QueryResult, query

__all__ = ["Evidence", "QueryResult", "RetrievalPreset", "query"]
