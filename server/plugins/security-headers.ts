import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';

/**
 * Security headers on every answer — the app, the API, downloads and errors alike:
 * - a Content-Security-Policy the built app passes as it is: its scripts, styles, workers and
 *   JSON come from its own origin (Vite emits no inline script; React and d3 set styles through
 *   the CSSOM, which style-src does not govern), images also as data: URLs (the favicon);
 *   one inline style is allowed by its hash: the rule react-aria's usePress adds to <head> once
 *   (`touch-action: pan-x pan-y pinch-zoom` on pressable elements); refused, it logged a CSP
 *   error on every page load and pressables lost their touch behaviour;
 * - no framing (`frame-ancestors 'none'` and `X-Frame-Options: DENY`), against clickjacking;
 * - `X-Content-Type-Options: nosniff`;
 * - `Referrer-Policy: no-referrer`: export links are capabilities and must not leak in a Referer.
 * No upgrade-insecure-requests: an intranet served over plain HTTP would lose every asset.
 * `inlineStyles`: the hashes of the prerendered sign-in page's inline stylesheet (server/sign-in-page.ts).
 * helmet's middleware is built once and applied to the raw answer: @fastify/helmet built it again
 * for every request, its policy parsed anew (12 µs a request against 0.3, in two async hooks).
 */
/** sha256 of react-aria's `#react-aria-pressable-style` text (react-aria/dist/private/interactions/usePress). */
export const REACT_ARIA_PRESSABLE_STYLE = "'sha256-38RhXrc7EdReTKsOm23ZPOCUgniTUUcjky8QOOrQx6o='";

export default fp(async function securityHeaders(app: FastifyInstance, { inlineStyles = [] }: { inlineStyles?: string[] }) {
  const setHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", REACT_ARIA_PRESSABLE_STYLE, ...inlineStyles],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        workerSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: { maxAge: 15_552_000, includeSubDomains: false },
  });
  app.addHook('onRequest', (req, reply, done) => setHeaders(req.raw, reply.raw, () => done()));
});
