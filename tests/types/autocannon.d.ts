// autocannon ships no types; what the load tests use of it (autocannon 8).
declare module 'autocannon' {
  namespace autocannon {
    /** The raw request autocannon is about to send; `setupRequest` answers a changed copy. */
    interface RawRequest {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
    }
    interface Request<C> extends RawRequest {
      setupRequest?: (request: RawRequest, context: C) => RawRequest;
      onResponse?: (status: number, body: string, context: C, headers: Record<string, string | string[]>) => void;
    }
    interface Options<C> {
      url: string | string[];
      connections?: number;
      /** Seconds. */
      duration?: number;
      /** Seconds before a request counts as timed out. */
      timeout?: number;
      headers?: Record<string, string>;
      requests?: Array<Request<C>>;
      initialContext?: Partial<C>;
    }
    interface Histogram {
      average: number;
      min: number;
      max: number;
      total: number;
      p50: number;
      p99: number;
    }
    interface Result {
      requests: Histogram;
      latency: Histogram;
      throughput: Histogram;
      /** Seconds. */
      duration: number;
      errors: number;
      timeouts: number;
      non2xx: number;
      resets: number;
      statusCodeStats: Record<string, { count: number }>;
      start: Date;
      finish: Date;
    }
    interface Instance extends Promise<Result> {
      stop(): void;
    }
  }
  function autocannon<C>(options: autocannon.Options<C>): autocannon.Instance;
  export default autocannon;
}
