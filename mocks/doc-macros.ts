// The macros a doc page offers for pasting: fenced blocks whose every line is a chat command
// (`!...`) and none a usage line (`[--flag ...]`), with the edition of the section they are in.
export interface DocMacro {
  /** The nearest heading above the block, and the bold line introducing it when there is one. */
  heading: string;
  title: string;
  edition: 'soak' | 'threshold' | 'opposed';
  /** One block may hold several macros, run one after the other. */
  lines: string[];
}

export function extractMacros(markdown: string): DocMacro[] {
  const macros: DocMacro[] = [];
  let heading = '';
  let title = '';
  let edition: DocMacro['edition'] = 'soak';
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
      if (/^##\s/.test(line)) edition = /`threshold`/.test(heading) ? 'threshold' : /`opposed`/.test(heading) ? 'opposed' : 'soak';
      continue;
    }
    const bold = /^\*\*(.+?)\*\*/.exec(line);
    if (bold) title = bold[1]!;
  }
  return macros;
}
