import { setFlagsFromString } from 'node:v8';
import { loadConfig } from './config';
import { boot } from './boot';
import { demoAccountsPresent } from './db/seed';
import { isDatabaseUnavailable } from './db/unavailable';
import { loadPostalCodes } from './services/geo';

const config = (() => {
  try {
    return loadConfig();
  } catch (err) {
    // A configuration mistake needs its message, not a stack trace.
    console.error((err as Error).message);
    process.exit(1);
  }
})();
// After each full collection V8 lets the heap grow to up to four times what survived before the
// next one; the garbage of a 100,000-lead export then stayed resident until the old generation was
// collected: the embedded server peaked at 439–502 MB through three csv and three xlsx exports,
// 396–440 MB with the growth held to 20 % (export times within the noise). Held only there, where
// the process holds the database too: on PostgreSQL the server alone peaked at 179–185 MB through
// the io bench's exports without it, and an import of 100,000 rows, whose rows all stay alive
// until its COPY, took 0.3–0.5 s less CPU. V8 reads it at every collection, so it can be set here.
if (!config.DATABASE_URL) setFlagsFromString('--heap-growing-percent=20');
const { app, ctx, close } = await boot(config);
const address = await app.listen({ port: config.PORT, host: config.HOST }).catch(async (err: NodeJS.ErrnoException) => {
  await close();
  if (err.code !== 'EADDRINUSE') throw err;
  console.error(`Le port ${config.PORT} est déjà utilisé : arrêtez l'autre serveur ou choisissez un autre PORT.`);
  process.exit(1);
});
const url = address.replace('0.0.0.0', 'localhost').replace('[::]', 'localhost');
const database = config.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : `PGlite embarqué (${config.pgliteDir})`;
const demo = (await demoAccountsPresent(ctx.db)).map((a) => `  ${a.email} / ${a.password} (${a.admin ? 'administrateur' : 'utilisateur normal'})`);
const accounts = demo.length ? `Comptes de démonstration :\n${demo.join('\n')}\n` : '';
console.log(`\nConsole des leads prête : ${url}\nBase de données : ${database}\n${accounts}`);
// Reading the postal codes takes 0.15–0.2 s of CPU: done now rather than by the first intake or import.
setImmediate(loadPostalCodes);

// pg-boss completes (or fails) a job after its handler without awaiting the statement: while the
// database restarts, that rejection reaches no one. The job then expires and is retried, which
// every handler allows, so it is a warning; any other unhandled rejection still stops the process.
process.on('unhandledRejection', (reason) => {
  if (!isDatabaseUnavailable(reason)) throw reason;
  app.log.warn({ code: (reason as { code?: string }).code, reason: (reason as Error).message }, 'database unavailable (unawaited statement)');
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.log.info({ signal }, 'shutting down');
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
