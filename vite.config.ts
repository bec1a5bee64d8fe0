import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { departmentsGeodata } from './scripts/geodata.mjs';

export default defineConfig({
  plugins: [react(), departmentsGeodata()],
  server: {
    port: 5173,
    proxy: { '/api': `http://localhost:${process.env.PORT ?? 3000}` },
  },
  build: { outDir: 'dist', sourcemap: true, chunkSizeWarningLimit: 1024 },
});
