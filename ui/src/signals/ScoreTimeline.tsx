// The score volume over the window: ratings given per bucket (bars) and tags given (a line),
// from /feedback/aggregate with the view's filters. Dragging across it zooms the view there.
import { useMemo } from 'react';
import type { FeedbackAggregateRes } from '../api/types';
import { compact } from '../monitor/monitorFormat';
import { TimeChart, type ChartSeries } from '../monitor/TimeChart';
import { volumeSeries } from './signalBuckets';

export function ScoreTimeline({
  data,
  onBrush,
}: {
  data: FeedbackAggregateRes;
  onBrush: (fromSeconds: number, toSeconds: number) => void;
}) {
  const { x, series } = useMemo(() => {
    const v = volumeSeries(data);
    const s: ChartSeries[] = [
      { label: 'Ratings', color: 'accent', kind: 'bars', values: v.ratings },
      { label: 'Tags', color: 'running', kind: 'line', values: v.tags },
    ];
    return { x: v.starts.map((t) => t / 1000), series: s };
  }, [data]);
  const range = useMemo((): [number, number] => [data.after_ms / 1000, data.before_ms / 1000], [data]);
  return (
    <TimeChart
      testId="score-timeline"
      title="Score volume"
      x={x}
      range={range}
      series={series}
      format={compact}
      height={150}
      onBrush={onBrush}
    />
  );
}
