// PGlite on a thread of its own (connection.ts's openPglite): every statement's parse, plan and
// execution in WebAssembly runs here, beside the server's JavaScript instead of on its thread.
// Plain JavaScript, so that the server's bundle, tsx and vitest load it alike, with no loader.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pgliteExtensions } from './pglite-extensions.mjs';

const { dir, image, settings, wasmModule } = workerData;

// int8 counts and ids fit in a JS number; dates stay 'YYYY-MM-DD' strings, as the API speaks them.
const parsers = { 20: Number, 1700: Number, 1082: (v) => v };

/** The fields of an error that cross to the main thread (a structured clone of an Error keeps only its message). */
function fields(err) {
  if (!(err instanceof Error)) return { message: String(err) };
  const out = { name: err.name, message: err.message, stack: err.stack };
  for (const [key, value] of Object.entries(err)) if (value === null || typeof value !== 'object') out[key] = value;
  return out;
}

const reply = (id, promise) =>
  promise.then(
    (result) => parentPort.postMessage({ id, result }),
    (err) => parentPort.postMessage({ id, error: fields(err) }),
  );

/** Open transactions by the id of their 'begin': PGlite's transaction object and how to end it. */
const transactions = new Map();
/** Backups' freezes by the id of their 'freeze': what lets statements run again. */
const freezes = new Map();
const ROLLBACK = Symbol('rollback');

async function statement(q, msg) {
  // A statement of a transaction that has ended (one nobody awaited), as PGlite says it.
  if (!q) throw new Error('Transaction is closed');
  switch (msg.op) {
    case 'query': {
      const res = await q.query(msg.sql, msg.params);
      return { rows: res.rows, rowCount: res.affectedRows ?? res.rows.length };
    }
    case 'exec':
      return (await q.exec(msg.sql)).at(-1)?.rows ?? [];
    // PGlite's COPY … FROM STDIN is its '/dev/blob' device, fed with the query's blob.
    case 'copy':
      return (await q.query(`COPY ${msg.target} FROM '/dev/blob'`, [], { blob: new Blob([msg.rows]) })).affectedRows ?? 0;
    // And its COPY … TO STDOUT writes the blob the result carries.
    case 'copyTo':
      return new Uint8Array(await (await q.query(`COPY (${msg.query}) TO '/dev/blob' (FORMAT binary)`)).blob.arrayBuffer());
  }
  throw new Error(`pglite-worker: unknown operation ${msg.op}`);
}

/**
 * A transaction is a conversation: 'begin' answers once BEGIN ran, the statements naming it run on
 * its connection in the order they come, and 'commit' or 'rollback' ends it and answers once done.
 * Other statements wait meanwhile, as PGlite's one connection makes them.
 */
function begin(db, id) {
  const tx = {};
  let begun = false;
  db.transaction(
    (t) =>
      new Promise((commit, rollback) => {
        Object.assign(tx, { t, commit, rollback });
        begun = true;
        transactions.set(id, tx);
        parentPort.postMessage({ id, result: null });
      }),
  ).then(
    () => parentPort.postMessage({ id: tx.endId, result: null }),
    (err) =>
      parentPort.postMessage(!begun ? { id, error: fields(err) } : err === ROLLBACK ? { id: tx.endId, result: null } : { id: tx.endId, error: fields(err) }),
  );
}

/**
 * The image as PGlite reads it: it asks only for its bytes (`arrayBuffer()`). A Blob around them
 * would copy them again, and Node 20's Blob does it 64 kB at a time: a cost at every start of the
 * API tests' servers (docs/performance.md).
 */
const imageFile = (bytes) => ({ type: 'application/x-tar', arrayBuffer: async () => bytes });

async function main() {
  const db = await PGlite.create(dir, {
    loadDataDir: image ? imageFile(image) : undefined,
    parsers,
    pgliteWasmModule: wasmModule,
    extensions: pgliteExtensions,
    startParams: [...PGlite.defaultStartParams, ...settings.flatMap((setting) => ['-c', setting])],
  });
  parentPort.on('message', (msg) => {
    switch (msg.op) {
      case 'begin':
        return begin(db, msg.id);
      case 'commit':
      case 'rollback': {
        const tx = transactions.get(msg.tx);
        transactions.delete(msg.tx);
        tx.endId = msg.id;
        return msg.op === 'commit' ? tx.commit() : tx.rollback(ROLLBACK);
      }
      // Between two statements every write has reached the folder (NODEFS writes through), so the
      // files form the image a crash of the process would leave: a copy opens like one, committed
      // transactions whole; the CHECKPOINT keeps the WAL to replay short.
      case 'freeze':
        return void reply(
          msg.id,
          db.query('CHECKPOINT').then(
            () =>
              new Promise((frozen) => {
                void db.runExclusive(() => new Promise((thaw) => (freezes.set(msg.id, thaw), frozen(null))));
              }),
          ),
        );
      case 'thaw':
        freezes.get(msg.frozen)();
        freezes.delete(msg.frozen);
        return void parentPort.postMessage({ id: msg.id, result: null });
      case 'close':
        return void reply(msg.id, db.close());
      default:
        return void reply(msg.id, statement(msg.tx === undefined ? db : transactions.get(msg.tx)?.t, msg));
    }
  });
  parentPort.postMessage({ ready: true });
}

main().catch((err) => parentPort.postMessage({ failed: fields(err) }));
