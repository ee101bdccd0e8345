import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Hono } from 'hono';
import type { HonoEnv } from './request-context.js';

/**
 * /swagger: the interactive reference, served from the swagger-ui-dist npm assets so it works
 * with no internet. It reads the document at /openapi/v1.json.
 */
const require = createRequire(import.meta.url);
const ASSETS = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Portcullis API</title>
<link rel="stylesheet" href="/swagger/swagger-ui.css">
<link rel="icon" href="/swagger/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/swagger/swagger-ui-bundle.js"></script>
<script src="/swagger/swagger-ui-standalone-preset.js"></script>
<script src="/swagger/init.js"></script>
</body>
</html>`;

// Inline scripts would need a CSP exception; the initializer is served as its own file.
const INIT = `window.ui = SwaggerUIBundle({
  url: '/openapi/v1.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  persistAuthorization: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout'
});`;

export function mountDocs(app: Hono<HonoEnv>, document: () => unknown): void {
  const cache = new Map<string, Uint8Array>();
  app.get('/openapi/v1.json', (c) => c.json(document()));
  app.get('/swagger', (c) => c.html(PAGE));
  // One parameter route for everything under /swagger/: a static path beside a parameter at the
  // same level would push Hono from its RegExpRouter to the slower trie router for every request.
  app.get('/swagger/', (c) => c.html(PAGE));
  app.get('/swagger/:file', async (c, next) => {
    const file = c.req.param('file');
    if (file === 'index.html') return c.html(PAGE);
    if (file === 'init.js') return c.body(INIT, 200, { 'content-type': 'application/javascript; charset=utf-8' });
    const type = FILES[file];
    if (!type) return next();
    let bytes = cache.get(file);
    if (!bytes) cache.set(file, (bytes = await readFile(path.join(ASSETS, file))));
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
      'content-type': type,
      'cache-control': 'public, max-age=86400',
    });
  });
}
