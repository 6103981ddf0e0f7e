// name: import_checkpoint
// Moves an import source's checkpoint forward, never back; writes nothing when it would
// not move (so a repeated import changes nothing).
// $key, $namespace, $source_name, $format: string
// $records_done: int (records fully imported), $completed: bool (the whole source is in)
// $now: datetime
MERGE (s:Source {key: $key})
  ON CREATE SET s.namespace = $namespace, s.name = $source_name, s.format = $format,
                s.records_done = -1, s.completed = false, s.created_at = $now
WITH s
WHERE s.records_done < $records_done OR ($completed AND NOT s.completed)
SET s.records_done = $records_done, s.completed = $completed, s.updated_at = $now
