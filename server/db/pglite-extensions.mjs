// The extensions of PGlite's contrib that the schema uses: pg_trgm and btree_gin for the search
// indexes of the form columns (services/leads/search-indexes.ts). PGlite loads an extension's code
// only when it is opened with it, so every PGlite that writes leads opens with these.
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

export const pgliteExtensions = { pg_trgm, btree_gin };
