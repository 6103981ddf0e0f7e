// Contested pairs: contradictions the gate's guards kept from superseding (the disputed
// belief keeps governing); newest first
MATCH p = (:Belief)-[c:CONTRADICTS]->(:Belief)
RETURN p
ORDER BY c.at DESC
LIMIT 100
