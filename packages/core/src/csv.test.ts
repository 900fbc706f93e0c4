import { describe, expect, it } from 'vitest';
import { CSV_BOM, csvField, csvLine, csvSafe } from './csv.js';

describe('CSV conventions', () => {
  it('neutralises cells a spreadsheet would run as formulas, keeps plain numbers and text', () => {
    for (const evil of ['=HYPERLINK("http://x")', '+1+cmd', '-2+3', '@SUM(A1)', '\tx', '\rx'])
      expect(csvSafe(evil)).toBe(`'${evil}`);
    for (const plain of ['-12', '+3', '-1 234.5', '0.125', 'Diesel', 'a=b', '', 'Ölwechsel'])
      expect(csvSafe(plain)).toBe(plain);
  });

  it('quotes fields as RFC 4180 says', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\rx')).toBe('"cr\rx"');
  });

  it('writes records with CRLF, empty cells for null, neutralised and quoted cells', () => {
    expect(csvLine(['A', 1.5, null, undefined, '=1+1', 'x,"y"'])).toBe(`A,1.5,,,'=1+1,"x,""y"""\r\n`);
    expect(csvLine([-3])).toBe('-3\r\n');
    expect(CSV_BOM.charCodeAt(0)).toBe(0xfeff);
  });
});
