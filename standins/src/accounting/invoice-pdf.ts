/**
 * The PDF of an invoice as the accounting API hands it out (`GET /Invoices/{id}` with `Accept:
 * application/pdf`): one A4 page naming the invoice number, contact, dates, reference and amounts. Written by
 * hand (a PDF 1.4 file with one Helvetica text stream and an exact cross-reference table), so the stand-in
 * needs no PDF library at run time; any reader, pdf-lib included, opens it.
 */

export interface InvoicePdfInput {
  invoiceNumber: string;
  contactName: string;
  reference: string;
  /** YYYY-MM-DD. */
  date: string;
  dueDate: string;
  status: string;
  lines: Array<{ description: string; amount: string }>;
  subTotal: string;
  totalTax: string;
  total: string;
  amountDue: string;
}

/** Text inside a PDF string: printable ASCII only, with the string delimiters escaped. */
const pdfText = (text: string) => text.replace(/[^\x20-\x7e]/g, '?').replace(/[\\()]/g, (c) => `\\${c}`);

export function buildInvoicePdf(input: InvoicePdfInput): Buffer {
  const rows: Array<[size: number, text: string]> = [
    [20, 'TAX INVOICE'],
    [12, `Invoice number: ${input.invoiceNumber}`],
    [11, `To: ${input.contactName}`],
    [11, `Reference: ${input.reference || '-'}`],
    [11, `Date: ${input.date}    Due: ${input.dueDate}    Status: ${input.status}`],
    [11, ''],
    ...input.lines.map((l): [number, string] => [11, `${l.description}    ${l.amount}`]),
    [11, ''],
    [11, `Subtotal: ${input.subTotal}`],
    [11, `GST: ${input.totalTax}`],
    [12, `Total AUD: ${input.total}`],
    [12, `Amount due AUD: ${input.amountDue}`],
  ];
  let y = 780;
  const content = rows
    .map(([size, text]) => {
      const line = `BT /F1 ${size} Tf 56 ${y} Td (${pdfText(text)}) Tj ET`;
      y -= size + 10;
      return line;
    })
    .join('\n');

  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    `<< /Title (Invoice ${pdfText(input.invoiceNumber)}) /Producer (IR Portal accounting stand-in) >>`,
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info ${objects.length} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}
