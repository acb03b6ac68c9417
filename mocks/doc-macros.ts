// The macros a doc page offers for pasting: fenced blocks whose every line is a chat command
// (`!...`) and none a usage line (`[--flag ...]`), with the edition of the section they are in: the
// registered edition a `##` heading names in backticks ("The `threshold` edition"), else a new game's.
import { DEFAULT_EDITION, editionIds } from '../src/rules/editions.js';
import type { EditionId } from '../src/rules/edition.js';

export interface DocMacro {
  /** The nearest heading above the block, and the bold line introducing it when there is one. */
  heading: string;
  title: string;
  edition: EditionId;
  /** One block may hold several macros, run one after the other. */
  lines: string[];
}

export function extractMacros(markdown: string): DocMacro[] {
  const macros: DocMacro[] = [];
  let heading = '';
  let title = '';
  let edition: EditionId = DEFAULT_EDITION;
  let block: string[] | undefined;
  for (const line of markdown.split(/\r?\n/)) {
    if (block !== undefined) {
      if (line.startsWith('```')) {
        const lines = block.filter((l) => l.trim() !== '');
        const isMacro = lines.length > 0 && lines.every((l) => l.startsWith('!') && !/(^|[^[])\[--/.test(l));
        if (isMacro) macros.push({ heading, title, edition, lines });
        block = undefined;
      } else block.push(line);
      continue;
    }
    if (line.startsWith('```')) {
      block = [];
      continue;
    }
    const h = /^#{1,6}\s+(.*)$/.exec(line);
    if (h) {
      heading = h[1]!.trim();
      title = '';
      if (/^##\s/.test(line)) edition = editionIds().find((id) => heading.includes(`\`${id}\``)) ?? DEFAULT_EDITION;
      continue;
    }
    const bold = /^\*\*(.+?)\*\*/.exec(line);
    if (bold) title = bold[1]!;
  }
  return macros;
}
