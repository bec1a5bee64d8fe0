/**
 * Two transactions locking the same rows in opposite orders (a bulk status change and a
 * re-injection, both moving leads and their monthly statistics row): PostgreSQL aborts one of them
 * whole (deadlock or serialization failure), which then simply runs again, three times at most.
 */
export async function retryOnConflict<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (attempt >= 3 || !['40P01', '40001'].includes((err as { code?: string }).code ?? '')) throw err;
    }
  }
}
