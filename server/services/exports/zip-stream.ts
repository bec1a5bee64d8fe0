import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { constants, crc32, createDeflateRaw, deflateRawSync } from 'node:zlib';

// A zip archive written as a stream with Node's native zlib (five times faster than a
// JavaScript deflate on an export's sheet). Each entry is deflated and followed by a data
// descriptor, so nothing is buffered; sizes must stay under 4 GiB (no zip64).

const LEVEL = { level: constants.Z_BEST_SPEED };
const UTF8_AND_DESCRIPTOR = 0x0808;
const DEFLATE = 8;
const MAX = 0xffffffff;

interface Entry {
  name: Buffer;
  offset: number;
  crc: number;
  compressed: number;
  size: number;
}

/** DOS date and time of now, as zip headers store them. */
function dosTime(d = new Date()) {
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | (d.getSeconds() >> 1),
    date: ((d.getFullYear() - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}

export function zipStream(out: Writable) {
  const entries: Entry[] = [];
  const { time, date } = dosTime();
  let written = 0;

  async function write(chunk: Buffer) {
    written += chunk.length;
    if (!out.write(chunk)) await once(out, 'drain');
  }

  /** Version needed, flags, method, time and date: the same run in both headers of an entry. */
  function entryFields(b: Buffer, at: number) {
    [20, UTF8_AND_DESCRIPTOR, DEFLATE, time, date].forEach((v, i) => b.writeUInt16LE(v, at + 2 * i));
  }

  function localHeader(name: Buffer) {
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0);
    entryFields(h, 4);
    h.writeUInt16LE(name.length, 26);
    return Buffer.concat([h, name]);
  }

  async function finishEntry(entry: Entry) {
    if (entry.size > MAX || entry.compressed > MAX || written > MAX) throw new Error('Fichier trop volumineux pour une archive zip');
    const d = Buffer.alloc(16);
    d.writeUInt32LE(0x08074b50, 0);
    d.writeUInt32LE(entry.crc, 4);
    d.writeUInt32LE(entry.compressed, 8);
    d.writeUInt32LE(entry.size, 12);
    await write(d);
    entries.push(entry);
  }

  return {
    /** A small entry, given whole. */
    async file(name: string, content: string) {
      const data = Buffer.from(content);
      const entry: Entry = { name: Buffer.from(name), offset: written, crc: crc32(data), compressed: 0, size: data.length };
      await write(localHeader(entry.name));
      const deflated = deflateRawSync(data, LEVEL);
      entry.compressed = deflated.length;
      await write(deflated);
      await finishEntry(entry);
    },

    /** A large entry, given piece by piece: `push` them in order, then `close`. */
    async open(name: string) {
      const entry: Entry = { name: Buffer.from(name), offset: written, crc: 0, compressed: 0, size: 0 };
      await write(localHeader(entry.name));
      const deflate = createDeflateRaw(LEVEL);
      let failure: Error | undefined;
      deflate.on('error', (err) => (failure = err));
      deflate.on('data', (chunk: Buffer) => {
        entry.compressed += chunk.length;
        written += chunk.length;
        if (!out.write(chunk)) {
          deflate.pause();
          out.once('drain', () => deflate.resume());
        }
      });
      const ended = once(deflate, 'end');
      return {
        async push(text: string) {
          if (failure) throw failure;
          const data = Buffer.from(text);
          entry.crc = crc32(data, entry.crc);
          entry.size += data.length;
          if (!deflate.write(data)) await once(deflate, 'drain');
        },
        async close() {
          deflate.end();
          await ended;
          if (failure) throw failure;
          await finishEntry(entry);
        },
      };
    },

    /** Writes the central directory; the archive is complete once it resolves. */
    async end() {
      const start = written;
      for (const e of entries) {
        const c = Buffer.alloc(46);
        c.writeUInt32LE(0x02014b50, 0);
        c.writeUInt16LE(20, 4);
        entryFields(c, 6);
        c.writeUInt32LE(e.crc, 16);
        c.writeUInt32LE(e.compressed, 20);
        c.writeUInt32LE(e.size, 24);
        c.writeUInt16LE(e.name.length, 28);
        c.writeUInt32LE(e.offset, 42);
        await write(Buffer.concat([c, e.name]));
      }
      const eocd = Buffer.alloc(22);
      eocd.writeUInt32LE(0x06054b50, 0);
      eocd.writeUInt16LE(entries.length, 8);
      eocd.writeUInt16LE(entries.length, 10);
      eocd.writeUInt32LE(written - start, 12);
      eocd.writeUInt32LE(start, 16);
      await write(eocd);
    },
  };
}
