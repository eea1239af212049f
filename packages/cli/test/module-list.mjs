// Preloaded (`node --import`) into a CLI process by startup.test.ts: writes every module file the
// process loaded (ES modules through a load hook, CommonJS through the resolver) to
// $GLTF_LEGACY_MODULE_LIST at exit, one file URL or path a line.
import { writeFileSync } from 'node:fs';
import Module, { register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';

const files = new Set();
const { port1, port2 } = new MessageChannel();
port1.on('message', (url) => files.add(url));
port1.unref();
const hooks = `let port;
export function initialize(data) { port = data.port; }
export async function load(url, context, next) { port.postMessage(url); return next(url, context); }`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`, {
  data: { port: port2 },
  transferList: [port2],
});
const resolve = Module._resolveFilename;
Module._resolveFilename = function (...args) {
  const file = resolve.apply(this, args);
  files.add(file);
  return file;
};
process.on('exit', () => {
  const list = [...files].filter((f) => !f.startsWith('node:') && f.includes('/'));
  writeFileSync(process.env.GLTF_LEGACY_MODULE_LIST, `${list.join('\n')}\n`);
});
