import { loadConfig } from './config';
import { boot } from './boot';
import { demoAccountsPresent } from './db/seed';

const config = loadConfig();
const { app, ctx, close } = await boot(config);
const address = await app.listen({ port: config.PORT, host: config.HOST });
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
