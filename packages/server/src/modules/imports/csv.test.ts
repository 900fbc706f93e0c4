import { IMPORT_DELIMITERS, IMPORT_ROWS_MAX } from '@fleetkeep/core';
import { describe, expect, it } from 'vitest';
import { parseCsv as readLubeLogger } from '../fleet-transfer/lubelogger.js';
import { guessDelimiter, readCsv } from './csv.js';
import { FileError, parseCsv } from './parse.js';

const offered = IMPORT_DELIMITERS;
const read = (text: string, skip: 'empty' | 'blank' = 'empty') => readCsv(text, { guess: offered, skip });

/** The edges where papaparse could read otherwise than the readers it replaced (PRODUCT.md "Imports"). */
describe('CSV reading (papaparse)', () => {
  it('keeps a delimiter inside quotes in its cell, and guesses around it', () => {
    expect(read('a;"b;c";d\n1;"2;3";4\n')).toEqual({
      rows: [
        ['a', 'b;c', 'd'],
        ['1', '2;3', '4'],
      ],
      delimiter: ';',
    });
    expect(read('"x,y";b\n"1,5";2\n').delimiter).toBe(';');
  });

  it('keeps line breaks inside quoted cells, a CR LF one read as LF', () => {
    expect(read('name,notes\nOil,"line 1\nline 2"\nBrakes,"a\r\nb"\r\n').rows).toEqual([
      ['name', 'notes'],
      ['Oil', 'line 1\nline 2'],
      ['Brakes', 'a\nb'],
    ]);
  });

  it('tells `;`, `,`, tab and `|` apart, also with decimal commas in the cells', () => {
    expect(guessDelimiter('unit;cost\nTruck;12,50\nVan;3,20\n', offered)).toBe(';');
    expect(guessDelimiter('unit,cost\nTruck,12.50\nVan,3.20\n', offered)).toBe(',');
    expect(guessDelimiter('unit\tcost\nTruck, big\t12,50\n', offered)).toBe('\t');
    expect(guessDelimiter('unit|cost\nTruck|12\n', offered)).toBe('|');
    // One column: nothing splits the lines alike, the first offered delimiter is taken.
    expect(guessDelimiter('unit\nTruck\nVan\n', offered)).toBe(',');
  });

  it('drops a byte order mark, and ends records at CR LF, LF and CR mixed in one file', () => {
    expect(read('\ufeffa,b\r\n1,2\n3,4\r5,6').rows).toEqual([
      ['a', 'b'],
      ['1', '2'],
      ['3', '4'],
      ['5', '6'],
    ]);
  });

  it('leaves out empty lines (a trailing one too); rows of blank cells only when asked', () => {
    expect(read('a,b\n\n1,2\n,\n\n').rows).toEqual([
      ['a', 'b'],
      ['1', '2'],
      ['', ''],
    ]);
    expect(read('a,b\n1,2\n , \n\n', 'blank').rows).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
  });

  it('reads a quote inside an unquoted cell as a character', () => {
    expect(read('size,name\n5",bolt\n').rows).toEqual([
      ['size', 'name'],
      ['5"', 'bolt'],
    ]);
  });

  it('refuses an import file past IMPORT_ROWS_MAX rows after the header', () => {
    const file = (rows: number) => `unit\n${'Truck\n'.repeat(rows)}`;
    expect(parseCsv(file(IMPORT_ROWS_MAX), ',')).toHaveLength(IMPORT_ROWS_MAX + 1);
    expect(() => parseCsv(file(IMPORT_ROWS_MAX + 1), ',')).toThrow(FileError.tooManyRows);
  });

  it('reads LubeLogger exports with semicolons and decimal commas, a BOM and a blank last row', () => {
    expect(readLubeLogger('\ufeffDate;Cost;Notes\r\n1/2/2024;12,50;"a; b"\r\n ; \r\n')).toEqual([
      ['Date', 'Cost', 'Notes'],
      ['1/2/2024', '12,50', 'a; b'],
    ]);
  });
});
