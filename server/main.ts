import { loadConfig } from './config';
import { boot } from './boot';
import { demoAccountsPresent } from './db/seed';

const config = (() => {
  try {
    return loadConfig();
  } catch (err) {
    // A configuration mistake needs its message, not a stack trace.
    console.error((err as Error).message);
    process.exit(1);
  }
})();
const { app, ctx, close } = await boot(config);
const address = await app.listen({ port: config.PORT, host: config.HOST }).catch(async (err: NodeJS.ErrnoException) => {
  await close();
  if (err.code !== 'EADDRINUSE') throw err;
  console.error(`Le port ${config.PORT} est déjà utilisé : arrêtez l'autre serveur ou choisissez un autre PORT.`);
  process.exit(1);
});
const url = address.replace('0.0.0.0', 'localhost').replace('[::]', 'localhost');
const database = config.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : `PGlite embarqué (${config.pgliteDir})`;
const demo = (await demoAccountsPresent(ctx.db)).map(
  (a) => `  ${a.email} / ${a.password} (${a.admin ? 'administrateur' : 'utilisateur normal'})`,
);
const accounts = demo.length ? `Comptes de démonstration :\n${demo.join('\n')}\n` : '';
console.log(`\nConsole des leads prête : ${url}\nBase de données : ${database}\n${accounts}`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.log.info({ signal }, 'shutting down');
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
