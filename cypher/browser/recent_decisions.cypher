// Recent gate decisions: the last 50 verdicts of the past day and the beliefs they touched
MATCH (a:AuditEvent)
WHERE a.at >= datetime() - duration('P1D')
  AND a.action IN ['add', 'noop', 'compatible', 'contradicts', 'contested', 'subsumes', 'subsumed']
WITH a
ORDER BY a.at DESC
LIMIT 50
OPTIONAL MATCH touched = (a)-[:TOUCHED]->(:Belief)
RETURN a, collect(touched) AS touched
