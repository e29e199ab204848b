-- Other parts of the node (the gateway's nonces, the approvals state) keep
-- their tables in this file too, each with its own numbered migrations. This
-- table records how far each of them has been migrated; see Store.Attach.
CREATE TABLE component_schema (
  component TEXT PRIMARY KEY,
  version   INTEGER NOT NULL
);
