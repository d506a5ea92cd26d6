"""Model backends: chat-with-JSON-schema, embeddings, extraction and summarisation."""
