import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import * as common from "@zxcvbn-ts/language-common";
import * as en from "@zxcvbn-ts/language-en";

/**
 * NIST SP 800-63B (5.1.1.2): a new password is checked against passwords known to be common,
 * dictionary words, repetitive or sequential characters and context words (the user's name,
 * email, organisation), with no composition rules. zxcvbn-ts does this with its maintained
 * dictionaries (common passwords, English words, names, keyboard patterns); a password must
 * score at least MIN_SCORE (about 10^8 guesses or more; 4, 10^10, when it is built on the user's
 * own words) and be at least MIN_PASSWORD_LENGTH long.
 */

export const MIN_PASSWORD_LENGTH = 10;
export const MIN_SCORE = 3;

let factory: ZxcvbnFactory | undefined;

function estimator(): ZxcvbnFactory {
  // The dictionaries are large: built on first use, once per process.
  factory ??= new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...en.dictionary },
    graphs: common.adjacencyGraphs,
    translations: en.translations,
  });
  return factory;
}

/** Why `password` may not be used, or null when it may. `context`: the user's own words (email, name, organisation). */
export function passwordWeakness(password: string, context: string[] = []): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `use at least ${MIN_PASSWORD_LENGTH} characters`;
  const words = context.flatMap((c) => c.toLowerCase().split(/[^\p{L}\p{N}]+/u)).filter((w) => w.length >= 3);
  const result = estimator().check(password, words);
  const usesOwnWords = result.sequence.some((match) => "dictionaryName" in match && match.dictionaryName === "userInputs");
  if (result.score >= (usesOwnWords ? 4 : MIN_SCORE)) return null;
  const advice = [result.feedback.warning, ...result.feedback.suggestions].filter(Boolean).join(" ");
  return `this password is too easy to guess${advice ? `: ${advice}` : ""} A few unrelated words make a strong one.`;
}
