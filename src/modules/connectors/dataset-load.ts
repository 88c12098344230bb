import { setImmediate as nextTurn } from 'node:timers/promises';
import { Lexer } from 'yaml';
import { CstReader, finishYaml, type LoadedDataset, loadValue, textTooLong } from './dataset-load.fns.js';

/** The longest the YAML reading runs before it lets the event loop take a turn, ms. */
export const READ_SLICE_MS = 8;

/**
 * {@link loadDatasetInput} for the API (PRODUCT §2.17, "Bounds"): the same answer, but a YAML
 * text's lexing and CST parsing (about two thirds of its cost) run in slices of at most
 * {@link READ_SLICE_MS} ms with a turn of the event loop between them, so a large dataset or an
 * alias bomb does not hold other requests (`/healthz` among them) for the whole parse. The
 * composition, the measure of its aliases and the bounds then run in one piece.
 */
export async function loadDatasetInputYielding(input: unknown): Promise<LoadedDataset> {
  if (typeof input !== 'string') return loadValue(input);
  const long = textTooLong(input);
  if (long) return long;
  const reader = new CstReader(input);
  let sliceStart = performance.now();
  for (const lexeme of new Lexer().lex(input)) {
    if (!reader.feed(lexeme)) break;
    if (performance.now() - sliceStart > READ_SLICE_MS) {
      await nextTurn();
      sliceStart = performance.now();
    }
  }
  return finishYaml(reader);
}
