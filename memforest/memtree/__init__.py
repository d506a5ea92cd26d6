"""The MemTree as pure algorithms: a time-ordered B+-tree over facts and cells, with no database.

- :mod:`~memforest.memtree.model`: what the tree writers pass around (a tree row, a leaf to hang,
  counters of insert and delete work);
- :mod:`~memforest.memtree.batch`: a batch of leaf inserts simulated in memory (marks and splits);
- :mod:`~memforest.memtree.layout`: the bottom-up layout of a tree built from all its leaves at once;
- :mod:`~memforest.memtree.rebalance`: borrow, merge and collapse after a leaf is removed, over an
  editor port that ``store`` implements with SQL;
- :mod:`~memforest.memtree.invariants`: every structural rule a tree must satisfy.

``memforest.store`` reads and writes the nodes (``trees``, ``tree_insert``, ``tree_bulk``,
``tree_delete``, ``check``); this package imports only layer 0 and the standard library.
"""
