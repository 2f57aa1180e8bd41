import pdfmake from 'pdfmake';

/** The 14 standard PDF fonts need no font files; nothing else may be read from disk or fetched. */
const STANDARD_FONTS = new Set(['Helvetica', 'Helvetica-Bold', 'Helvetica-Oblique', 'Helvetica-BoldOblique']);
let configured = false;

function configure(): void {
  if (configured) return;
  pdfmake.setFonts({
    Helvetica: {
      normal: 'Helvetica',
      bold: 'Helvetica-Bold',
      italics: 'Helvetica-Oblique',
      bolditalics: 'Helvetica-BoldOblique',
    },
  });
  pdfmake.setUrlAccessPolicy(() => false);
  pdfmake.setLocalAccessPolicy((path) => STANDARD_FONTS.has(path));
  configured = true;
}

/** Renders a pdfmake document definition to PDF bytes. */
export async function renderPdf(docDefinition: object): Promise<Buffer> {
  configure();
  return pdfmake.createPdf(docDefinition).getBuffer();
}
