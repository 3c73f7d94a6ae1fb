import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Paths are relative to this folder, so `vite build web` from the repo root and
// `npm run build -w web` produce the same `web/dist`.
export default defineConfig({
  base: '/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
  },
  server: {
    port: 5173,
    proxy: {
      // ws: live co-editing's socket (/api/collab/...) goes through the same proxy.
      '/api': { target: 'http://localhost:8080', changeOrigin: true, ws: true },
    },
  },
  preview: {
    port: 4173,
    proxy: {
      '/api': { target: 'http://localhost:8080', changeOrigin: true },
    },
  },
});
