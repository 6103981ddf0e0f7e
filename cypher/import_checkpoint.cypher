// name: import_checkpoint
// Moves an import source's checkpoint forward, never back; writes nothing when it would
// not move (so a repeated import changes nothing).
// skipped is the first record an import skipped as invalid (--skip-invalid): a later import
// reads again from there, so a record mended since is not left out. Before the run completes
// the smaller of the stored and the run's is kept; the run's completing batch replaces it
// (the run read every record from the stored one on, so its own is the whole truth).
// $key, $namespace, $source_name, $format: string
// $records_done: int (records fully imported), $completed: bool (the whole source is in)
// $skipped: int or null (the run's first skipped record so far); $now: datetime
MERGE (s:Source {key: $key})
  ON CREATE SET s.namespace = $namespace, s.name = $source_name, s.format = $format,
                s.records_done = -1, s.completed = false, s.created_at = $now
WITH s, properties(s).skipped AS stored
WITH s, stored,
     CASE WHEN $completed OR stored IS NULL THEN $skipped
          WHEN $skipped IS NULL OR stored < $skipped THEN stored
          ELSE $skipped END AS skipped
WHERE s.records_done < $records_done OR ($completed AND NOT s.completed)
   OR coalesce(skipped <> stored, skipped IS NOT NULL OR stored IS NOT NULL)
SET s.records_done = CASE WHEN s.records_done < $records_done THEN $records_done
                          ELSE s.records_done END,
    s.completed = s.completed OR $completed, s.skipped = skipped, s.updated_at = $now
