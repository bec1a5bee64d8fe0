/** One message of a text/event-stream: its `id:`, `event:` and `data:` lines (data lines joined by '\n'). */
export interface SseMessage {
  id?: string;
  event: string;
  data: string;
}

/**
 * Reads a text/event-stream as its chunks arrive (the HTML standard's parsing, less `retry:`,
 * which the reader's own backoff replaces): a message may be cut anywhere, even between the '\r'
 * and '\n' of a line end. Comments (the server's heartbeat) yield no message.
 */
export class SseParser {
  private buffer = '';
  private data: string[] = [];
  private event = '';
  private id: string | undefined;
  private hasField = false;
  /** The last chunk ended on '\r': a '\n' opening the next one belongs to that line end. */
  private afterCr = false;

  feed(chunk: string): SseMessage[] {
    if (this.afterCr && chunk.startsWith('\n')) chunk = chunk.slice(1);
    this.afterCr = false;
    this.buffer += chunk;
    const out: SseMessage[] = [];
    let start = 0;
    for (let i = 0; i < this.buffer.length; i++) {
      const c = this.buffer[i];
      if (c !== '\n' && c !== '\r') continue;
      this.line(this.buffer.slice(start, i), out);
      if (c === '\r') {
        if (i + 1 === this.buffer.length) this.afterCr = true;
        else if (this.buffer[i + 1] === '\n') i++;
      }
      start = i + 1;
    }
    this.buffer = this.buffer.slice(start);
    return out;
  }

  private line(line: string, out: SseMessage[]) {
    if (line === '') {
      if (this.hasField) out.push({ ...(this.id !== undefined ? { id: this.id } : {}), event: this.event || 'message', data: this.data.join('\n') });
      this.data = [];
      this.event = '';
      this.hasField = false;
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      this.data.push(value);
      this.hasField = true;
    } else if (field === 'event') {
      this.event = value;
      this.hasField = true;
    } else if (field === 'id' && !value.includes('\0')) {
      this.id = value;
      this.hasField = true;
    }
  }
}
