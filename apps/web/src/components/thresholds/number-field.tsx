"use client";

import { useEffect, useState } from "react";
import { parseNumber } from "./policy-draft";

/**
 * A number input that keeps what is being typed ("1.", "-") while reporting parsed numbers,
 * and follows the value when it changes elsewhere (a drag on the chart, a suggestion).
 */
export function NumberField({
  value,
  onChange,
  label,
  className,
  invalid,
}: {
  value: number | null;
  onChange: (v: number | null) => void;
  label: string;
  className?: string;
  invalid?: boolean;
}) {
  const [text, setText] = useState(value === null ? "" : String(value));
  useEffect(() => {
    setText((current) => (parseNumber(current) === value ? current : value === null ? "" : String(value)));
  }, [value]);
  return (
    <input
      className={className}
      inputMode="decimal"
      aria-label={label}
      aria-invalid={invalid || (text.trim() !== "" && parseNumber(text) === null)}
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        onChange(parseNumber(e.target.value));
      }}
    />
  );
}
