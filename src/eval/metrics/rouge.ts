import { stemmer } from "stemmer";

/** ROUGE-1 of a candidate against a reference: the share of matching words each way, and their harmonic mean. */
export interface RougeScore {
  precision: number;
  recall: number;
  fmeasure: number;
}

/** Options of {@link rouge1}. */
export interface RougeOptions {
  /**
   * The word stemmer applied to ASCII words longer than three letters, as
   * `rouge_score` applies NLTK's Porter stemmer for ADK. By default
   * {@link porterStem}; `false` compares words unstemmed.
   */
  stem?: ((word: string) => string) | false;
}

const NON_ASCII = /[^\x00-\x7F]/;

/** The irregular forms NLTK's Porter stemmer (its default mode, which `rouge_score` uses) stems by a table first. */
const NLTK_IRREGULAR_FORMS: Readonly<Record<string, string>> = {
  skies: "sky",
  sky: "sky",
  dying: "die",
  lying: "lie",
  tying: "tie",
  news: "news",
  innings: "inning",
  inning: "inning",
  outings: "outing",
  outing: "outing",
  cannings: "canning",
  canning: "canning",
  howe: "howe",
  proceed: "proceed",
  exceed: "exceed",
  succeed: "succeed",
};

/**
 * Martin Porter's stemmer (the `stemmer` package), with the irregular forms
 * NLTK's default mode takes from its table; NLTK's other extensions change
 * the stems of few English words (see docs/adk-compat.md).
 */
export function porterStem(word: string): string {
  return NLTK_IRREGULAR_FORMS[word] ?? stemmer(word);
}

/**
 * Words as `rouge_score`'s default tokenizer makes them: lower-cased, every run
 * of characters other than `a-z0-9` a separator; with a stemmer, words longer
 * than three letters stemmed. When either text holds non-ASCII characters, ADK
 * switches to its own tokenizer, and so does this: split on white space, each
 * non-ASCII word split into its characters, ASCII words stripped of anything
 * but `a-z0-9`, and nothing stemmed.
 */
export function rougeTokens(text: string, options: { unicode: boolean; stem?: (word: string) => string }): string[] {
  const lowered = text.toLowerCase();
  if (options.unicode) {
    return lowered.split(/\s+/).flatMap((word) => {
      if (!word) return [];
      if (NON_ASCII.test(word)) return [...word];
      const cleaned = word.replace(/[^a-z0-9]/g, "");
      return cleaned ? [cleaned] : [];
    });
  }
  const words = lowered.replace(/[^a-z0-9]+/g, " ").split(" ").filter((word) => word !== "");
  const stem = options.stem;
  return stem ? words.map((word) => (word.length > 3 ? stem(word) : word)).filter((word) => /^[a-z0-9]+$/.test(word)) : words;
}

function counts(tokens: readonly string[]): Map<string, number> {
  const map = new Map<string, number>();
  for (const token of tokens) map.set(token, (map.get(token) ?? 0) + 1);
  return map;
}

/**
 * ROUGE-1 as ADK's `response_match_score` computes it with `rouge_score`:
 *
 * overlap = Σ over words w of min(count of w in candidate, count of w in reference)
 * precision = overlap / max(candidate words, 1), recall = overlap / max(reference words, 1)
 * fmeasure = 2·precision·recall / (precision + recall), or 0 when both are 0.
 */
export function rouge1(candidate: string, reference: string, options: RougeOptions = {}): RougeScore {
  const unicode = NON_ASCII.test(candidate) || NON_ASCII.test(reference);
  const stem = options.stem === false ? undefined : (options.stem ?? porterStem);
  const candidateTokens = rougeTokens(candidate, { unicode, stem });
  const referenceTokens = rougeTokens(reference, { unicode, stem });
  const referenceCounts = counts(referenceTokens);
  let overlap = 0;
  for (const [token, count] of counts(candidateTokens)) overlap += Math.min(count, referenceCounts.get(token) ?? 0);
  const precision = overlap / Math.max(candidateTokens.length, 1);
  const recall = overlap / Math.max(referenceTokens.length, 1);
  const fmeasure = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, fmeasure };
}
