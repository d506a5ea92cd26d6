"""After a retraction's removals: recount the touched entities and scene clusters, and drop what
is left without facts (entity trees and non-speaker rows, empty clusters with their trees, any
other entity or scene tree emptied on the way)."""

from __future__ import annotations

import numpy as np

from memforest.domain import TreeKind
from memforest.lifecycle.retract_report import RetractWork
from memforest.rules import scene_label
from memforest.store import retraction_graph as g
from memforest.store.sql import Row, as_vector
from memforest.store.tree_delete import drop_tree

__all__ = ["settle_entities"]


async def settle_entities(w: RetractWork, speakers: dict[str, set[str]]) -> None:
    """Recount touched entities and scene clusters; drop the trees (and rows) left without facts.
    ``speakers`` maps the entity key of each speaker of the retracted turns to its labels."""
    handled: set[str] = set()
    if w.touched_entities:
        for r in await g.recount_entities(w.conn, w.tenant_id, w.touched_entities):
            if int(r["fact_count"]) == 0:
                await _drop_entity(w, int(r["entity_id"]), str(r["key"]), speakers.get(str(r["key"]), set()))
                handled.add(str(r["key"]))
    # Speakers of the retracted turns that no longer speak anywhere and have no facts.
    for key, labels in sorted(speakers.items()):
        if key in handled:
            continue
        row = await g.entity_by_key(w.conn, w.tenant_id, w.forest_id, key)
        if row is not None and int(row["fact_count"]) == 0:
            await _drop_entity(w, int(row["entity_id"]), key, labels)
    for cluster_id, facts in sorted(w.touched_scenes.items()):
        await _settle_scene(w, cluster_id, facts)
    # Any entity or scene tree emptied by the removals (e.g. an entity whose row stays) goes too.
    for tree_id in await g.empty_graph_trees(w.conn, w.tenant_id, w.report.rebalance.touched_trees):
        await drop_tree(w.conn, w.tenant_id, tree_id)
        w.report.trees_removed += 1


async def _drop_tree_by_key(w: RetractWork, kind: TreeKind, key: str) -> None:
    tree = await g.find_tree(w.conn, w.tenant_id, w.forest_id, kind, key)
    if tree is not None:
        await drop_tree(w.conn, w.tenant_id, int(tree["tree_id"]))
        w.report.trees_removed += 1


async def _drop_entity(w: RetractWork, entity_id: int, key: str, speaker_labels: set[str]) -> None:
    """An entity without facts loses its tree; its row stays only for a speaker still speaking in
    the forest (speakers keep an entity, whose tree comes back with its next fact)."""
    await _drop_tree_by_key(w, TreeKind.ENTITY, key)
    still_speaks = False
    if speaker_labels:
        still_speaks = await g.speaks_in_forest(w.conn, w.tenant_id, w.forest_id, speaker_labels)
    if await g.entity_is_speaker(w.conn, w.tenant_id, entity_id) and (still_speaks or not speaker_labels):
        await g.deactivate_entity(w.conn, w.tenant_id, entity_id)
        return
    await g.delete_entity(w.conn, w.tenant_id, entity_id)
    w.report.entities_removed += 1


async def _settle_scene(w: RetractWork, cluster_id: int, facts: list[Row]) -> None:
    """Take removed members out of a scene cluster: member count and topic counts decrease, the
    centroid loses their direction (the inverse of routing's running update); an empty cluster is
    deleted with its tree."""
    row = await g.scene_cluster(w.conn, w.tenant_id, cluster_id)
    if row is None:
        return
    n = int(row["member_count"])
    centroid = as_vector(row["centroid"])
    counts: dict[str, int] = {k: int(v) for k, v in dict(row["topic_counts"] or {}).items()}
    for fact in facts:
        if fact["embedding"] is not None and n > 1:
            rest = centroid * n - as_vector(fact["embedding"])
            norm = float(np.linalg.norm(rest))
            if norm > 0:
                centroid = rest / norm
        n -= 1
        for topic in fact["topics"] or []:
            if counts.get(topic, 0) > 1:
                counts[topic] -= 1
            else:
                counts.pop(topic, None)
    if n <= 0:
        await _drop_tree_by_key(w, TreeKind.SCENE, str(cluster_id))
        await g.delete_scene_cluster(w.conn, w.tenant_id, cluster_id)
        w.report.scenes_removed += 1
        return
    await g.update_scene_cluster(w.conn, w.tenant_id, cluster_id, n, centroid, counts)
    # The label names the top topics; the removed members' topics must not linger in it (the root,
    # on the path of every removed leaf, is re-summarised with the new label).
    await g.set_scene_label(w.conn, w.tenant_id, w.forest_id, cluster_id, scene_label(counts))
