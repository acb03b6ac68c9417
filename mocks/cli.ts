// `npm start`: the local sandbox. Loads dist/defense-round.js into the mock with the demo scene
// and reads commands from a terminal (prompt; queries and targets are asked) or a pipe (run every
// line, taking defaults and saying so, then exit 0).
//   tsx mocks/cli.ts [--bundle path] [--seed n] [--demo EDITION]
import { createInterface, type Interface } from 'node:readline';
import { CliSession } from './cli-session.js';
import { demoEditions, runDemo } from './cli-demo.js';
import type { Prompter } from './cli-macro.js';

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

function print(text: string): void {
  if (text !== '') process.stdout.write(`${text}\n`);
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += String(chunk);
  return text;
}

/** rl.question as a promise; null once the input is closed (Ctrl-D). */
function questioner(rl: Interface): (question: string) => Promise<string | null> {
  let closed = false;
  rl.on('close', () => void (closed = true));
  rl.on('SIGINT', () => rl.close()); // Ctrl-C leaves, even in the middle of a query
  return (question) =>
    new Promise((resolve) => {
      if (closed) return resolve(null);
      const onClose = (): void => resolve(null);
      rl.once('close', onClose);
      rl.question(question, (answer) => {
        rl.off('close', onClose);
        resolve(answer);
      });
    });
}

async function main(): Promise<void> {
  const bundle = option('--bundle') ?? 'dist/defense-round.js';
  const seed = Number(option('--seed') ?? 1);
  const demo = process.argv.includes('--demo') ? (option('--demo') ?? '') : undefined;
  if (demo !== undefined && !demoEditions().includes(demo)) {
    process.stderr.write(`--demo needs an edition: ${demoEditions().join(', ')} (e.g. npm start -- --demo ${demoEditions()[0]})\n`);
    process.exit(2);
  }
  const interactive = demo === undefined && process.stdin.isTTY === true;
  const rl = interactive ? createInterface({ input: process.stdin, output: process.stdout }) : undefined;
  const ask = rl ? questioner(rl) : undefined;
  const prompter: Prompter | undefined = ask ? { ask } : undefined;

  let started;
  try {
    started = await CliSession.start({
      bundle,
      seed: Number.isFinite(seed) ? seed : 1,
      ...(prompter ? { prompter } : {}),
      ...(demo !== undefined ? { tokenList: 'changed' as const } : {}),
    });
  } catch (error) {
    process.stderr.write(`Cannot start the sandbox: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
  const { session, output } = started;

  if (demo !== undefined) {
    const ok = await runDemo(session, demo, output, print);
    process.exit(ok ? 0 : 1);
  }

  print(`DefenseRound local sandbox (bundle ${bundle}, seed ${seed}). Type "help" for commands.`);
  print(output);

  if (!ask) {
    // Piped: run every line in order, echoing it, so a transcript reads like a session.
    for (const line of (await readAll(process.stdin)).split(/\r?\n/)) {
      if (line.trim() === '') continue;
      print(`${session.prompt()}${line}`);
      const result = await session.run(line);
      print(result.output);
      if (result.quit) break;
    }
    process.exit(0);
  }

  for (;;) {
    const line = await ask(session.prompt());
    if (line === null) break;
    const result = await session.run(line);
    print(result.output);
    if (result.quit) break;
  }
  rl?.close();
  process.exit(0);
}

void main();
