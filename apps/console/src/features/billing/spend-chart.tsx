"use client";

import { useId } from "react";
import { axisTicks, formatNanos, formatTick, type SpendChartData } from "./spend.ts";
import "./spend-chart.css";

/**
 * Series colours, told apart by hue and lightness; the legend and the table name each one. Each is a
 * token of spend-chart.css with a lighter shade in dark mode, so every bar keeps 3:1 against its card.
 */
const palette = Array.from({ length: 8 }, (_, i) => `var(--spend-series-${i + 1})`);
const OTHERS = "var(--spend-series-others)";
/** More fleets than colours: the rest are drawn as one "Other fleets" series (the table lists each). */
const MAX_SERIES = palette.length;

const WIDTH = 720;
const HEIGHT = 240;
const PAD = { top: 12, right: 8, bottom: 28, left: 64 };

function drawnSeries(data: SpendChartData) {
  if (data.series.length <= MAX_SERIES) {
    return data.series.map((s, i) => ({ ...s, colour: palette[i] ?? OTHERS }));
  }
  const kept = data.series.slice(0, MAX_SERIES - 1).map((s, i) => ({ ...s, colour: palette[i] ?? OTHERS }));
  const rest = data.series.slice(MAX_SERIES - 1);
  const values = data.days.map((_, d) => rest.reduce((sum, s) => sum + (s.values[d] ?? 0), 0));
  return [...kept, { fleetId: "others", name: `Other fleets (${rest.length})`, values, colour: OTHERS }];
}

/**
 * Spend per day this period, stacked per fleet: an SVG drawn here (no chart library), described for
 * assistive technology by its title and summary, with every figure also in the table beneath it.
 */
export function SpendChart({ data, period }: { data: SpendChartData; period: string }) {
  const id = useId();
  const series = drawnSeries(data);
  const ticks = axisTicks(Math.max(0, ...data.totals));
  const top = ticks.at(-1)!;
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const band = plotWidth / Math.max(1, data.days.length);
  const barWidth = Math.max(2, band * 0.7);
  const y = (value: number) => PAD.top + plotHeight - (value / top) * plotHeight;
  const total = data.totals.reduce((a, b) => a + b, 0);
  const busiest = data.totals.reduce((best, value, i) => (value > (data.totals[best] ?? 0) ? i : best), 0);
  const summary =
    total === 0
      ? `Nothing spent in ${period} so far.`
      : `${formatNanos(total)} spent in ${period} over ${data.days.length} days by ${data.series.length} ${
          data.series.length === 1 ? "fleet" : "fleets"
        }; the most on ${data.days[busiest]} (${formatNanos(data.totals[busiest] ?? 0)})${
          data.series[0] ? `, and the biggest spender is ${data.series[0].name}` : ""
        }.`;
  const labelEvery = Math.max(1, Math.ceil(data.days.length / 8));

  return (
    <figure className="spend-chart" aria-labelledby={`${id}-caption`}>
      <figcaption id={`${id}-caption`} className="spend-chart__caption">
        Spend per day per fleet, {period} (UTC days)
      </figcaption>
      <svg
        className="spend-chart__svg"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-desc`}
        data-days={data.days.length}
        data-series={data.series.length}
      >
        <title id={`${id}-title`}>Spend per day per fleet in {period}</title>
        <desc id={`${id}-desc`}>{summary}</desc>
        {ticks.map((tick) => (
          <g key={tick}>
            <line
              x1={PAD.left}
              x2={WIDTH - PAD.right}
              y1={y(tick)}
              y2={y(tick)}
              className="spend-chart__grid"
            />
            <text
              x={PAD.left - 6}
              y={y(tick)}
              className="spend-chart__tick"
              textAnchor="end"
              dominantBaseline="middle"
            >
              {formatTick(tick, ticks[1]!)}
            </text>
          </g>
        ))}
        {data.days.map((day, d) => {
          let base = 0;
          const x = PAD.left + d * band + (band - barWidth) / 2;
          return (
            <g key={day}>
              {series.map((s) => {
                const value = s.values[d] ?? 0;
                if (value <= 0) return null;
                const from = base;
                base += value;
                return (
                  <rect
                    key={s.fleetId}
                    x={x}
                    y={y(base)}
                    width={barWidth}
                    height={Math.max(0.5, y(from) - y(base))}
                    style={{ fill: s.colour }}
                    data-fleet={s.fleetId}
                    data-day={day}
                  >
                    <title>{`${day} · ${s.name}: ${formatNanos(value)}`}</title>
                  </rect>
                );
              })}
              {d % labelEvery === 0 ? (
                <text x={x + barWidth / 2} y={HEIGHT - 8} className="spend-chart__tick" textAnchor="middle">
                  {day.slice(8)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      {series.length > 0 ? (
        <ul className="spend-chart__legend" aria-label="Fleets in the chart">
          {series.map((s) => (
            <li key={s.fleetId}>
              <span className="spend-chart__swatch" style={{ background: s.colour }} aria-hidden="true" />
              {s.name}
            </li>
          ))}
        </ul>
      ) : null}
      <details className="spend-chart__table">
        <summary>Show the figures as a table</summary>
        <div className="spend-chart__scroll">
          <table className="ui-table">
            <caption className="ui-visually-hidden">Spend per day per fleet, {period}</caption>
            <thead>
              <tr>
                <th scope="col">Day (UTC)</th>
                {data.series.map((s) => (
                  <th scope="col" key={s.fleetId}>
                    {s.name}
                  </th>
                ))}
                <th scope="col">Total</th>
              </tr>
            </thead>
            <tbody>
              {data.days.map((day, d) => (
                <tr key={day}>
                  <th scope="row">{day}</th>
                  {data.series.map((s) => (
                    <td key={s.fleetId}>{formatNanos(s.values[d] ?? 0)}</td>
                  ))}
                  <td>{formatNanos(data.totals[d] ?? 0)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
