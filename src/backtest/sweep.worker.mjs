// Piscina entry for sweep.worker.ts when running from TypeScript sources: Node 20 does not pass tsx's
// `--import` hooks to worker threads, so this file registers tsx inside the worker, then loads the tasks.
import { register } from 'tsx/esm/api';

register();
const { default: sweepTask, queueTask } = await import('./sweep.worker.ts');

export default sweepTask;
export { queueTask };
