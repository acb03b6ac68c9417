// What the mock needs from Node and a browser lacks, shimmed without changing the mock:
// mocks/scheduler.ts captures globalThis.setImmediate when it loads (so this module is imported
// first), to run due work on the next macrotask. A MessageChannel gives the same: a macrotask
// without setTimeout's clamping.
type Immediate = (callback: (...args: unknown[]) => void, ...args: unknown[]) => unknown;
const target = globalThis as unknown as { setImmediate?: Immediate };

if (typeof target.setImmediate !== 'function') {
  const queue: Array<() => void> = [];
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    const next = queue.shift();
    if (next) next();
  };
  let counter = 0;
  target.setImmediate = (callback, ...args) => {
    queue.push(() => callback(...args));
    channel.port2.postMessage(null);
    return ++counter;
  };
}

export {};
