/** Left-aligned columns separated by two spaces, with a header row; no trailing spaces. Linear in the cells (no spread of the rows into one call). */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h) => h.length);
  for (const row of rows) {
    for (let i = 0; i < widths.length; i++) {
      const length = (row[i] ?? "").length;
      if (length > (widths[i] ?? 0)) widths[i] = length;
    }
  }
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  const out: string[] = [line(header)];
  for (const row of rows) out.push(line(row));
  return out.join("\n") + "\n";
}
