// name: schema
// The whole schema, one statement per `;`. Every statement is idempotent (IF NOT EXISTS,
// IF EXISTS), so `beliefgraph init` can run on every start.
CREATE CONSTRAINT belief_id IF NOT EXISTS FOR (b:Belief) REQUIRE b.id IS UNIQUE;
CREATE CONSTRAINT entity_key IF NOT EXISTS FOR (e:Entity) REQUIRE e.key IS UNIQUE;
CREATE CONSTRAINT scope_key IF NOT EXISTS FOR (s:Scope) REQUIRE s.key IS UNIQUE;
CREATE CONSTRAINT namespace_name IF NOT EXISTS FOR (n:Namespace) REQUIRE n.name IS UNIQUE;
CREATE CONSTRAINT source_key IF NOT EXISTS FOR (s:Source) REQUIRE s.key IS UNIQUE;
CREATE CONSTRAINT conversation_id IF NOT EXISTS FOR (c:Conversation) REQUIRE c.id IS UNIQUE;
CREATE CONSTRAINT turn_id IF NOT EXISTS FOR (t:Turn) REQUIRE t.id IS UNIQUE;
CREATE CONSTRAINT audit_event_id IF NOT EXISTS FOR (a:AuditEvent) REQUIRE a.id IS UNIQUE;
CREATE CONSTRAINT audit_event_seq IF NOT EXISTS FOR (a:AuditEvent) REQUIRE (a.chain, a.seq) IS UNIQUE;
CREATE CONSTRAINT audit_chain_name IF NOT EXISTS FOR (c:AuditChain) REQUIRE c.name IS UNIQUE;
CREATE CONSTRAINT api_key_id IF NOT EXISTS FOR (k:ApiKey) REQUIRE k.id IS UNIQUE;
CREATE CONSTRAINT api_key_hash IF NOT EXISTS FOR (k:ApiKey) REQUIRE k.hash IS UNIQUE;
CREATE CONSTRAINT lock_name IF NOT EXISTS FOR (l:Lock) REQUIRE l.name IS UNIQUE;
CREATE INDEX audit_event_at IF NOT EXISTS FOR (a:AuditEvent) ON (a.at, a.id);
CREATE INDEX audit_event_action IF NOT EXISTS FOR (a:AuditEvent) ON (a.action);
CREATE VECTOR INDEX belief_embedding IF NOT EXISTS FOR (b:Belief) ON b.embedding
  OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}};
CREATE FULLTEXT INDEX belief_text IF NOT EXISTS FOR (b:Belief)
  ON EACH [b.text, b.canonical_name, b.aliases_text, b.why_it_matters]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard-folding'}};
// search's index (beliefgraph/search/); schema.init_schema makes it again when an earlier
// schema made it over other properties (SEARCH_INDEX_PROPERTIES there: keep them equal)
CREATE FULLTEXT INDEX belief_search IF NOT EXISTS FOR (b:Belief)
  ON EACH [b.canonical_name, b.aliases_text, b.text_words, b.search_keys, b.name_edits]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard-folding'}};
// An entity's aliases are its namespaces' own, on NAMED_IN edges (the planner reads those of
// the namespaces asked); the aliases_text of an Entity node is left from stores before that,
// until init's backfill moves it.
CREATE FULLTEXT INDEX entity_names IF NOT EXISTS FOR (e:Entity)
  ON EACH [e.name, e.aliases_text]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard-folding'}};
// No query starts from a belief's status or kind (each filters beliefs found otherwise),
// so an index of either only made every write dearer: dropped where an earlier schema made it.
DROP INDEX belief_status IF EXISTS;
DROP INDEX belief_kind IF EXISTS;
CREATE INDEX belief_created_at IF NOT EXISTS FOR (b:Belief) ON (b.created_at, b.id);
CREATE INDEX belief_canonical_name IF NOT EXISTS FOR (b:Belief) ON (b.canonical_name);
CREATE INDEX belief_user IF NOT EXISTS FOR (b:Belief) ON (b.user);
CREATE INDEX belief_user_pinned IF NOT EXISTS FOR (b:Belief) ON (b.user, b.pinned);
CREATE INDEX belief_user_kind IF NOT EXISTS FOR (b:Belief) ON (b.user, b.kind);
// a user's preferences best first, for the persona prelude (cypher/context_layers.cypher)
CREATE INDEX belief_persona_order IF NOT EXISTS
  FOR (b:Belief) ON (b.user, b.kind, b.pinned, b.confidence);
CREATE INDEX asserted_key IF NOT EXISTS FOR ()-[a:ASSERTED]-() ON (a.key);
