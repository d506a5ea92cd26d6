"""Read path: forest recall, tree browse (``emb`` / ``llm``) and evidence assembly."""

from memforest.retrieval.preset import RetrievalPreset
from memforest.retrieval.request import QueryAnswer, QueryRequest
from memforest.retrieval.service import Evidence, query

__all__ = ["Evidence", "QueryAnswer", "QueryRequest", "RetrievalPreset", "query"]
