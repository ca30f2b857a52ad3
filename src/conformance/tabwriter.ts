/**
 * Go's `text/tabwriter` as the CLI configures it (`NewWriter(w, 0, 2, 2, ' ', 0)`:
 * minwidth 0, padding 2, padded with spaces, no flags), applied to a whole text.
 *
 * A cell is text terminated by a tab (or `\v`); the text after a line's last
 * terminator is not a cell and is never padded. A column block is a run of
 * consecutive lines that all have a cell in that column; every cell of a block is
 * padded with spaces to the block's widest cell (counted in runes) plus the
 * padding. As in Go, formatting recurses column by column, so a line with fewer
 * cells ends the blocks to its right, and `\f` is written as a newline that ends
 * every block.
 * @internal Does not follow semver.
 */
export function tabwrite(text: string, padding = 2): string {
  return text
    .split("\f")
    .map((section) => formatSection(section, padding))
    .join("\n");
}

function formatSection(text: string, padding: number): string {
  const lines = text.split("\n").map((line) => line.split(/[\t\v]/));
  const widths: number[] = [];
  const out: string[] = [];
  const cellCount = (i: number): number => (lines[i] as string[]).length;

  const writeLines = (line0: number, line1: number): void => {
    for (let i = line0; i < line1; i++) {
      let text = "";
      (lines[i] as string[]).forEach((c, j) => {
        text += c;
        const w = widths[j];
        if (w !== undefined) text += " ".repeat(Math.max(0, w - runes(c)));
      });
      out[i] = text;
    }
  };

  // tabwriter.format(): `widths` holds the widths of the columns left of `column`.
  const format = (line0: number, line1: number): void => {
    const column = widths.length;
    let start = line0;
    for (let i = line0; i < line1; i++) {
      if (column >= cellCount(i) - 1) continue;
      writeLines(start, i);
      start = i;
      let width = 0;
      for (; i < line1 && column < cellCount(i) - 1; i++) {
        width = Math.max(width, runes((lines[i] as string[])[column] as string) + padding);
      }
      widths.push(width);
      format(start, i);
      widths.pop();
      start = i;
    }
    writeLines(start, line1);
  };

  format(0, lines.length);
  return out.join("\n");
}

function runes(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}
