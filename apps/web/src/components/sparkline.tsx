import { formatNumber } from "~/lib/format";

const WIDTH = 96;
const HEIGHT = 24;

/** Hourly means of the last 24 hours as a small line; its label says the range, for screen readers. */
export function Sparkline({ values, state }: { values: (number | null)[]; state: string }) {
  const present = values.filter((v): v is number => v !== null);
  if (present.length < 2) return <span className="muted">—</span>;
  const min = Math.min(...present);
  const max = Math.max(...present);
  const y = (v: number) => (max === min ? HEIGHT / 2 : HEIGHT - 2 - ((v - min) / (max - min)) * (HEIGHT - 4));
  const x = (i: number) => (i / (values.length - 1)) * WIDTH;
  // A gap (an hour without points) breaks the line rather than bridging it.
  const segments: string[] = [];
  let current = "";
  values.forEach((v, i) => {
    if (v === null) {
      if (current) segments.push(current);
      current = "";
      return;
    }
    current += `${current ? "L" : "M"}${x(i).toFixed(1)},${y(v).toFixed(1)}`;
  });
  if (current) segments.push(current);
  return (
    <svg
      className={`sparkline sparkline-${state.toLowerCase()}`}
      width={WIDTH}
      height={HEIGHT}
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="img"
      aria-label={`last 24 h: from ${formatNumber(min)} to ${formatNumber(max)}, now ${formatNumber(present.at(-1))}`}
    >
      <path d={segments.join("")} fill="none" strokeWidth={1.5} />
    </svg>
  );
}
