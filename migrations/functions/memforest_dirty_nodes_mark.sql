-- memforest_dirty_nodes_mark: the trigger function of trg_nodes_dirty_inserted, trg_nodes_dirty_updated and
-- trg_nodes_dirty_deleted (AFTER INSERT / UPDATE OF dirty, forest_id, level / DELETE ON nodes, per row, each
-- WHEN the node's dirty flag is set or changes): dirty_nodes holds a row exactly while a node is dirty
-- (ADR 0051). Runs as the caller (row-level security applies). Installed by migration 0026 (dirty_nodes).
-- tests/db/test_migration_functions.py checks that a database migrated to head holds exactly this.

CREATE OR REPLACE FUNCTION memforest_dirty_nodes_mark() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        IF OLD.dirty THEN
            DELETE FROM dirty_nodes d WHERE d.tenant_id = OLD.tenant_id AND d.forest_id = OLD.forest_id
              AND d.level = OLD.level AND d.node_id = OLD.node_id;
        END IF;
    END IF;
    IF TG_OP <> 'DELETE' THEN
        IF NEW.dirty THEN
            INSERT INTO dirty_nodes (tenant_id, forest_id, level, node_id)
            VALUES (NEW.tenant_id, NEW.forest_id, NEW.level, NEW.node_id) ON CONFLICT DO NOTHING;
        END IF;
    END IF;
    RETURN NULL;
END
$fn$;
