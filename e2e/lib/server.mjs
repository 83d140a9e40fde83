// A tiny static file server for the e2e tests: serves a directory (dist/) under a URL prefix
// ("/" or a sub-path such as "/docs/playground/") on 127.0.0.1, on a free port. Anything outside
// the prefix is a 404, so a bundle that asks for an absolute "/x.wasm" fails under a sub-path.
// A file's brotli or gzip twin (`x.wasm.br`, `x.wasm.gz`, which release builds write:
// scripts/lib/precompress.mjs) is sent instead of it to a browser that accepts that encoding
// (brotli first), as nginx's `brotli_static` and `gzip_static` would.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

/**
 * Starts serving `dir` under `prefix`. Resolves to { url, prefix, requests, close() } where `url`
 * is the page URL (http://127.0.0.1:PORT/prefix/) and `requests` logs [status, path] pairs.
 */
export function startServer({ dir, prefix = '/', port = 0, host = '127.0.0.1' }) {
  if (!prefix.startsWith('/') || !prefix.endsWith('/')) {
    throw new Error(`prefix must start and end with "/": ${prefix}`);
  }
  const root = path.resolve(dir);
  const requests = [];
  const server = http.createServer((req, res) => {
    const send = (status, headers = {}, body = '') => {
      requests.push([status, req.url]);
      res.writeHead(status, headers);
      res.end(body);
    };
    const urlPath = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (urlPath === prefix.slice(0, -1) && prefix !== '/') {
      return send(301, { Location: prefix });
    }
    if (!urlPath.startsWith(prefix)) return send(404, {}, 'not found');
    let file = path.join(root, urlPath.slice(prefix.length));
    if (file !== root && !file.startsWith(root + path.sep)) return send(403, {}, 'forbidden');
    let stat = fs.statSync(file, { throwIfNoEntry: false });
    if (stat?.isDirectory()) {
      if (!urlPath.endsWith('/')) return send(301, { Location: urlPath + '/' });
      file = path.join(file, 'index.html');
      stat = fs.statSync(file, { throwIfNoEntry: false });
    }
    if (!stat?.isFile()) return send(404, {}, 'not found');
    const headers = {
      'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      'Cache-Control': 'no-store',
      Vary: 'Accept-Encoding',
    };
    const accepted = req.headers['accept-encoding'] ?? '';
    for (const [encoding, suffix] of [['br', '.br'], ['gzip', '.gz']]) {
      const twin = file + suffix;
      if (new RegExp(`\\b${encoding}\\b`).test(accepted) && fs.existsSync(twin)) {
        return send(200, { ...headers, 'Content-Encoding': encoding }, fs.readFileSync(twin));
      }
    }
    send(200, headers, fs.readFileSync(file));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const { port: actual } = server.address();
      resolve({
        url: `http://${host}:${actual}${prefix}`,
        prefix,
        requests,
        close: () => new Promise((r) => server.close(r)),
      });
    });
  });
}
