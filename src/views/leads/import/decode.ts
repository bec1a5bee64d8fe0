/**
 * Text of an uploaded CSV: UTF-8 when the bytes are valid UTF-8 (with or without BOM), else
 * Windows-1252, which is what French Excel writes ("Enregistrer sous… CSV (séparateur : point-virgule)").
 */
export type Encoding = 'utf-8' | 'windows-1252';

export function decodeText(bytes: Uint8Array): { text: string; encoding: Encoding } {
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
    return { text, encoding: 'utf-8' };
  } catch {
    // Browsers decode 0x80–0x9F as Windows-1252 (€, œ, ’…); some runtimes without full ICU
    // read them as Latin-1 control characters: the table below makes both agree.
    const text = new TextDecoder('windows-1252').decode(bytes).replace(/[\u0080-\u009f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80] || c);
    return { text, encoding: 'windows-1252' };
  }
}

/** Windows-1252 characters of the bytes 0x80…0x9F ('' where the code page leaves a hole). */
const CP1252_HIGH = [...'€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ'];

const DELIMITERS = [';', ',', '\t', '|'] as const;

/** Lines read to recognise the delimiter. */
const SAMPLE_LINES = 50;

/**
 * How often each candidate delimiter occurs outside quotes on each of the first lines (records:
 * a quoted line break does not end one; blank lines are left out, as the parser skips them).
 */
function delimiterCounts(text: string): number[][] {
  const lines: number[][] = [];
  let counts = DELIMITERS.map(() => 0);
  let blank = true;
  let quoted = false;
  const endLine = () => {
    if (!blank) lines.push(counts);
    counts = DELIMITERS.map(() => 0);
    blank = true;
  };
  for (let i = 0; i < text.length && lines.length < SAMPLE_LINES; i++) {
    const ch = text[i];
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) endLine();
    else if (!quoted) {
      const d = DELIMITERS.indexOf(ch as (typeof DELIMITERS)[number]);
      if (d >= 0) counts[d]++;
    }
    if (blank && ch.trim() !== '') blank = false;
  }
  if (lines.length < SAMPLE_LINES) endLine();
  return lines;
}

/**
 * The delimiter: the first candidate (';' before ',': French spreadsheets write ';' because ','
 * is their decimal separator) found as many times on each of the first lines, outside quotes;
 * else the one found most often on the header line. A ';' file whose header or addresses hold
 * commas is still read by ';'.
 */
export function detectDelimiter(text: string): string {
  const lines = delimiterCounts(text);
  const header = lines[0] ?? DELIMITERS.map(() => 0);
  const steady = DELIMITERS.findIndex((_, d) => header[d] > 0 && lines.every((line) => line[d] === header[d]));
  if (steady >= 0) return DELIMITERS[steady];
  const most = header.reduce((best, n, d) => (n > header[best] ? d : best), 0);
  return header[most] > 0 ? DELIMITERS[most] : ',';
}
