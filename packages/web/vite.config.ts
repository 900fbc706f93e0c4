import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The API server that `vite dev` forwards to (the one `npm start` runs). */
const api = process.env.FLEETKEEP_API_URL || 'http://localhost:8080';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    target: 'es2022',
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: api, changeOrigin: true },
      '/i18n': { target: api, changeOrigin: true },
      '/helpi18n': { target: api, changeOrigin: true },
      '/events': { target: api, ws: true, changeOrigin: true },
    },
  },
});
