// ./play's server: dist/ on http://127.0.0.1:PORT/ with the e2e tests' static server, which sends
// a file's gzip twin to browsers that accept gzip (what the bundle budget of issue 7 counts).
//   node scripts/serve.mjs DIR PORT
import { startServer } from '../e2e/lib/server.mjs';

const [dir, port] = process.argv.slice(2);
const server = await startServer({ dir, port: Number(port) });
console.log(`SQS Playground is served on ${server.url}  (Ctrl-C to stop)`);
