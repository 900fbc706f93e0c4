import Papa from 'papaparse';

/**
 * RFC 4180 CSV reading shared by the imports (PRODUCT.md "Imports") and the LubeLogger transfer, on
 * papaparse: quoted cells with doubled quotes and line breaks, the delimiter guessed among the offered
 * ones when not given (the one that splits the first lines into the same number of cells, more than one).
 */

export interface CsvReading {
  /** The delimiter; guessed among `guess` when not given. */
  delimiter?: string;
  guess: readonly string[];
  /** `blank`: rows of blank cells are left out too; `empty`: only lines with nothing on them. */
  skip: 'empty' | 'blank';
  /** Sees every record as it is read; a throw stops the reading. */
  check?: (row: string[], index: number) => void;
}

/**
 * CR LF, LF and lone CR all end a record, mixed in one file too (papaparse takes one line break per
 * file). A line break inside a quoted cell is read as LF.
 */
const oneLineBreak = (text: string) => text.replace(/\r\n?/g, '\n');

/** The delimiter among `guess` papaparse finds in the first lines; the first offered one when none fits. */
export function guessDelimiter(text: string, guess: readonly string[]): string {
  const found = Papa.parse<string[]>(oneLineBreak(text), {
    delimitersToGuess: [...guess],
    newline: '\n',
    preview: 1,
    skipEmptyLines: true,
  }).meta.delimiter;
  return guess.includes(found) ? found : (guess[0] ?? ',');
}

/** The records of `text` (a leading byte order mark dropped) and the delimiter they were read with. */
export function readCsv(text: string, reading: CsvReading): { rows: string[][]; delimiter: string } {
  const input = oneLineBreak(text.replace(/^\ufeff/, ''));
  const delimiter = reading.delimiter ?? guessDelimiter(input, reading.guess);
  const rows: string[][] = [];
  Papa.parse<string[]>(input, {
    delimiter,
    newline: '\n',
    quoteChar: '"',
    skipEmptyLines: reading.skip === 'blank' ? 'greedy' : true,
    step: (result) => {
      reading.check?.(result.data, rows.length);
      rows.push(result.data);
    },
  });
  return { rows, delimiter };
}
