import { config } from 'zod';

// zod compiles object parsers with `new Function` unless told not to, and its probe alone is
// reported as a violation of the Content-Security-Policy (no 'unsafe-eval', server/plugins/security-headers.ts).
// Schemas read this when they are built: vite.config.ts bundles it with zod itself, so it runs before any contract.
// `config`, not `z.config`: the build treats every call on `z` as free of effects (vite.config.ts) and would drop this one.
config({ jitless: true });
