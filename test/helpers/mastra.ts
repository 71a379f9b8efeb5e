// Mastra run for real: an Agent with one tool and memory on the OpenAI-compatible model
// stand-in, two turns of one memory thread, its spans exported by Mastra's own OTel exporter
// (@mastra/otel-exporter, OTLP/HTTP protobuf) to a Weft.
import { Agent } from '@mastra/core/agent';
import { Mastra } from '@mastra/core/mastra';
import { InMemoryStore } from '@mastra/core/storage';
import { createTool } from '@mastra/core/tools';
import { Memory } from '@mastra/memory';
import { Observability } from '@mastra/observability';
import { OtelExporter } from '@mastra/otel-exporter';
import { z } from 'zod';
import type { FrameworkRig } from './agent-frameworks.js';
import { forecast, MODEL } from './model-standin.js';

export const QUESTIONS = [
  ['What is the weather in Paris?', 'Paris'],
  ['And in Berlin?', 'Berlin'],
] as const;

/** Two turns of the memory thread `thread`; the agent's replies. */
export async function runMastra(rig: FrameworkRig, project: string, thread: string): Promise<string[]> {
  const storage = new InMemoryStore();
  const getWeather = createTool({
    id: 'get_weather',
    description: 'The weather of a city',
    inputSchema: z.object({ city: z.string() }),
    execute: async (input: { city: string }) => forecast(input.city),
  });
  const agent = new Agent({
    id: 'weather-agent',
    name: 'weather_agent',
    instructions: 'You report the weather.',
    model: { id: `openai/${MODEL}`, url: `${rig.model.url}/v1`, apiKey: 'sk-standin' },
    tools: { get_weather: getWeather },
    memory: new Memory({ storage }),
  });
  const exporter = new OtelExporter({
    provider: {
      custom: { endpoint: rig.tracesUrl, protocol: 'http/protobuf', headers: rig.headers(project) },
    },
  });
  const mastra = new Mastra({
    agents: { weatherAgent: agent },
    storage,
    observability: new Observability({ configs: { otel: { serviceName: 'mastra-weather', exporters: [exporter] } } }),
  });
  try {
    const replies: string[] = [];
    for (const [q] of QUESTIONS) {
      const out = await mastra
        .getAgent('weatherAgent')
        .generate(q, { memory: { thread, resource: 'user-1' }, maxSteps: 5 });
      replies.push(out.text);
    }
    return replies;
  } finally {
    await mastra.shutdown();
  }
}
