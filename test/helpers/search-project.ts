// A fresh project for /agents/search tests: a sender of OTLP/JSON spans to it and its search,
// each asserting a 200.
import assert from 'node:assert/strict';
import { hexId, otlpJson, type TestSpan } from './agent-spans.js';
import type { TestApp } from './test-app.js';

export function searchProject(t: TestApp, prefix: string) {
  const name = `${prefix}-${hexId(4)}`;
  const id = `acme/${name}`;
  return {
    id,
    async send(spans: TestSpan[]) {
      const r = await t.postRaw(
        '/agents/otel/v1/traces',
        otlpJson({ 'wandb.entity': 'acme', 'wandb.project': name }, spans),
        'application/json',
      );
      assert.equal(r.status, 200, r.text);
    },
    async search(body: Record<string, unknown>) {
      const r = await t.post('/agents/search', { project_id: id, ...body });
      assert.equal(r.status, 200, r.text);
      return r.body;
    },
  };
}
