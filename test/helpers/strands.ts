// What the Strands tests share: an OTLP/JSON export of Strands' spans to Weft (the exporter
// Strands' own setupTracer uses, batched), and the parts of a weather agent on the model stand-in.
import { trace } from '@opentelemetry/api';
import { NodeTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { z } from 'zod';
import { Agent, Swarm, tool } from '@strands-agents/sdk';
import { OpenAIModel } from '@strands-agents/sdk/models/openai';
import type { FrameworkRig } from './agent-frameworks.js';
import { forecast, MODEL } from './model-standin.js';

export const QUESTIONS = [
  ['What is the weather in Paris?', 'Paris'],
  ['And in Berlin?', 'Berlin'],
] as const;

/**
 * Runs `run` with Strands' spans exported to `project` and flushed before it returns. Strands
 * reads the semconv opt-in when an Agent is made, and takes its tracer from the global API.
 */
export async function withStrandsTracing<T>(
  rig: FrameworkRig,
  project: string,
  optIn: string,
  run: () => Promise<T>,
): Promise<T> {
  process.env.OTEL_SEMCONV_STABILITY_OPT_IN = optIn;
  trace.disable();
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'strands-weather' }),
    spanProcessors: [
      new BatchSpanProcessor(new OTLPTraceExporter({ url: rig.tracesUrl, headers: rig.headers(project) })),
    ],
  });
  provider.register();
  try {
    const out = await run();
    await provider.forceFlush();
    return out;
  } finally {
    await provider.shutdown();
    trace.disable();
    delete process.env.OTEL_SEMCONV_STABILITY_OPT_IN;
  }
}

/** Strands' OpenAI model on the stand-in. */
export const standinModel = (rig: FrameworkRig, api: 'responses' | 'chat') =>
  new OpenAIModel({ api, modelId: MODEL, apiKey: 'sk-standin', clientConfig: { baseURL: `${rig.model.url}/v1` } });

/** The weather tool, answering `forecast(city)`. */
export const weatherTool = () =>
  tool({
    name: 'get_weather',
    description: 'The weather of a city',
    inputSchema: z.object({ city: z.string() }),
    callback: ({ city }) => forecast(city),
  });

/**
 * Two turns of a Swarm (a new one per turn, as a service handling one request makes it): the
 * triage agent hands each question to the weather agent through the Swarm's structured output.
 * The session is named only by `session.id` in the Swarm's traceAttributes.
 */
export function runStrandsSwarm(rig: FrameworkRig, project: string, session: string): Promise<string[]> {
  return withStrandsTracing(rig, project, 'gen_ai_latest_experimental,gen_ai_span_attributes_only', async () => {
    const replies: string[] = [];
    for (const [q] of QUESTIONS) {
      const triage = new Agent({
        model: standinModel(rig, 'chat'),
        name: 'triage_agent',
        id: 'triage_agent',
        description: 'Routes questions',
        systemPrompt: 'Hand weather questions to the weather agent.',
        printer: false,
      });
      const weather = new Agent({
        model: standinModel(rig, 'chat'),
        tools: [weatherTool()],
        name: 'weather_agent',
        id: 'weather_agent',
        description: 'Knows the weather',
        systemPrompt: 'You report the weather.',
        printer: false,
      });
      const swarm = new Swarm({
        id: 'weather_swarm',
        nodes: [triage, weather],
        start: 'triage_agent',
        maxSteps: 6,
        traceAttributes: { 'session.id': session },
      });
      replies.push(JSON.stringify(await swarm.invoke(q)));
    }
    return replies;
  });
}
