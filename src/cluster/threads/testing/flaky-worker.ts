// A worker entry for component-thread.test.ts: starts, answers `shutdown` as a component does; with
// workerData.launches (a shared counter) its first launch dies soon after starting (an uncaught error, as a
// component's bug would); workerData.failStart makes it report a failed start instead.

import { parentPort, workerData } from 'node:worker_threads';
import type { ThreadControl } from '../component-thread.js';

const data = workerData as { failStart?: boolean; launches?: Int32Array };
const port = parentPort!;
const post = (m: ThreadControl) => port.postMessage(m);
port.on('message', (m: ThreadControl) => {
  if (m?.t !== 'shutdown') return;
  post({ t: 'stopped' });
  port.close();
});
if (data.failStart) post({ t: 'failed', error: 'cannot start' });
else {
  const launch = data.launches ? Atomics.add(data.launches, 0, 1) + 1 : 1;
  post({ t: 'started', detail: `launch ${launch}` });
  if (data.launches && launch === 1) setTimeout(() => { throw new Error('component bug'); }, 10);
}
