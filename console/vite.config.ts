// Builds the web console (PRODUCT.md §2b) into dist/console/, served by the service at /console/.
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { CONSOLE_JS_BUDGET_BYTES, gzippedJsBytes } from './bundle-budget.js';

/** Fails the build when the emitted JavaScript, gzipped, exceeds the budget. */
function bundleBudget(): Plugin {
  return {
    name: 'console-bundle-budget',
    apply: 'build',
    generateBundle(_options, bundle) {
      const js = Object.values(bundle).flatMap((item) => (item.type === 'chunk' ? [item.code] : []));
      const bytes = gzippedJsBytes(js);
      if (bytes > CONSOLE_JS_BUDGET_BYTES)
        this.error(`console JavaScript is ${bytes} bytes gzipped, over the budget of ${CONSOLE_JS_BUDGET_BYTES}`);
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/console/',
  publicDir: false,
  logLevel: 'warn',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  resolve: { alias: { react: 'preact/compat', 'react-dom': 'preact/compat' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/console/', import.meta.url)),
    emptyOutDir: true,
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    target: 'es2022',
    sourcemap: false,
  },
  // `npm run console:dev`: the page from Vite with hot reload, the API from `npm start` on :8080.
  server: { proxy: { '/api': 'http://127.0.0.1:8080', '/openapi.json': 'http://127.0.0.1:8080' } },
  plugins: [bundleBudget()],
});
