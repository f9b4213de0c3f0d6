"use client";

import { useQuery } from "@tanstack/react-query";
import { ExprError, FUNCTIONS, parse } from "@tidemark/expr";
import { type KeyboardEvent, type ReactNode, useId, useMemo, useRef, useState } from "react";
import { useTRPC } from "~/trpc/react";
import { tokenize, wordBefore } from "./expression-tokens";

export interface ExpressionProblem {
  message: string;
  offset: number;
}

/** The parser's verdict on a source: null when it parses. */
export function expressionProblem(source: string): ExpressionProblem | null {
  try {
    parse(source);
    return null;
  } catch (error) {
    if (error instanceof ExprError) return { message: error.message, offset: error.position.offset };
    throw error;
  }
}

interface Suggestion {
  label: string;
  insert: string;
  detail: string;
}

function highlighted(source: string, errorAt: number | null): ReactNode[] {
  const nodes: ReactNode[] = [];
  for (const token of tokenize(source)) {
    const end = token.start + token.text.length;
    if (errorAt !== null && errorAt >= token.start && errorAt < end) {
      const cut = errorAt - token.start;
      nodes.push(
        <span key={token.start} className={`tok-${token.kind}`}>
          {token.text.slice(0, cut)}
          <span className="expr-error-at">{token.text.slice(cut, cut + 1)}</span>
          {token.text.slice(cut + 1)}
        </span>,
      );
    } else {
      nodes.push(
        <span key={token.start} className={`tok-${token.kind}`}>
          {token.text}
        </span>,
      );
    }
  }
  if (errorAt !== null && errorAt >= source.length)
    nodes.push(
      <span key="end" className="expr-error-at expr-error-end">
        {" "}
      </span>,
    );
  return nodes;
}

/**
 * A Bischeck expression field: highlighted as typed, the parser's error shown at its position,
 * series the organisation does not have (`seriesProblem`, from the editor) said at the field, and
 * autocomplete of functions and of the organisation's series names.
 */
export function ExpressionInput({
  value,
  onChange,
  label,
  seriesProblem = null,
}: {
  value: string;
  onChange: (v: string) => void;
  label: string;
  seriesProblem?: string | null;
}) {
  const trpc = useTRPC();
  const listId = useId();
  const ref = useRef<HTMLTextAreaElement>(null);
  const backdrop = useRef<HTMLPreElement>(null);
  const [caret, setCaret] = useState<number | null>(null);
  const [active, setActive] = useState(0);
  const problem = useMemo(() => expressionProblem(value), [value]);
  const messageId = useId();
  const message = problem?.message ?? seriesProblem;
  const word = caret === null ? null : wordBefore(value, caret);
  const series = useQuery({
    ...trpc.config.seriesKeys.queryOptions({ prefix: word?.text ?? "", limit: 8 }),
    enabled: word !== null && word.text.length >= 1,
    staleTime: 60_000,
  });
  const suggestions: Suggestion[] = word
    ? [
        ...FUNCTIONS.filter((f) => f.name.startsWith(word.text.toLowerCase()) && f.name !== word.text).map((f) => ({
          label: f.signature,
          insert: `${f.name}(`,
          detail: f.description,
        })),
        ...(series.data ?? []).filter((k) => k !== word.text).map((k) => ({ label: k, insert: k, detail: "series" })),
      ].slice(0, 8)
    : [];

  function accept(s: Suggestion) {
    if (!word || caret === null) return;
    const next = value.slice(0, word.start) + s.insert + value.slice(caret);
    onChange(next);
    const at = word.start + s.insert.length;
    setCaret(null);
    requestAnimationFrame(() => {
      ref.current?.focus();
      ref.current?.setSelectionRange(at, at);
    });
  }

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    // An expression is one line: Enter takes a completion or does nothing, never a newline.
    if (e.key === "Enter" && suggestions.length === 0) {
      e.preventDefault();
      return;
    }
    if (suggestions.length === 0) return;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      setActive((a) => (a + (e.key === "ArrowDown" ? 1 : suggestions.length - 1)) % suggestions.length);
    } else if (e.key === "Enter" || e.key === "Tab") {
      e.preventDefault();
      accept(suggestions[Math.min(active, suggestions.length - 1)] as Suggestion);
    } else if (e.key === "Escape") {
      // Closes the list only (the editor's Escape, discarding changes, is for when nothing is open).
      e.preventDefault();
      setCaret(null);
    }
  }

  return (
    <div className="expr">
      <div className={`expr-field${message ? " has-error" : ""}`}>
        <pre ref={backdrop} className="expr-backdrop" aria-hidden="true">
          {highlighted(value, problem?.offset ?? null)}
          {"\n"}
        </pre>
        <textarea
          ref={ref}
          aria-label={label}
          aria-invalid={message !== null}
          aria-describedby={message ? messageId : undefined}
          aria-autocomplete="list"
          aria-controls={listId}
          spellCheck={false}
          rows={1}
          value={value}
          onChange={(e) => {
            onChange(e.target.value.replace(/[\r\n]+/g, " "));
            setCaret(e.target.selectionStart);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
          onClick={(e) => setCaret(e.currentTarget.selectionStart)}
          onBlur={() => setTimeout(() => setCaret(null), 150)}
          onScroll={(e) => {
            if (backdrop.current) backdrop.current.scrollTop = e.currentTarget.scrollTop;
          }}
        />
      </div>
      {suggestions.length > 0 && (
        <div className="expr-suggestions" id={listId} role="listbox">
          {suggestions.map((s, i) => (
            <div
              key={s.label}
              role="option"
              tabIndex={-1}
              aria-selected={i === active}
              onMouseDown={(e) => {
                e.preventDefault();
                accept(s);
              }}
            >
              <span className="mono">{s.label}</span> <span className="muted">{s.detail}</span>
            </div>
          ))}
        </div>
      )}
      {message && (
        <p id={messageId} className="field-error expr-message" role="alert">
          {message}
        </p>
      )}
    </div>
  );
}
