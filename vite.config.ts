import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import optimizeLocales from '@react-aria/optimize-locales-plugin';
import { clientEndpoints } from './scripts/client-endpoints.mjs';
import { departmentsGeodata } from './scripts/geodata.mjs';
import { precompress } from './scripts/precompress.mjs';
import { preloadSignIn } from './scripts/preload-sign-in.mjs';
import { prerenderSignIn } from './scripts/prerender-sign-in.mjs';
import { languages } from './src/shared/languages';

export default defineConfig({
  plugins: [
    react(),
    // react-aria's own strings (the names of its hidden buttons, its announcements) for the
    // console's languages alone, not for its 34.
    optimizeLocales.vite({ locales: [...languages] }),
    clientEndpoints(),
    departmentsGeodata(),
    preloadSignIn(),
    precompress(),
    prerenderSignIn(),
  ],
  server: {
    port: 5173,
    proxy: { '/api': `http://localhost:${process.env.PORT ?? 3000}` },
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
    chunkSizeWarningLimit: 1024,
    rollupOptions: {
      // The precompression (scripts/precompress.mjs) takes most of a build by design; Rolldown's
      // warning naming the slowest plugins would print on every build.
      checks: { bundlerTimings: false },
      // zod's builders and the methods chained on them build a schema and nothing else: one the
      // browser's code never reads is left out (scripts/client-endpoints.mjs), where a chain
      // such as `z.string().min(1)` otherwise counts as a call with effects and stays.
      treeshake: { manualPureFunctions: ['z'] },
      output: {
        // zod and its configuration travel together: whichever chunk builds a schema first has
        // loaded `jitless` (src/api/zodConfig.ts) before, so zod never probes `new Function`, which
        // the Content-Security-Policy reports even when the probe's error is caught.
        manualChunks: (id) => (/\/node_modules\/zod\/|\/src\/api\/zodConfig\.ts$/.test(id) ? 'zod' : undefined),
      },
    },
  },
});
