// Built by `npm run build` (scripts/build-ui.mjs) into dist/ui, served by Weft at /ui/.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  base: '/ui/',
  plugins: [react()],
  build: { outDir: '../dist/ui', emptyOutDir: true, sourcemap: false, reportCompressedSize: false },
});
