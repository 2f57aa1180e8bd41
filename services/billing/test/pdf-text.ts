import { inflateSync } from 'node:zlib';

/**
 * Text of a PDF (billing's integration suites and the end-to-end money walk): inflates its content streams and
 * decodes the strings of the text operators (TJ/Tj). pdfkit writes standard-font text as hex strings, split at
 * kerning adjustments; lines of the document become lines of text.
 */
export function pdfText(pdf: Buffer): string {
  const out: string[] = [];
  const bytes = pdf.toString('latin1');
  const re = /stream\r?\n/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(bytes))) {
    const start = m.index + m[0].length;
    const end = bytes.indexOf('endstream', start);
    if (end < 0) break;
    const raw = pdf.subarray(start, end);
    let content: string;
    try {
      content = inflateSync(raw).toString('latin1');
    } catch {
      content = raw.toString('latin1');
    }
    for (const op of content.matchAll(
      /\[((?:<[0-9a-fA-F]*>|\((?:\\.|[^\\)])*\)|[-\d.\s])*)\]\s*TJ|(<[0-9a-fA-F]*>|\((?:\\.|[^\\)])*\))\s*Tj/g,
    )) {
      const body = op[1] ?? op[2] ?? '';
      let text = '';
      for (const part of body.matchAll(/<([0-9a-fA-F]*)>|\(((?:\\.|[^\\)])*)\)/g)) {
        if (part[1] !== undefined) text += Buffer.from(part[1], 'hex').toString('latin1');
        else text += (part[2] ?? '').replace(/\\(.)/g, '$1');
      }
      out.push(text);
    }
    re.lastIndex = end;
  }
  // pdfkit writes one text operator per word, each but a line's last ending with its space.
  return out.reduce(
    (text, word) => (text === '' || text.endsWith(' ') ? text + word : `${text}\n${word}`),
    '',
  );
}
