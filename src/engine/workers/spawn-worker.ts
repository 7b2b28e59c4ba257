/**
 * The one place that starts worker threads.
 *
 * Node 20 cannot load a `.ts` worker entry by itself, and `execArgv: ['--import', 'tsx']` does not
 * help there: tsx 4 registers its hooks from `--import` only on the main thread for Node < 22 (the
 * worker then fails with ERR_UNKNOWN_FILE_EXTENSION). So a TypeScript entry (`.ts` / `.mts` / `.cts`)
 * is started through a two-line bootstrap (`eval: true`) that calls tsx's `register()` from
 * `tsx/esm/api` inside the worker and then imports the entry; everything the entry imports is
 * transpiled the same way. A `.js` / `.mjs` entry (compiled output) is started directly, with the
 * parent's execArgv. tsx is resolved from this module (`import.meta.resolve`), so the worker finds it
 * whatever the current directory is (the bare specifier, resolved from the working directory, is the
 * fallback where `import.meta.resolve` is unavailable).
 *
 * Thread affinity: any thread may spawn. Cost: starting a worker takes tens of milliseconds (a new
 * V8 isolate; a few hundred more the first time tsx transpiles), so spawn at wiring time, never per
 * request. Errors thrown while loading the entry reach the Worker's 'error' event in both cases.
 */
import { statSync } from 'node:fs';
import { Worker, type WorkerOptions } from 'node:worker_threads';

const TS_ENTRY = /\.[cm]?ts$/;

/**
 * Starts `moduleUrl` in a new worker thread with `workerData` (structured-cloned; SharedArrayBuffers
 * inside are shared, not copied). `options` are passed through (not `eval`, which is used for
 * TypeScript entries). Derive the URL with `new URL('./my-worker.js', import.meta.url)`: when no such
 * `.js` file exists but a `.ts` one does (running from sources), the `.ts` file is started, so one
 * call site serves sources and build output.
 */
export function spawnWorker(moduleUrl: URL, workerData?: unknown, options: Omit<WorkerOptions, 'workerData' | 'eval'> = {}): Worker {
  const url = resolveEntry(moduleUrl);
  if (!TS_ENTRY.test(url.pathname)) return new Worker(url, { ...options, workerData });
  const api = JSON.stringify(tsxApi());
  const bootstrap = `import(${api}).then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); });`;
  return new Worker(bootstrap, { ...options, workerData, eval: true });
}

/** Absolute URL of `tsx/esm/api` as seen from this module; the bare specifier where `import.meta.resolve` is missing. */
function tsxApi(): string {
  try {
    return import.meta.resolve('tsx/esm/api');
  } catch {
    return 'tsx/esm/api';
  }
}

/** `x.js` → `x.ts` when only the TypeScript source exists (running from sources). */
function resolveEntry(moduleUrl: URL): URL {
  if (moduleUrl.protocol !== 'file:' || !/\.[cm]?js$/.test(moduleUrl.pathname)) return moduleUrl;
  if (existsUrl(moduleUrl)) return moduleUrl;
  const ts = new URL(moduleUrl.href.replace(/js$/, 'ts'));
  return existsUrl(ts) ? ts : moduleUrl;
}

function existsUrl(url: URL): boolean {
  try {
    return statSync(url).isFile();
  } catch {
    return false;
  }
}
