// name: import_checkpoint_get
// The checkpoint of an import source: how many records of it are fully imported, and the
// first it skipped as invalid (null: none), which a later import reads again.
// $key: string (the source key)
// Returns: records_done, completed, skipped (none when the source is new).
MATCH (s:Source {key: $key})
RETURN s.records_done AS records_done, coalesce(s.completed, false) AS completed,
       properties(s).skipped AS skipped
