-- Trigram indexes serve keyword searches (Contains) on large lists. The extension lives in
-- public so that schemas created and dropped beside it (test runs) never take it with them.
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;
