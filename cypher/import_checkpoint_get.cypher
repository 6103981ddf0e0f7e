// name: import_checkpoint_get
// The checkpoint of an import source: how many records of it are fully imported.
// $key: string (the source key)
// Returns: records_done, completed (none when the source is new).
MATCH (s:Source {key: $key})
RETURN s.records_done AS records_done, coalesce(s.completed, false) AS completed
