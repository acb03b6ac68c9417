// `npm start`: the local sandbox. Loads dist/defense-round.js into the mock with the demo scene
// and reads commands from a terminal (prompt) or a pipe (run every line, then exit 0).
//   tsx mocks/cli.ts [--bundle path] [--seed n]
import { createInterface } from 'node:readline';
import { CliSession } from './cli-session.js';

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

async function main(): Promise<void> {
  const bundle = option('--bundle') ?? 'dist/defense-round.js';
  const seed = Number(option('--seed') ?? 1);
  let started;
  try {
    started = await CliSession.start({ bundle, seed: Number.isFinite(seed) ? seed : 1 });
  } catch (error) {
    process.stderr.write(`Cannot start the sandbox: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
  const { session, output } = started;
  print(`DefenseRound local sandbox (bundle ${bundle}, seed ${seed}). Type "help" for commands.`);
  print(output);

  if (!process.stdin.isTTY) {
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

  const rl = createInterface({ input: process.stdin, output: process.stdout });
  rl.setPrompt(session.prompt());
  rl.prompt();
  for await (const line of rl) {
    const result = await session.run(line);
    print(result.output);
    if (result.quit) break;
    rl.setPrompt(session.prompt());
    rl.prompt();
  }
  rl.close();
  process.exit(0);
}

void main();
