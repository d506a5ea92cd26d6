"""The SQL of the forest transfer family: merge (snapshot, remap, facts, scopes, trees), export
and import staging. Column lists come from ``memforest.db.catalogue``."""
