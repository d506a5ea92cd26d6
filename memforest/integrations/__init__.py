"""Adapters of MemForest to agent frameworks, each behind its own extra so the core install stays
small: :mod:`memforest.integrations.langgraph` (``pip install 'memforest[langgraph]'``) and
:mod:`memforest.integrations.langchain` (``pip install 'memforest[langchain]'``). They talk to a
MemForest server over HTTP through :mod:`memforest.client`, like any other client."""
