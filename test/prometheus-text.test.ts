// The strict Prometheus text parser of test/helpers/prometheus-text.ts: what it reads, and
// that it refuses what Prometheus would (so the /metrics tests check the format, not just values).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePrometheusText, sampleSum } from './helpers/prometheus-text.js';

const GOOD = `# HELP req_total Requests, with a \\\\ and a \\n in the help.
# TYPE req_total counter
req_total{route="/a",status="200"} 3
req_total{route="/b\\"q\\\\",status="500",} 1 1700000000000
# TYPE lat_seconds histogram
lat_seconds_bucket{le="0.1"} 1
lat_seconds_bucket{le="1"} 2
lat_seconds_bucket{le="+Inf"} 3
lat_seconds_sum 4.5
lat_seconds_count 3
# a comment
up NaN
down +Inf
`;

test('reads families, types, help, escaped labels, special values', () => {
  const m = parsePrometheusText(GOOD);
  assert.equal(m.get('req_total')?.type, 'counter');
  assert.equal(m.get('req_total')?.help, 'Requests, with a \\ and a \n in the help.');
  assert.equal(sampleSum(m, 'req_total'), 4);
  assert.equal(sampleSum(m, 'req_total', { route: '/b"q\\' }), 1);
  assert.equal(m.get('lat_seconds')?.samples.length, 5);
  assert.equal(sampleSum(m, 'lat_seconds_count'), 3);
  assert.ok(Number.isNaN(m.get('up')?.samples[0]?.value));
  assert.equal(m.get('down')?.type, 'untyped');
  assert.equal(sampleSum(m, 'down'), Infinity);
});

test('refuses what the format does not allow', () => {
  const bad: Record<string, [string, RegExp]> = {
    'no final newline': ['a 1', /newline/],
    'bad metric name': ['1a 1\n', /bad metric name/],
    'bad label name': ['a{1x="v"} 1\n', /bad label name/],
    'unquoted label value': ['a{x=v} 1\n', /not quoted/],
    'bad escape': ['a{x="\\t"} 1\n', /bad escape/],
    'unterminated labels': ['a{x="v" 1\n', /expected , or }/],
    'bad value': ['a 1,5\n', /bad value/],
    'no value': ['a\n', /expected a value/],
    'bad timestamp': ['a 1 noon\n', /bad timestamp/],
    'duplicate series': ['a{x="1"} 1\na{x="1"} 2\n', /duplicate series/],
    'duplicate label': ['a{x="1",x="2"} 1\n', /given twice/],
    'TYPE after samples': ['a 1\n# TYPE a gauge\n', /after its samples/],
    'TYPE twice': ['# TYPE a gauge\n# TYPE a gauge\na 1\n', /or twice/],
    'unknown type': ['# TYPE a thing\na 1\n', /unknown type/],
    'family in two groups': ['a 1\nb 1\na{x="1"} 2\n', /not one group/],
    'histogram without +Inf': ['# TYPE h histogram\nh_bucket{le="1"} 1\nh_sum 1\nh_count 1\n', /\+Inf bucket last/],
    'histogram not cumulative': [
      '# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="2"} 1\nh_bucket{le="+Inf"} 2\nh_sum 1\nh_count 2\n',
      /not ascending and cumulative/,
    ],
    'histogram count disagrees': [
      '# TYPE h histogram\nh_bucket{le="+Inf"} 2\nh_sum 1\nh_count 3\n',
      /differs from _count/,
    ],
  };
  for (const [why, [text, message]] of Object.entries(bad))
    assert.throws(() => parsePrometheusText(text), message, why);
});
