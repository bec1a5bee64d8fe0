import { loadConfig } from './config';
import { boot } from './boot';

const config = loadConfig();
const { app, close } = await boot(config);
const address = await app.listen({ port: config.PORT, host: config.HOST });
const url = address.replace('0.0.0.0', 'localhost').replace('[::]', 'localhost');
const database = config.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : `PGlite embarqué (${config.pgliteDir})`;
console.log(`\nConsole des leads prête : ${url}\nBase de données : ${database}\n`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.log.info({ signal }, 'shutting down');
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
