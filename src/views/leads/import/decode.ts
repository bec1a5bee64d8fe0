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

/**
 * The delimiter of the header line: the candidate found most often outside quotes. French
 * spreadsheets write ';' because ',' is their decimal separator.
 */
export function detectDelimiter(text: string): string {
  let line = '';
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted) line += ch;
  }
  let best: string = ',';
  let bestCount = 0;
  for (const d of DELIMITERS) {
    const count = line.split(d).length - 1;
    if (count > bestCount) {
      best = d;
      bestCount = count;
    }
  }
  return best;
}
